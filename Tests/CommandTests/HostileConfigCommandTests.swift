import Foundation
import KioskTestSupport
import Testing

/// The faults of issue 16 that a config file caused, each with its minimal file, run through the
/// built kiosk as a user runs it: `check-config` and `replay` (with every output, so the state's
/// JSON, the decision trace and the screenshot are all written) must end with exit status 2 and
/// the one line that says where and what, never a trap, an abort or a hang. And a file at every
/// bound check-config allows must replay and draw.
@Suite("Hostile config files, through the kiosk command")
struct HostileConfigCommandTests {
    /// The canvas, then `extra`.
    static func config(_ extra: String) -> String {
        "[[view]]\nname = \"canvas\"\nkind = \"canvas\"\nframe = [0, 0, 800, 480]\n\n" + extra + "\n"
    }

    static func square(_ frame: String) -> String {
        "[[view]]\nname = \"s\"\nkind = \"square\"\nparent = \"canvas\"\nframe = \(frame)"
    }

    static let swipe = "[[gesture]]\nview = \"canvas\"\nkind = \"swipe\"\n"

    /// A file, and the error both commands give for it after "path:".
    static let faults: [(String, String)] = [
        // 1: the state's JSON trapped on a frame of 1e17.
        (config(square("[1e17, 0, 1, 1]")), "10: view \"s\".frame: [1e+17, 0, 1, 1] reaches beyond what is allowed: "
            + "x, y and their far edges x + width, y + height from -65536 to 65536 pixels"),
        // 2: the decision trace trapped on a swipe's minimum distance of 1e19 or inf.
        (config(swipe + "minimum_distance_mm = 1e19"), "9: gesture \"swipe@canvas\".minimum_distance_mm: 1e+19 is out of range; "
            + "allowed: a number of millimetres greater than 0 and at most 176.5, the panel's diagonal"),
        (config(swipe + "minimum_distance_mm = inf"), "9: gesture \"swipe@canvas\".minimum_distance_mm: inf is out of range; "
            + "allowed: a number of millimetres greater than 0 and at most 176.5, the panel's diagonal"),
        // 3 and 4: the renderer trapped on a square of 1e308, inf or 3e9.
        (config(square("[0, 0, 1e308, 1e308]")), "10: view \"s\".frame: [0, 0, 1e+308, 1e+308] reaches beyond what is allowed: "
            + "x, y and their far edges x + width, y + height from -65536 to 65536 pixels"),
        (config(square("[0, 0, inf, inf]")), "10: view \"s\".frame: every number must be finite, found [0, 0, inf, inf]"),
        (config(square("[0, 0, 3e9, 3e9]")), "10: view \"s\".frame: [0, 0, 3000000000, 3000000000] reaches beyond what is allowed: "
            + "x, y and their far edges x + width, y + height from -65536 to 65536 pixels"),
        // 8: cairo_arc did not return on a switch of 1e308.
        (config("[[view]]\nname = \"t\"\nkind = \"switch\"\nparent = \"canvas\"\nframe = [0, 0, 120, 1e308]"),
         "10: view \"t\".frame: [0, 0, 120, 1e+308] reaches beyond what is allowed: "
            + "x, y and their far edges x + width, y + height from -65536 to 65536 pixels"),
        // 5: toml++ aborted on an assertion.
        ("[\n", "1: column 2: not valid TOML: a table header needs a name: [name] or [[name]], the name in letters, digits, '_' and '-', "
            + "or in quotes; found a line break"),
        ("[ \n", "1: column 3: not valid TOML: a table header needs a name: [name] or [[name]], the name in letters, digits, '_' and '-', "
            + "or in quotes; found a line break"),
        ("[#\n", "1: column 2: not valid TOML: a table header needs a name: [name] or [[name]], the name in letters, digits, '_' and '-', "
            + "or in quotes; found '#'"),
        ("[.]\n", "1: column 2: not valid TOML: a table header needs a name: [name] or [[name]], the name in letters, digits, '_' and '-', "
            + "or in quotes; found '.'"),
        ("[[\n", "1: column 3: not valid TOML: a table header needs a name: [name] or [[name]], the name in letters, digits, '_' and '-', "
            + "or in quotes; found a line break"),
        ("[[[1]]]\n", "1: column 3: not valid TOML: a table header needs a name: [name] or [[name]], the name in letters, digits, '_' and '-', "
            + "or in quotes; found '['"),
        ("x = [}\n", "1: column 6: not valid TOML: '}' in a list closes no inline table; a list ends with ']'"),
        ("x = [\u{2028}]\n", "1: column 6: not valid TOML: U+2028 in a list; only spaces, tabs and \\n or \\r\\n may separate values"),
        ("x = 1979-05-27Tx:\n", "1: column 16: not valid TOML: a date-time needs the time after its 'T', such as 1979-05-27T07:32:00; found 'x'"),
        // Also in the issue: a colour with a sign, inf on the panel, a font that is not there.
        (config(square("[0, 0, 9, 9]\ncolor = \"#+12345\"")), "11: view \"s\".color: '#+12345' is not a colour; expected \"#rrggbb\", such as \"#f5c518\""),
        ("[panel]\nwidth_mm = inf\n", "2: panel.width_mm: inf is out of range; allowed: a number of millimetres from 1 to 10000"),
        ("[display]\nfont = \"/nonexistent/font.ttf\"\n" + config(""),
         "2: display.font: '/nonexistent/font.ttf' does not exist; expected a font file FreeType reads, such as "
            + "\"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf\""),
    ]

    /// `kiosk` with `arguments`, killed after `seconds`: a hang fails the test instead of holding the suite.
    static func run(_ arguments: [String], seconds: Double = 30,
                    sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> KioskExecutable.Finished {
        let r = try KioskExecutable.run(arguments, seconds: seconds)
        if r.timedOut {
            Issue.record("kiosk \(arguments.joined(separator: " ")) did not end within \(seconds) s", sourceLocation: sourceLocation)
        }
        return r
    }

    @Test(arguments: faults)
    func checkConfigRefusesTheFileWithOneLine(text: String, error: String) throws {
        let folder = try KioskExecutable.temporaryFolder("hostile")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("kiosk.toml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let r = try Self.run(["check-config", path])
        // A trap or an abort would end on a signal with Swift's or libc's words, not this line.
        #expect(r.stderr == "\(path):\(error)\n")
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
    }

    @Test(arguments: faults)
    func replayRefusesTheFileWithOneLine(text: String, error: String) throws {
        let folder = try KioskExecutable.temporaryFolder("hostile")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("kiosk.toml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let out = { (name: String) in folder.appendingPathComponent(name).path }
        let r = try Self.run(["replay", "traces/demo.evemu", "--config", path, "--screenshot", out("final.png"),
                                         "--state", out("state.json"), "--decisions", out("decisions.txt"), "--events", out("events.jsonl")])
        #expect(r.stderr == "kiosk replay: \(path):\(error)\n")
        #expect(r.status == 2)
    }

    /// Every number at the edge of what is allowed, and views far larger than the panel.
    static let atTheBounds = """
        [panel]
        width_px = 800
        height_px = 480
        width_mm = 10000
        height_mm = 1

        [scene]
        drop_animation = 10
        lift_scale = 4

        [[view]]
        name = "canvas"
        kind = "canvas"
        frame = [-65536, -65536, 131072, 131072]
        themes = [
          { name = "day", background = "#eef0f3", foreground = "#1d2733" },
        ]

        [[view]]
        name = "big"
        kind = "square"
        parent = "canvas"
        frame = [-65536, -65536, 131072, 131072]
        color = "#f5c518"

        [[view]]
        name = "far"
        kind = "square"
        parent = "canvas"
        frame = [65535, 65535, 1, 1]

        [[view]]
        name = "tall"
        kind = "switch"
        parent = "canvas"
        frame = [0, -65536, 120, 131072]
        on = true
        tracking_margin_mm = 100

        [[view]]
        name = "wide"
        kind = "slider"
        parent = "canvas"
        frame = [-65536, 0, 131072, 65536]
        value = 1

        [[view]]
        name = "button"
        kind = "button"
        parent = "canvas"
        frame = [-65536, 400, 131072, 65136]

        [[gesture]]
        view = "big"
        kind = "pan"
        action = "move"
        maximum_touches = 9223372036854775807
        hysteresis_mm = 0

        [[gesture]]
        view = "big"
        kind = "pinch"
        action = "scale"
        hysteresis_mm = 100
        simultaneous_with = ["pan", "rotation"]

        [[gesture]]
        view = "big"
        kind = "rotation"
        action = "rotate"
        hysteresis_radians = 3.141592653589793
        simultaneous_with = ["pan"]

        [[gesture]]
        view = "big"
        kind = "long_press"
        action = "lift"
        minimum_press_duration = 0
        allowable_movement_mm = 100
        multi_tap_interval = 60

        [[gesture]]
        view = "big"
        kind = "tap"
        action = "bring_to_front"
        taps = 10
        touches = 10
        multi_tap_interval = 60
        multi_tap_distance_mm = 1000

        [[gesture]]
        view = "canvas"
        kind = "swipe"
        action = "cycle_theme"
        minimum_distance_mm = 10000
        minimum_speed_mm_per_s = 100000
        maximum_angle_degrees = 90
        maximum_duration = 60

        [[gesture]]
        view = "canvas"
        kind = "pan"
        action = "move_all"
        minimum_touches = 10

        [display]
        card = "headless"
        blank_after = 86400

        [input]
        calibration = [100, -100, 100, -100, 100, -100]
        jitter = 2147483647
        minimum_pressure = 2147483647

        [log]
        serial = "none"
        repeat_interval = 3600
        stats_interval = 86400

        [loop]
        frame_budget = 1000
        """

    @Test func aFileAtEveryBoundChecksReplaysAndDraws() throws {
        let folder = try KioskExecutable.temporaryFolder("bounds")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("kiosk.toml").path
        try Self.atTheBounds.write(toFile: path, atomically: true, encoding: .utf8)
        let check = try Self.run(["check-config", path])
        #expect(check.status == 0, "\(check.stderr)")
        let out = { (name: String) in folder.appendingPathComponent(name).path }
        let r = try Self.run(["replay", "traces/demo.evemu", "--config", path, "--screenshot", out("final.png"),
                                         "--state", out("state.json"), "--decisions", out("decisions.txt"), "--events", out("events.jsonl")])
        #expect(r.status == 0, "\(r.stderr)")
        for name in ["final.png", "state.json", "decisions.txt", "events.jsonl"] {
            #expect(FileManager.default.fileExists(atPath: out(name)), "\(name)")
        }
        let state = try Data(contentsOf: URL(fileURLWithPath: out("state.json")))
        #expect((try? JSONSerialization.jsonObject(with: state)) != nil, "the state is JSON")
    }
}
