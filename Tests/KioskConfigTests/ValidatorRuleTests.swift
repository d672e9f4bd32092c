import Foundation
import KioskTestSupport
import Testing
@testable import KioskConfig

/// A scene with one view of each kind, for the rules below to add to: a file of its own, so each
/// case is the few lines that break one rule.
let ruleScene = """
    [[view]]
    name = "canvas"
    kind = "canvas"
    frame = [0, 0, 800, 480]

    [[view]]
    name = "yellow"
    kind = "square"
    parent = "canvas"
    frame = [100, 100, 120, 120]

    [[view]]
    name = "button"
    kind = "button"
    parent = "canvas"
    frame = [40, 396, 180, 56]

    """

/// Every rule the config reader enforces, each fed a value that breaks it (issue 16, section 6):
/// the exact error, on the line of the value. Removing any one check makes its case fail.
@Suite("Every rule of the config reader, broken once")
struct ValidatorRuleTests {
    /// `ruleScene` and then `extra` are refused with exactly `expected` ("key: message") on the line
    /// of `needle` in `extra` (0: the file as a whole).
    func expectRefused(_ extra: String, at needle: String?, _ expected: String, base: String = ruleScene,
                       sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let text = base + extra
        let e = try #require(configError(text), sourceLocation: sourceLocation)
        let place: String
        if let needle {
            let n = line(of: needle, in: extra)
            #expect(n > 0, "'\(needle)' is in the text", sourceLocation: sourceLocation)
            place = "kiosk.toml:\(base.split(separator: "\n", omittingEmptySubsequences: false).count - 1 + n)"
        } else {
            place = "kiosk.toml"
        }
        #expect(e.description == "\(place): \(expected)", sourceLocation: sourceLocation)
    }

    static let panelAndSceneCases: [(String, String, String)] = [
        ("[panel]\nwidth_px = 0", "width_px", "panel.width_px: 0 is out of range; allowed: a number from 1 to 16384"),
        ("[panel]\nheight_px = 16385", "height_px", "panel.height_px: 16385 is out of range; allowed: a number from 1 to 16384"),
        ("[panel]\nwidth_mm = inf", "width_mm", "panel.width_mm: inf is out of range; allowed: a number of millimetres from 1 to 10000"),
        ("[panel]\nheight_mm = nan", "height_mm", "panel.height_mm: nan is out of range; allowed: a number of millimetres from 1 to 10000"),
        ("[panel]\nheight_mm = 0.5", "height_mm", "panel.height_mm: 0.5 is out of range; allowed: a number of millimetres from 1 to 10000"),
        ("[panel]\nwidth_mm = \"wide\"", "width_mm", "panel.width_mm: expected a number of millimetres from 1 to 10000, found \"wide\""),
        ("[panel]\ndiagonal = 7", "diagonal", "panel.diagonal: unknown key in [panel]. Allowed: width_px, height_px, width_mm, height_mm"),
        ("[scene]\ndrop_animation = 10.5", "drop_animation",
         "scene.drop_animation: 10.5 is out of range; allowed: a number of seconds from 0 to 10"),
        ("[scene]\nlift_scale = 0.9", "lift_scale", "scene.lift_scale: 0.9 is out of range; allowed: a number from 1 to 4"),
        ("[scene]\nlift_scale = 4.5", "lift_scale", "scene.lift_scale: 4.5 is out of range; allowed: a number from 1 to 4"),
        ("[scene]\nlift = 2", "lift", "scene.lift: unknown key in [scene]. Allowed: drop_animation, lift_scale"),
    ]

    @Test(arguments: panelAndSceneCases)
    func panelAndScene(extra: String, needle: String, expected: String) throws {
        try expectRefused(extra, at: needle, expected)
    }

    static let viewsCases: [(String, String, String)] = [
        ("[[view]]\nkind = \"square\"\nparent = \"canvas\"\nframe = [0, 0, 9, 9]", "[[view]]", "view[3]: view[3] needs 'name'"),
        ("[[view]]\nname = \"c\"\nparent = \"canvas\"\nframe = [0, 0, 9, 9]", "[[view]]", "view \"c\": view \"c\" needs 'kind'"),
        ("[[view]]\nname = \"c\"\nkind = \"circle\"\nparent = \"canvas\"", "circle",
         "view \"c\".kind: 'circle' is not one of: canvas, square, button, slider, switch"),
        ("[[view]]\nname = \"c\"\nkind = \"square\"\nparent = \"canvas\"\nframe = [0, 0, 9, 9]\nlabel = \"C\"", "label",
         "view \"c\".label: unknown key in view \"c\". Allowed: name, kind, parent, frame, color"),
        ("[[view]]\nname = \"c\"\nkind = \"switch\"\nparent = \"canvas\"\nframe = [0, 0, 90, 40]\nvalue = 0.5", "value",
         "view \"c\".value: unknown key in view \"c\". Allowed: name, kind, parent, frame, on, color, tracking_margin_mm"),
        ("[[view]]\nname = \"c\"\nkind = \"square\"\nparent = \"canvas\"", "[[view]]",
         "view \"c\": view \"c\" needs 'frame' = [x, y, width, height]"),
        ("[[view]]\nname = \"c\"\nkind = \"square\"\nparent = \"canvas\"\nframe = [0, 0, \"9\", 9]", "frame",
         "view \"c\".frame: expected [x, y, width, height] in pixels, 4 numbers in brackets, found a list"),
        ("[[view]]\nname = \"c\"\nkind = \"square\"\nparent = \"canvas\"\nframe = [nan, 0, 9, 9]", "frame",
         "view \"c\".frame: every number must be finite, found [nan, 0, 9, 9]"),
        ("[[view]]\nname = \"c\"\nkind = \"button\"\nparent = \"canvas\"\nframe = [0, 0, 0, 50]", "frame",
         "view \"c\".frame: width and height must be greater than 0, found 0 x 50"),
        ("[[view]]\nname = \"c\"\nkind = \"square\"\nparent = \"canvas\"\nframe = [1e17, 0, 1, 1]", "frame",
         "view \"c\".frame: [1e+17, 0, 1, 1] reaches beyond what is allowed: x, y and their far edges x + width, y + height from -65536 to 65536 pixels"),
        ("[[view]]\nname = \"c\"\nkind = \"square\"\nparent = \"canvas\"\nframe = [65000, 0, 600, 600]", "frame",
         "view \"c\".frame: [65000, 0, 600, 600] reaches beyond what is allowed: x, y and their far edges x + width, y + height from -65536 to 65536 pixels"),
        ("[[view]]\nname = \"c\"\nkind = \"switch\"\nparent = \"canvas\"\nframe = [0, -65537, 120, 60]", "frame",
         "view \"c\".frame: [0, -65537, 120, 60] reaches beyond what is allowed: x, y and their far edges x + width, y + height from -65536 to 65536 pixels"),
        ("[[view]]\nname = \"c\"\nkind = \"square\"\nparent = \"canvas\"\nframe = [0, 0, 9, 8]", "frame",
         "view \"c\".frame: a square's width and height must be equal, found 9 x 8"),
        ("[[view]]\nname = \"c\"\nkind = \"square\"\nparent = \"canvas\"\nframe = [0, 0, 9, 9]\ncolor = \"#+12345\"", "color",
         "view \"c\".color: '#+12345' is not a colour; expected \"#rrggbb\", such as \"#f5c518\""),
        ("[[view]]\nname = \"c\"\nkind = \"square\"\nparent = \"canvas\"\nframe = [0, 0, 9, 9]\ncolor = \"#f5c5181\"", "color",
         "view \"c\".color: '#f5c5181' is not a colour; expected \"#rrggbb\", such as \"#f5c518\""),
        ("[[view]]\nname = \"c\"\nkind = \"button\"\nparent = \"canvas\"\nframe = [0, 0, 90, 50]\nlabel = 3", "label",
         "view \"c\".label: expected a string in quotes, found 3"),
        ("[[view]]\nname = \"c\"\nkind = \"switch\"\nparent = \"canvas\"\nframe = [0, 0, 90, 50]\non = \"yes\"", "on",
         "view \"c\".on: expected true or false, found \"yes\""),
        ("[[view]]\nname = \"c\"\nkind = \"slider\"\nparent = \"canvas\"\nframe = [0, 0, 90, 50]\nvalue = -0.1", "value",
         "view \"c\".value: -0.1 is out of range; allowed: a number from 0 to 1"),
        ("[[view]]\nname = \"c\"\nkind = \"slider\"\nparent = \"canvas\"\nframe = [0, 0, 90, 50]\ntracking_margin_mm = 101", "tracking_margin_mm",
         "view \"c\".tracking_margin_mm: 101 is out of range; allowed: a number of millimetres from 0 to 100"),
        ("[[view]]\nname = \"c\"\nkind = \"square\"\nframe = [0, 0, 9, 9]", "[[view]]",
         "view \"c\": view 'c' needs 'parent'; only the first view is the root"),
        ("[[view]]\nname = \"c\"\nkind = \"square\"\nparent = \"nowhere\"\nframe = [0, 0, 9, 9]", "parent",
         "view \"c\".parent: parent 'nowhere' is not declared before view 'c'"),
        ("[[view]]\nname = \"yellow\"\nkind = \"square\"\nparent = \"canvas\"\nframe = [0, 0, 9, 9]", "name = \"yellow\"",
         "view \"yellow\".name: view 'yellow' is declared twice; first at kiosk.toml:7"),
    ]

    @Test(arguments: viewsCases)
    func views(extra: String, needle: String, expected: String) throws {
        try expectRefused(extra, at: needle, expected)
    }

    @Test func theFirstViewMustBeARootCanvasAndThereMustBeOne() throws {
        let square = "[[view]]\nname = \"s\"\nkind = \"square\"\nframe = [0, 0, 9, 9]\n"
        try expectRefused(square, at: "[[view]]",
                          "view \"s\": the first [[view]] must be the root canvas (kind = \"canvas\", no parent)", base: "")
        let parented = "[[view]]\nname = \"c\"\nkind = \"canvas\"\nparent = \"c\"\nframe = [0, 0, 9, 9]\n"
        try expectRefused(parented, at: "[[view]]",
                          "view \"c\": the first [[view]] must be the root canvas (kind = \"canvas\", no parent)", base: "")
        try expectRefused("[panel]\nwidth_px = 800\n", at: nil, "view: no [[view]] declared; the first must be the canvas", base: "")
    }

    /// A canvas with `themes` in place of ruleScene's.
    func themes(_ themes: String) -> String {
        ruleScene.replacingOccurrences(of: "frame = [0, 0, 800, 480]\n", with: "frame = [0, 0, 800, 480]\nthemes = [\n  \(themes),\n]\n")
    }

    @Test(arguments: [
        ("{ name = \"day\", background = \"#eef0f3\", foreground = \"#1d2733\", accent = \"#ffffff\" }",
         "view \"canvas\".themes[0].accent: unknown key in a theme of view \"canvas\". Allowed: name, background, foreground"),
        ("{ background = \"#eef0f3\", foreground = \"#1d2733\" }", "view \"canvas\".themes[0]: a theme of view \"canvas\" needs 'name'"),
        ("{ name = \"day\", background = \"#eef0f3\" }",
         "view \"canvas\".themes[0]: theme \"day\" needs 'background' and 'foreground' colours"),
        ("{ name = \"day\", background = \"eef0f3\", foreground = \"#1d2733\" }",
         "view \"canvas\".themes[0].background: 'eef0f3' is not a colour; expected \"#rrggbb\", such as \"#f5c518\""),
    ])
    func themes(theme: String, expected: String) throws {
        try expectTheme(theme, expected)
    }

    @Test func aThemeThatIsNotATable() throws {
        try expectTheme("\"day\"", "view \"canvas\".themes: expected a list of tables, found \"day\"", at: "themes = [")
    }

    func expectTheme(_ theme: String, _ expected: String, at needle: String = "{ ",
                     sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let text = themes(theme)
        let e = try #require(configError(text), sourceLocation: sourceLocation)
        #expect(e.description == "kiosk.toml:\(line(of: needle, in: text)): \(expected)", sourceLocation: sourceLocation)
    }

    /// A gesture on `view` of `kind` with `lines`.
    static func gesture(_ view: String, _ kind: String, _ lines: String = "") -> String {
        "[[gesture]]\nview = \"\(view)\"\nkind = \"\(kind)\"\n" + lines
    }

    static let gesturesCases: [(String, String, String)] = [
        ("[[gesture]]\nkind = \"tap\"", "[[gesture]]", "gesture[0]: gesture[0] needs 'view'"),
        ("[[gesture]]\nname = \"press\"\nkind = \"tap\"", "[[gesture]]", "gesture \"press\": gesture \"press\" needs 'view'"),
        ("[[gesture]]\nname = \"press\"\nview = \"yelow\"", "yelow",
         "gesture \"press\".view: unknown view 'yelow'; did you mean 'yellow'? Declared views: canvas, yellow, button"),
        ("[[gesture]]\nview = \"yellow\"", "[[gesture]]", "gesture[0]: a gesture needs 'kind'"),
        ("[[gesture]]\nview = \"yellow\"\nkind = \"drag\"", "drag",
         "gesture[0].kind: 'drag' is not one of: tap, long_press, pan, pinch, rotation, swipe"),
        (gesture("yellow", "tap", "touches = 11"), "touches",
         "gesture \"tap@yellow\".touches: 11 is out of range; allowed: a whole number from 1 to 10"),
        (gesture("yellow", "tap", "allowable_movement_mm = 101"), "allowable_movement_mm",
         "gesture \"tap@yellow\".allowable_movement_mm: 101 is out of range; allowed: a number of millimetres from 0 to 100"),
        (gesture("yellow", "tap", "multi_tap_interval = 61"), "multi_tap_interval",
         "gesture \"tap@yellow\".multi_tap_interval: 61 is out of range; allowed: a number of seconds greater than 0 and at most 60"),
        (gesture("yellow", "tap", "multi_tap_distance_mm = 1001"), "multi_tap_distance_mm",
         "gesture \"tap@yellow\".multi_tap_distance_mm: 1001 is out of range; allowed: a number of millimetres from 0 to 1000"),
        (gesture("yellow", "tap", "hysteresis_mm = 1"), "hysteresis_mm",
         "gesture \"tap@yellow\".hysteresis_mm: unknown key in gesture \"tap@yellow\". Allowed: view, name, kind, action, "
            + "cancels_touches_in_view, simultaneous_with, require_to_fail, should_require_failure_of, should_be_required_to_fail_by, "
            + "taps, touches, allowable_movement_mm, multi_tap_interval, multi_tap_distance_mm"),
        (gesture("yellow", "long_press", "minimum_press_duration = 61"), "minimum_press_duration",
         "gesture \"long_press@yellow\".minimum_press_duration: 61 is out of range; allowed: a number of seconds from 0 to 60"),
        (gesture("yellow", "long_press", "taps = 11"), "taps",
         "gesture \"long_press@yellow\".taps: 11 is out of range; allowed: a whole number from 0 to 10"),
        (gesture("yellow", "long_press", "touches = 0"), "touches",
         "gesture \"long_press@yellow\".touches: 0 is out of range; allowed: a whole number from 1 to 10"),
        (gesture("yellow", "long_press", "allowable_movement_mm = -1"), "allowable_movement_mm",
         "gesture \"long_press@yellow\".allowable_movement_mm: -1 is out of range; allowed: a number of millimetres from 0 to 100"),
        (gesture("yellow", "long_press", "multi_tap_interval = 0"), "multi_tap_interval",
         "gesture \"long_press@yellow\".multi_tap_interval: 0 is out of range; allowed: a number of seconds greater than 0 and at most 60"),
        (gesture("yellow", "pan", "minimum_touches = 0"), "minimum_touches",
         "gesture \"pan@yellow\".minimum_touches: 0 is out of range; allowed: a whole number from 1 to 10"),
        (gesture("yellow", "pan", "maximum_touches = 0"), "maximum_touches",
         "gesture \"pan@yellow\".maximum_touches: 0 is out of range; allowed: a whole number of at least 1"),
        (gesture("yellow", "pan", "minimum_touches = 3\nmaximum_touches = 2"), "maximum_touches",
         "gesture \"pan@yellow\".maximum_touches: 2 is below minimum_touches (3)"),
        (gesture("yellow", "pan", "hysteresis_mm = 100.5"), "hysteresis_mm",
         "gesture \"pan@yellow\".hysteresis_mm: 100.5 is out of range; allowed: a number of millimetres from 0 to 100"),
        (gesture("yellow", "pinch", "hysteresis_mm = -1"), "hysteresis_mm",
         "gesture \"pinch@yellow\".hysteresis_mm: -1 is out of range; allowed: a number of millimetres from 0 to 100"),
        (gesture("yellow", "rotation", "hysteresis_radians = 4"), "hysteresis_radians",
         "gesture \"rotation@yellow\".hysteresis_radians: 4 is out of range; allowed: a number of radians from 0 to 3.141592653589793"),
        (gesture("canvas", "swipe", "directions = []"), "directions",
         "gesture \"swipe@canvas\".directions: needs at least one of right, left, up, down"),
        (gesture("canvas", "swipe", "directions = \"left\""), "directions",
         "gesture \"swipe@canvas\".directions: expected a list of strings in brackets, such as [\"pan\", \"pinch@yellow\"], found \"left\""),
        (gesture("canvas", "swipe", "touches = 0"), "touches",
         "gesture \"swipe@canvas\".touches: 0 is out of range; allowed: a whole number from 1 to 10"),
        (gesture("canvas", "swipe", "minimum_distance_mm = 1e19"), "minimum_distance_mm",
         "gesture \"swipe@canvas\".minimum_distance_mm: 1e+19 is out of range; allowed: a number of millimetres greater than 0 and at most 176.5, the panel's diagonal"),
        (gesture("canvas", "swipe", "minimum_distance_mm = inf"), "minimum_distance_mm",
         "gesture \"swipe@canvas\".minimum_distance_mm: inf is out of range; allowed: a number of millimetres greater than 0 and at most 176.5, the panel's diagonal"),
        (gesture("canvas", "swipe", "minimum_distance_mm = 0"), "minimum_distance_mm",
         "gesture \"swipe@canvas\".minimum_distance_mm: 0 is out of range; allowed: a number of millimetres greater than 0 and at most 176.5, the panel's diagonal"),
        (gesture("canvas", "swipe", "minimum_speed_mm_per_s = 100001"), "minimum_speed_mm_per_s",
         "gesture \"swipe@canvas\".minimum_speed_mm_per_s: 100001 is out of range; allowed: a number of mm/s from 0 to 100000"),
        (gesture("canvas", "swipe", "maximum_angle_degrees = 91"), "maximum_angle_degrees",
         "gesture \"swipe@canvas\".maximum_angle_degrees: 91 is out of range; allowed: a number of degrees from 0 to 90"),
        (gesture("canvas", "swipe", "maximum_duration = 0"), "maximum_duration",
         "gesture \"swipe@canvas\".maximum_duration: 0 is out of range; allowed: a number of seconds greater than 0 and at most 60"),
        (gesture("canvas", "tap", "action = \"bring_to_front\""), "action",
         "gesture \"tap@canvas\".action: 'bring_to_front' acts on a square, and 'canvas' is a canvas"),
        (gesture("yellow", "pan", "action = \"move_all\""), "action",
         "gesture \"pan@yellow\".action: 'move_all' acts on a canvas, and 'yellow' is a square"),
        (gesture("button", "long_press", "action = \"lift\""), "action",
         "gesture \"long_press@button\".action: 'lift' acts on a square, and 'button' is a button"),
        (gesture("yellow", "tap", "action = \"lift\""), "action",
         "gesture \"tap@yellow\".action: 'lift' reads long_press events, not tap"),
        (gesture("yellow", "tap", "cancels_touches_in_view = 1"), "cancels_touches_in_view",
         "gesture \"tap@yellow\".cancels_touches_in_view: expected true or false, found 1"),
        (gesture("yellow", "tap", "simultaneous_with = \"pan\""), "simultaneous_with",
         "gesture \"tap@yellow\".simultaneous_with: expected a list of strings in brackets, such as [\"pan\", \"pinch@yellow\"], found \"pan\""),
        (gesture("yellow", "tap", "simultaneous_with = [\"pan\", 3]"), "simultaneous_with",
         "gesture \"tap@yellow\".simultaneous_with: expected a list of strings in brackets, such as [\"pan\", \"pinch@yellow\"], found a list"),
        (gesture("yellow", "tap", "require_to_fail = [\"tap\"]"), "require_to_fail",
         "gesture \"tap@yellow\".require_to_fail: 'tap@yellow' names the recognizer itself"),
        (gesture("yellow", "tap", "name = \"press\"\nshould_require_failure_of = [\"pan@canvas\"]"), "should_require_failure_of",
         "gesture \"press@yellow\".should_require_failure_of: unknown recognizer 'pan@canvas' (write 'name' for one on the same view, 'name@view' for another)"),
        (gesture("yellow", "tap") + "\n" + gesture("yellow", "pan", "should_be_required_to_fail_by = [\"tap\"]\nrequire_to_fail = [\"swipe\"]")
            + "\n" + gesture("yellow", "swipe", "should_require_failure_of = [\"tap\"]"),
         "should_require_failure_of", "gesture \"swipe@yellow\".should_require_failure_of: failure requirements form a cycle: "
            + "tap@yellow waits for pan@yellow waits for swipe@yellow waits for tap@yellow; each would wait for the other forever"),
    ]

    @Test(arguments: gesturesCases)
    func gestures(extra: String, needle: String, expected: String) throws {
        try expectRefused(extra, at: needle, expected)
    }

    @Test func aGestureDeclaredTwiceIsNamedAtTheSecondName() throws {
        let extra = Self.gesture("yellow", "tap", "name = \"press\"") + "\n" + Self.gesture("yellow", "pan", "name = \"press\"")
        let e = try #require(configError(ruleScene + extra))
        #expect(e.key == "gesture[1].name")
        #expect(e.message == "recognizer 'press@yellow' is declared twice; give one a different 'name'")
        #expect(e.line == ruleScene.split(separator: "\n", omittingEmptySubsequences: false).count - 1 + 8)
    }

    @Test func aSecondUnnamedGestureOfAKindIsNamedAtItsKind() throws {
        let extra = Self.gesture("yellow", "tap") + "\n" + Self.gesture("yellow", "tap", "taps = 2")
        let e = try #require(configError(ruleScene + extra))
        #expect(e.key == "gesture[1].kind")
        #expect(e.message == "recognizer 'tap@yellow' is declared twice; give one a different 'name'")
        #expect(e.line == ruleScene.split(separator: "\n", omittingEmptySubsequences: false).count - 1 + 7)
    }

    static let runtimeCases: [(String, String, String)] = [
        ("[display]\nfont = \"/nonexistent/DejaVuSans.ttf\"", "font",
         "display.font: '/nonexistent/DejaVuSans.ttf' does not exist; expected a font file FreeType reads, such as \"\(DisplaySettings().font)\""),
        ("[display]\nfont = \"/usr/share\"", "font",
         "display.font: '/usr/share' is not a regular file; expected a font file FreeType reads, such as \"\(DisplaySettings().font)\""),
        ("[display]\nfont = \"\(defaultConfigPath)\"", "font",
         "display.font: '\(defaultConfigPath)' is not a font file; expected a font file FreeType reads, such as \"\(DisplaySettings().font)\""),
        ("[display]\nfont = \"\"", "font", "display.font: must not be empty; expected \"\(DisplaySettings().font)\", or leave the key out"),
        ("[display]\nscreenshot_directory = \"\"", "screenshot_directory",
         "display.screenshot_directory: must not be empty; expected \"/var/lib/kiosk\", or leave the key out"),
        ("[display]\nblank_after = 86401", "blank_after",
         "display.blank_after: 86401 is out of range; allowed: a number of seconds from 0 to 86400"),
        ("[display]\nblank_after = nan", "blank_after",
         "display.blank_after: nan is out of range; allowed: a number of seconds from 0 to 86400"),
        ("[input]\ndirectory = \"\"", "directory", "input.directory: must not be empty; expected \"/dev/input\", or leave the key out"),
        ("[input]\npointercal = \"\"", "pointercal", "input.pointercal: must not be empty; expected \"/etc/pointercal\", or leave the key out"),
        ("[input]\ncalibration = [1, 0, 0, 0, 1, 1e300]", "calibration",
         "input.calibration: every number must be from -100 to 100, found [1.0, 0.0, 0.0, 0.0, 1.0, 1e+300]"),
        ("[input]\ncalibration = [1, 0, -inf, 0, 1, 0]", "calibration",
         "input.calibration: every number must be from -100 to 100, found [1.0, 0.0, -inf, 0.0, 1.0, 0.0]"),
        ("[input]\njitter = 2147483648", "jitter", "input.jitter: 2147483648 is out of range; allowed: a whole number from 0 to 2147483647"),
        ("[input]\nminimum_pressure = 2147483648", "minimum_pressure",
         "input.minimum_pressure: 2147483648 is out of range; allowed: a whole number from 0 to 2147483647"),
        ("[log]\nrepeat_interval = 3601", "repeat_interval",
         "log.repeat_interval: 3601 is out of range; allowed: a number of seconds from 0 to 3600"),
        ("[log]\nstats_interval = 86401", "stats_interval",
         "log.stats_interval: 86401 is out of range; allowed: 0 (no stats line) or a number of seconds from 1 to 86400"),
        ("[log]\nstats_interval = nan", "stats_interval",
         "log.stats_interval: nan is out of range; allowed: 0 (no stats line) or a number of seconds from 1 to 86400"),
        ("[loop]\nframe_budget = inf", "frame_budget",
         "loop.frame_budget: inf is out of range; allowed: a number of milliseconds greater than 0 and at most 1000"),
        ("[loop]\nbudget = 16", "budget", "loop.budget: unknown key in [loop]. Allowed: frame_budget, stages"),
        ("[loop.stages]\ninput = 0.1\ntimers = 0.05\nrecognizers = 0.1\nanimation = 0.05\nrender = 1.5\npresent = 0.15", "render",
         "loop.stages.render: 1.5 is out of range; allowed: a number greater than 0 and at most 1"),
    ]

    @Test(arguments: runtimeCases)
    func runtime(extra: String, needle: String, expected: String) throws {
        try expectRefused(extra, at: needle, expected)
    }

    @Test(arguments: [("scene = 1", "scene: expected a table ([scene]), found 1"),
                      ("view = 3", "view: expected a list of tables, found 3"),
                      ("gesture = 3", "gesture: expected a list of tables, found 3"),
                      ("panel = [1]", "panel: expected a table ([panel]), found a list")])
    func aSectionOfTheWrongType(line: String, expected: String) throws {
        // The views come after (`view = 3` then [[view]] would be TOML's own error); a gesture needs them to be read at all.
        try expectRefused(line + "\n" + (line.hasPrefix("gesture") ? ruleScene : ""), at: line, expected, base: "")
    }

    @Test func aFontThatIsThereIsTaken() throws {
        let bold = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
        let c = try KioskConfiguration.parse(ruleScene + "[display]\nfont = \"\(bold)\"\n", file: "kiosk.toml")
        #expect(c.runtime.display.font == bold)
    }
}
