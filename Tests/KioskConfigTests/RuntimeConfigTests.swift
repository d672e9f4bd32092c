import Foundation
import Scene
import KioskTestSupport
import Testing
import TOMLKit
@testable import KioskConfig

/// The smallest scene a config may have, after the runtime sections under test (which come first,
/// so a top-level `display = 3` is top-level).
let minimalScene = """

    [[view]]
    name = "canvas"
    kind = "canvas"
    frame = [0, 0, 800, 480]

    """

/// A config file with `sections` and the minimal scene.
func runtimeConfig(_ sections: String) -> String { sections + "\n" + minimalScene }

/// The runtime settings `sections` give, which must be valid.
func runtime(_ sections: String) throws -> RuntimeSettings {
    try KioskConfiguration.parse(runtimeConfig(sections), file: "kiosk.toml").runtime
}

/// Every runtime key, none at its default.
let everyRuntimeKey = """
    [display]
    card = "/dev/dri/card1"
    connector = "DSI-1"
    mode = "800x480@60"
    pixel_format = "rgb565"
    rotation = 180
    blank_after = 300
    backlight = "rpi_backlight"
    font = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
    screenshot_directory = "/tmp/shots"

    [input]
    device = "generic ft5x06 (79)"
    directory = "/run/input"
    grab = false
    calibration = [0, 1, 0, -1, 0, 1]
    rotation = 90
    flip_x = true
    flip_y = true
    jitter = 3
    minimum_pressure = 30
    minimum_touch_duration = 0.04
    maximum_touch_size = 12.5
    ignore = [[0, 0, 800, 6], [0, 474, 800, 6]]

    [log]
    serial = "/dev/ttyAMA0"
    baud = 9600
    level = "debug"
    stderr = false
    buffer_lines = 1024
    repeat_interval = 2.5
    stats_interval = 300

    [loop]
    frame_budget = 16.7

    [loop.stages]
    input = 0.2
    timers = 0.1
    recognizers = 0.1
    animation = 0.1
    render = 0.4
    present = 0.1
    """

@Suite("Runtime sections: [display], [input], [log], [loop]")
struct RuntimeSectionTests {
    @Test func everyKeyIsRead() throws {
        let s = try runtime(everyRuntimeKey)
        #expect(s.display.card == "/dev/dri/card1")
        #expect(s.display.connector == "DSI-1")
        #expect(s.display.mode == "800x480@60")
        #expect(s.display.pixelFormat == .rgb565)
        #expect(s.display.rotation == 180)
        #expect(s.display.blankAfterSeconds == 300)
        #expect(s.display.font == "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf")
        #expect(s.display.screenshotDirectory == "/tmp/shots")

        #expect(s.input.device == "generic ft5x06 (79)")
        #expect(s.input.directory == "/run/input")
        #expect(s.input.grab == false)
        #expect(s.input.calibration == [0, 1, 0, -1, 0, 1])
        #expect(s.input.pointercal == nil)
        #expect(s.input.rotation == 90)
        #expect(s.input.flipX && s.input.flipY)
        #expect(s.input.jitterUnits == 3)
        #expect(s.input.minimumPressure == 30)

        #expect(s.log.serial == "/dev/ttyAMA0")
        #expect(s.log.baud == 9600)
        #expect(s.log.level == .debug)
        #expect(s.log.stderr == false)
        #expect(s.log.bufferLines == 1024)
        #expect(s.log.repeatInterval == 2.5)
        #expect(s.log.statsInterval == 300)

        #expect(s.loop.frameBudgetMilliseconds == 16.7)
        #expect(s.loop.stageShares == [.input: 0.2, .timers: 0.1, .recognizers: 0.1, .animation: 0.1, .render: 0.4, .present: 0.1])
    }

    @Test func theKeywordsHeadlessAndNoneAndAPointercalFile() throws {
        let s = try runtime("""
            [display]
            card = "headless"
            [input]
            pointercal = "/etc/pointercal"
            [log]
            serial = "none"
            stats_interval = 0
            """)
        #expect(s.display.card == "headless")
        #expect(s.input.pointercal == "/etc/pointercal")
        #expect(s.input.calibration == nil)
        #expect(s.log.serial == nil)
        #expect(s.log.statsInterval == 0)
    }

    @Test func withoutTheSectionsEveryDefaultHolds() throws {
        let s = try runtime("")
        #expect(s == RuntimeSettings())
        #expect(s.display.card == nil && s.display.connector == nil && s.display.mode == nil)
        #expect(s.display.pixelFormat == .xrgb8888 && s.display.rotation == 0 && s.display.blankAfterSeconds == 0)
        #expect(s.input.device == nil && s.input.directory == "/dev/input" && s.input.grab)
        #expect(s.input.rotation == nil, "touches follow the display unless told otherwise")
        #expect(s.input.calibration == nil && s.input.pointercal == nil && s.input.jitterUnits == 0 && s.input.minimumPressure == 0)
        #expect(s.log.serial == "/dev/serial0" && s.log.baud == 115_200 && s.log.level == .info && s.log.stderr)
        #expect(s.log.bufferLines == 256 && s.log.repeatInterval == 10 && s.log.statsInterval == 60)
        #expect(s.loop.frameBudgetMilliseconds == nil)
        #expect(s.loop.stageShares == LoopSettings.defaultShares)
        #expect(abs(LoopSettings.defaultShares.values.reduce(0, +) - 1) < 1e-9)
        // Empty sections change nothing either.
        #expect(try runtime("[display]\n[input]\n[log]\n[loop]") == RuntimeSettings())
    }

    @Test func stageSharesMaySumToOneWithinATolerance() throws {
        let s = try runtime("[loop.stages]\ninput = 0.1\ntimers = 0.05\nrecognizers = 0.1\nanimation = 0.05\nrender = 0.55\npresent = 0.1505")
        #expect(s.loop.stageShares[.present] == 0.1505)
    }

    @Test(arguments: ["800x480", "800x480@60", "1920x1080@144", "1x1", "16384x16384@1000"])
    func aModeIsWidthByHeightAtAnOptionalRefresh(mode: String) {
        #expect(RuntimeSection.isMode(mode))
    }

    @Test(arguments: ["", "800", "800x", "x480", "800x480@", "@60", "800x480@60Hz", "800X480", "800*480", "0x480", "800x0",
                      "800x480@0", "+800x480", " 800x480", "800x480@60@30", "800x480x2", "-800x480", "99999999999999999999x1",
                      "16385x480", "800x16385", "800x480@1001"])
    func anythingElseIsNotAMode(mode: String) {
        #expect(!RuntimeSection.isMode(mode))
    }
}

@Suite("Runtime sections: errors name file, line, key, the value and what is allowed")
struct RuntimeErrorTests {
    /// `sections` are refused with exactly `expected` ("key: message") on the line of `needle`.
    func expectRefused(_ sections: String, at needle: String, _ expected: String,
                       sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let text = runtimeConfig(sections)
        let n = line(of: needle, in: text)
        #expect(n > 0, "'\(needle)' is in the text", sourceLocation: sourceLocation)
        let e = try #require(configError(text), sourceLocation: sourceLocation)
        #expect(e.description == "kiosk.toml:\(n): \(expected)", sourceLocation: sourceLocation)
    }

    @Test(arguments: [
        ("[display]\nrotation = 45", "rotation",
         "display.rotation: 45 is not one of: 0, 90, 180, 270 (degrees clockwise)"),
        ("[display]\nrotation = \"90\"", "rotation",
         "display.rotation: expected a whole number, one of: 0, 90, 180, 270 (degrees clockwise), found \"90\""),
        ("[display]\nrotation = 90.0", "rotation",
         "display.rotation: expected a whole number, one of: 0, 90, 180, 270 (degrees clockwise), found 90.0"),
        ("[display]\nmode = \"800x480@\"", "mode",
         "display.mode: '800x480@' is not a mode; expected \"WxH\" or \"WxH@R\" in whole numbers greater than 0, W and H up to 16384, R up to 1000, such as \"800x480\" or \"800x480@60\""),
        ("[display]\nmode = 800", "mode", "display.mode: expected a string in quotes, found 800"),
        ("[display]\npixel_format = \"rgb888\"", "pixel_format",
         "display.pixel_format: 'rgb888' is not one of: xrgb8888, rgb565; did you mean 'xrgb8888'?"),
        ("[display]\nblank_after = -1", "blank_after",
         "display.blank_after: -1 is out of range; allowed: a number of seconds from 0 to 86400"),
        ("[display]\nblank_after = \"never\"", "blank_after",
         "display.blank_after: expected a number of seconds from 0 to 86400, found \"never\""),
        ("[display]\nblank_after = inf", "blank_after",
         "display.blank_after: inf is out of range; allowed: a number of seconds from 0 to 86400"),
        ("[display]\nblank_afer = 60", "blank_afer",
         "display.blank_afer: unknown key in [display]; did you mean 'blank_after'? Allowed: card, connector, mode, pixel_format, rotation, blank_after, font, backlight, screenshot_directory"),
        ("[display]\ncard = \"headles\"", "card",
         "display.card: 'headles' is neither a device path nor 'headless'; did you mean 'headless'? Allowed: an absolute path such as \"/dev/dri/card1\", or \"headless\" (draw into memory only)"),
        ("[display]\nconnector = \"\"", "connector",
         "display.connector: must not be empty; expected \"HDMI-A-1\" or \"DSI-1\", or leave the key out"),
        ("[dispaly]\nrotation = 90", "[dispaly]",
         "dispaly: unknown key in the file; did you mean 'display'? Allowed: panel, scene, view, gesture, display, input, log, loop, control, hook, hooks, mqtt, state"),
        ("display = 3", "display", "display: expected a table ([display]), found 3"),
    ])
    func display(sections: String, needle: String, expected: String) throws {
        try expectRefused(sections, at: needle, expected)
    }

    @Test(arguments: [
        ("[input]\ngrab = \"yes\"", "grab", "input.grab: expected true or false, found \"yes\""),
        ("[input]\nflip_x = 1", "flip_x", "input.flip_x: expected true or false, found 1"),
        ("[input]\ncalibration = [1, 0, 0, 0, 1]", "calibration",
         "input.calibration: expected libinput's calibration matrix [a, b, c, d, e, f], 6 numbers in brackets, found a list"),
        ("[input]\ncalibration = [1, 0, 0, 0, 1, nan]", "calibration",
         "input.calibration: every number must be from -100 to 100, found [1.0, 0.0, 0.0, 0.0, 1.0, nan]"),
        ("[input]\nrotation = 45", "rotation", "input.rotation: 45 is not one of: 0, 90, 180, 270 (degrees clockwise)"),
        ("[input]\njitter = -5", "jitter", "input.jitter: -5 is out of range; allowed: a whole number from 0 to 2147483647"),
        ("[input]\nminimum_pressure = 1.5", "minimum_pressure",
         "input.minimum_pressure: expected a whole number from 0 to 2147483647, found 1.5"),
        ("[input]\nminimum_pressure = -1", "minimum_pressure",
         "input.minimum_pressure: -1 is out of range; allowed: a whole number from 0 to 2147483647"),
        ("[input]\ndevice = \"\"", "device",
         "input.device: must not be empty; expected \"/dev/input/event2\" or a device name such as \"generic ft5x06 (79)\", or leave the key out"),
        ("[input]\ncalibrate = [1, 0, 0, 0, 1, 0]", "calibrate",
         "input.calibrate: unknown key in [input]; did you mean 'calibration'? Allowed: device, directory, grab, calibration, pointercal, rotation, flip_x, flip_y, jitter, minimum_pressure, minimum_touch_duration, maximum_touch_size, ignore"),
    ])
    func input(sections: String, needle: String, expected: String) throws {
        try expectRefused(sections, at: needle, expected)
    }

    @Test func calibrationAndPointercalTogetherAreRefusedOnTheSecondOfThem() throws {
        let calibrationFirst = "[input]\ncalibration = [1, 0, 0, 0, 1, 0]\ngrab = true\npointercal = \"/etc/pointercal\""
        let first = line(of: "calibration", in: runtimeConfig(calibrationFirst))
        try expectRefused(calibrationFirst, at: "pointercal",
                          "input.pointercal: 'calibration' is already given on line \(first); give calibration or pointercal, not both")
        let pointercalFirst = "[input]\npointercal = \"/etc/pointercal\"\ncalibration = [1, 0, 0, 0, 1, 0]"
        let other = line(of: "pointercal", in: runtimeConfig(pointercalFirst))
        try expectRefused(pointercalFirst, at: "calibration",
                          "input.calibration: 'pointercal' is already given on line \(other); give calibration or pointercal, not both")
    }

    @Test(arguments: [
        ("[log]\nbaud = 14400", "baud",
         "log.baud: 14400 is not one of: 1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600"),
        ("[log]\nbaud = \"fast\"", "baud",
         "log.baud: expected a whole number, one of: 1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600, found \"fast\""),
        ("[log]\nlevel = \"warnign\"", "level",
         "log.level: 'warnign' is not one of: trace, debug, info, notice, warning, error, critical; did you mean 'warning'?"),
        ("[log]\nlevel = \"verbose\"", "level",
         "log.level: 'verbose' is not one of: trace, debug, info, notice, warning, error, critical"),
        ("[log]\nstderr = \"no\"", "stderr", "log.stderr: expected true or false, found \"no\""),
        ("[log]\nbuffer_lines = 8", "buffer_lines", "log.buffer_lines: 8 is out of range; allowed: a whole number from 16 to 65536"),
        ("[log]\nbuffer_lines = 100000", "buffer_lines",
         "log.buffer_lines: 100000 is out of range; allowed: a whole number from 16 to 65536"),
        ("[log]\nrepeat_interval = -1", "repeat_interval",
         "log.repeat_interval: -1 is out of range; allowed: a number of seconds from 0 to 3600"),
        ("[log]\nstats_interval = 0.5", "stats_interval",
         "log.stats_interval: 0.5 is out of range; allowed: 0 (no stats line) or a number of seconds from 1 to 86400"),
        ("[log]\nstats_interval = -60", "stats_interval",
         "log.stats_interval: -60 is out of range; allowed: 0 (no stats line) or a number of seconds from 1 to 86400"),
        ("[log]\nstats_interval = \"hourly\"", "stats_interval",
         "log.stats_interval: expected 0 (no stats line) or a number of seconds from 1 to 86400, found \"hourly\""),
        ("[log]\nserial = \"ttyS0\"", "serial",
         "log.serial: 'ttyS0' is neither a device path nor 'none'. Allowed: an absolute path such as \"/dev/serial0\", or \"none\" (log to stderr only)"),
        ("[log]\nserial = \"nnoe\"", "serial",
         "log.serial: 'nnoe' is neither a device path nor 'none'; did you mean 'none'? Allowed: an absolute path such as \"/dev/serial0\", or \"none\" (log to stderr only)"),
        ("[log]\nverbosity = \"debug\"", "verbosity",
         "log.verbosity: unknown key in [log]. Allowed: serial, baud, level, stderr, buffer_lines, repeat_interval, stats_interval"),
    ])
    func log(sections: String, needle: String, expected: String) throws {
        try expectRefused(sections, at: needle, expected)
    }

    @Test(arguments: [
        ("[loop]\nframe_budget = 0", "frame_budget",
         "loop.frame_budget: 0 is out of range; allowed: a number of milliseconds greater than 0 and at most 1000"),
        ("[loop]\nframe_budget = 1000.5", "frame_budget",
         "loop.frame_budget: 1000.5 is out of range; allowed: a number of milliseconds greater than 0 and at most 1000"),
        ("[loop]\nstages = 0.5", "stages", "loop.stages: expected a table ([loop.stages]), found 0.5"),
        ("[loop.stages]\ninput = 0.5\nrender = 0.5", "[loop.stages]",
         "loop.stages: [loop.stages] must give all six stages' shares (input, timers, recognizers, animation, render, present); missing: timers, recognizers, animation, present"),
        ("[loop.stages]\ninput = 0.1\ntimers = 0.05\nrecognizers = 0.1\nanimation = 0.05\nrender = 0.5\npresent = 0.15", "[loop.stages]",
         "loop.stages: the shares sum to 0.95; they must sum to 1 (within 0.001)"),
        ("[loop.stages]\ninput = 0.1\ntimers = 0.05\nrecognizers = 0.1\nanimation = 0.05\nrender = 0\npresent = 0.15", "render",
         "loop.stages.render: 0 is out of range; allowed: a number greater than 0 and at most 1"),
        ("[loop.stages]\ninput = 0.1\ntimers = 0.05\nrecognizers = 0.1\nanimation = 0.05\nrendr = 0.55\npresent = 0.15", "rendr",
         "loop.stages.rendr: unknown key in [loop.stages]; did you mean 'render'? Allowed: input, timers, recognizers, animation, render, present"),
        ("[loop]\nstages = { input = 1 }", "stages",
         "loop.stages: [loop.stages] must give all six stages' shares (input, timers, recognizers, animation, render, present); missing: timers, recognizers, animation, render, present"),
    ])
    func loop(sections: String, needle: String, expected: String) throws {
        try expectRefused(sections, at: needle, expected)
    }
}

@Suite("The resolved config text")
struct ResolvedTextTests {
    /// `config` written out and read back.
    func reread(_ config: KioskConfiguration) throws -> KioskConfiguration {
        try KioskConfiguration.parse(config.resolvedText, file: "resolved.toml")
    }

    @Test func theDefaultConfigReadsBackTheSame() throws {
        let config = try KioskConfiguration.load(path: defaultConfigPath)
        let again = try reread(config)
        #expect(content(again).scene == content(config).scene)
        #expect(again.runtime == config.runtime)
        #expect(again.resolvedText.replacingOccurrences(of: "\"resolved.toml\"", with: "\"\(defaultConfigPath)\"") == config.resolvedText)
    }

    @Test func aFileWithEveryRuntimeKeyReadsBackTheSame() throws {
        for sections in [everyRuntimeKey, "[input]\npointercal = \"/etc/pointercal\"\n[log]\nserial = \"none\"\n[display]\ncard = \"headless\""] {
            let config = try KioskConfiguration.parse(runtimeConfig(sections), file: "kiosk.toml")
            let again = try reread(config)
            #expect(again.runtime == config.runtime)
            #expect(content(again).scene == content(config).scene)
        }
    }

    @Test func everySectionAndKeyIsWrittenAndUnsetOnesAreCommentsSayingWhatHappens() throws {
        let text = try KioskConfiguration.parse(runtimeConfig(""), file: "kiosk.toml").resolvedText
        for header in ["[panel]", "[scene]", "[[view]]", "[display]", "[input]", "[log]", "[loop]", "[loop.stages]"] {
            #expect(text.contains("\n\(header)\n"), "\(header)")
        }
        for key in RuntimeSection.logKeys { #expect(text.contains("\n\(key) = "), "\(key)") }
        #expect(text.contains("\nserial = \"/dev/serial0\"\n"))
        #expect(text.contains("\n# card: not set: the first card with a connected connector\n"))
        #expect(text.contains("\n# mode: not set: the connector's preferred mode\n"))
        #expect(text.contains("\n# device: not set: the first touchscreen found by its capabilities\n"))
        #expect(text.contains("\n# frame_budget: not set: one refresh of the display's mode\n"))

        let set = try KioskConfiguration.parse(runtimeConfig(everyRuntimeKey), file: "kiosk.toml").resolvedText
        #expect(set.components(separatedBy: "not set").count == 3)
        #expect(set.contains("\n# pointercal: not set: no tslib pointercal file is read\n"))
        #expect(set.contains("\n# directory: not set: the unit's StateDirectory ($STATE_DIRECTORY), else /var/lib/kiosk\n"))
        #expect(set.contains("\ncard = \"/dev/dri/card1\"\n"))
        #expect(set.contains("\ncalibration = [0, 1, 0, -1, 0, 1]\n"))
        #expect(set.contains("\nframe_budget = 16.7\n"))
    }

    @Test func everyGestureOptionIsWritten() throws {
        let text = try KioskConfiguration.load(path: defaultConfigPath).resolvedText
        for key in ["taps", "touches", "allowable_movement_mm", "multi_tap_interval", "multi_tap_distance_mm",
                    "minimum_press_duration", "minimum_touches", "maximum_touches", "hysteresis_mm", "hysteresis_radians",
                    "directions", "minimum_distance_mm", "minimum_speed_mm_per_s", "maximum_angle_degrees", "maximum_duration",
                    "simultaneous_with", "require_to_fail", "should_require_failure_of", "should_be_required_to_fail_by",
                    "cancels_touches_in_view"] {
            #expect(text.contains("\n\(key) = "), "\(key)")
        }
        #expect(text.contains("\nmaximum_touches = 9223372036854775807  # unlimited\n"))
        #expect(text.contains("\ndirections = [\"right\", \"left\"]\n"))
    }

    @Test func stringsThatNeedEscapingReadBackTheSame() throws {
        let label = "Say \"hi\" \\ C:\\kiosk # not a comment\n\ttabbed\r\u{8}\u{C}\u{1}\u{7F} ünïcode ✓ ''' \"\"\""
        let text = """
            [display]
            screenshot_directory = "/var/lib/My \\"Shots\\""
            [input]
            device = "generic ft5x06 (79) # 2"

            [[view]]
            name = "canvas"
            kind = "canvas"
            frame = [0, 0, 800, 480]
            themes = [
              { name = "d\\"ay\\\\", background = "#000000", foreground = "#ffffff" },
            ]

            [[view]]
            name = "button"
            kind = "button"
            parent = "canvas"
            frame = [40, 396, 180, 56]
            label = \(TOMLWriter.string(label))
            """
        let config = try KioskConfiguration.parse(text, file: "kiosk.toml")
        #expect(config.scene.views.first { $0.name == "button" }?.label == label)
        #expect(config.scene.views[0].themes[0].name == "d\"ay\\")
        let again = try reread(config)
        #expect(content(again).scene == content(config).scene)
        #expect(again.runtime == config.runtime)
        #expect(again.runtime.display.screenshotDirectory == "/var/lib/My \"Shots\"")
    }

    @Test(arguments: [
        ("plain", "\"plain\""),
        ("a\"b", #""a\"b""#),
        ("a\\b", #""a\\b""#),
        ("line\nbreak\ttab\rreturn", #""line\nbreak\ttab\rreturn""#),
        // Not U+0000: TOMLKit hands strings over as C strings, so one reads back cut short there.
        ("\u{1}\u{1F}\u{7F}\u{8}\u{C}", #""\u0001\u001F\u007F\b\f""#),
        ("ünïcode ✓", "\"ünïcode ✓\""),
    ])
    func aStringIsWrittenAsATOMLBasicString(value: String, written: String) throws {
        #expect(TOMLWriter.string(value) == written)
        #expect(try TOMLTable(string: "x = \(written)")["x"]?.string == value)
    }

    @Test(arguments: [
        (800.0, "800"), (154.2, "154.2"), (-3.0, "-3"), (0.1 + 0.2, "0.30000000000000004"), (1e-5, "1e-05"),
        (1e20, "1e+20"), (10 * 25.4 / 163, "1.5582822085889572"),
    ])
    func aNumberIsWrittenSoItReadsBackExactly(value: Double, written: String) throws {
        #expect(TOMLWriter.number(value) == written)
        let v = try #require(try TOMLTable(string: "x = \(written)")["x"])
        #expect((v.double ?? v.int.map(Double.init)) == value)
    }
}
