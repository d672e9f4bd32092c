import Foundation
import Gestures
import KioskCore
import Scene
import KioskTestSupport
import Testing
@testable import KioskConfig

/// The repository's default config, which `kiosk replay` uses unless told otherwise.
let defaultConfigPath = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("config/kiosk.toml").path

/// The default config's text with `old` replaced by `new`, which must be there exactly once.
func defaultConfig(replacing old: String, with new: String) throws -> String {
    let text = try String(contentsOfFile: defaultConfigPath, encoding: .utf8)
    #expect(text.components(separatedBy: old).count == 2, "'\(old)' must appear once in the default config")
    return text.replacingOccurrences(of: old, with: new)
}

/// The error `text` gives, which it must give.
func configError(_ text: String, file: String = "kiosk.toml") -> ConfigError? {
    do {
        _ = try KioskConfiguration.parse(text, file: file)
        Issue.record("expected the config to be refused")
        return nil
    } catch {
        return error
    }
}

@Suite("Default scene config")
struct DefaultSceneTests {
    let config = try! KioskConfiguration.load(path: defaultConfigPath)

    @Test func declaresTheSeedsScene() throws {
        let views = config.scene.views.map { "\($0.name):\($0.kind.rawValue)" }
        #expect(views == ["canvas:canvas", "yellow:square", "cyan:square", "magenta:square",
                          "button:button", "slider:slider", "switch:switch"])
        let gestures = Set(config.scene.gestures.map(\.qualifiedName))
        for square in ["yellow", "cyan", "magenta"] {
            for g in ["pan", "pinch", "rotation", "long_press", "tap", "double_tap"] { #expect(gestures.contains("\(g)@\(square)")) }
        }
        #expect(gestures.isSuperset(of: ["swipe@canvas", "pan@canvas", "long_press@button"]))
    }

    @Test func fitsThePanelWithNothingOverlappingAtStart() {
        let s = config.scene
        let panel = Rect(x: 0, y: 0, width: s.panel.widthPixels, height: s.panel.heightPixels)
        let children = s.views.dropFirst()
        for v in children {
            #expect(panel.union(v.frame) == panel, "\(v.name) lies on the panel")
            for w in children where w.name < v.name { #expect(!v.frame.intersects(w.frame), "\(v.name) and \(w.name) overlap") }
        }
    }

    @Test func squaresAreAbout120PixelsAndControlsAtLeastAFingertipTall() {
        let s = config.scene
        for v in s.views where v.kind == .square { #expect((100...140).contains(v.frame.width)) }
        for v in s.views where [.button, .slider, .toggle].contains(v.kind) {
            #expect(s.panel.millimetres(pixels: v.frame.height) >= 9, "\(v.name) is \(s.panel.millimetres(pixels: v.frame.height)) mm tall")
        }
    }

    @Test func declaresTheSeedListingsGraph() throws {
        let g = Dictionary(uniqueKeysWithValues: config.scene.gestures.map { ($0.qualifiedName, $0) })
        #expect(g["tap@yellow"]?.requireToFail == [RecognizerReference(name: "double_tap", view: nil)])
        #expect(g["pan@canvas"]?.shouldRequireFailureOf == [RecognizerReference(name: "swipe", view: nil)])
        #expect(Set(g["pinch@cyan"]?.simultaneousWith.map(\.name) ?? []) == ["pan", "rotation"])
        #expect(g["long_press@magenta"]?.simultaneousWith.isEmpty == true)
        if case .tap(let o) = g["double_tap@yellow"]?.spec { #expect(o.tapsRequired == 2) } else { Issue.record("double_tap is a tap") }
        if case .swipe(let o) = g["swipe@canvas"]?.spec { #expect(o.directions == [.left, .right]) } else { Issue.record("swipe") }
        if case .pan(let o) = g["pan@canvas"]?.spec { #expect(o.maximumTouches == 1) } else { Issue.record("pan") }
    }
}

@Suite("Config errors name file, line and key")
struct ConfigErrorTests {
    @Test func aSyntaxErrorGivesTOMLKitsLineAndColumn() throws {
        let text = try defaultConfig(replacing: "lift_scale = 1.2", with: "lift_scale = = 1.2")
        let e = try #require(configError(text))
        #expect(e.line == line(of: "lift_scale = =", in: text))
        #expect(e.description.hasPrefix("kiosk.toml:\(e.line): column "))
    }

    @Test func anUnknownViewIsNamedWithTheNearestOne() throws {
        let text = try defaultConfig(replacing: "view = \"canvas\"\nname = \"swipe\"", with: "view = \"canvass\"\nname = \"swipe\"")
        let e = try #require(configError(text))
        #expect(e.line == line(of: "view = \"canvass\"", in: text))
        #expect(e.key.hasSuffix(".view"))
        #expect(e.message.contains("unknown view 'canvass'; did you mean 'canvas'?"))
    }

    @Test func anUnknownRecognizerInTheGraphIsNamedAtItsKey() throws {
        let text = try defaultConfig(replacing: "require_to_fail = [\"double_tap\"]\n\n[[gesture]]\nview = \"cyan\"",
                                     with: "require_to_fail = [\"dubble_tap\"]\n\n[[gesture]]\nview = \"cyan\"")
        let e = try #require(configError(text))
        #expect(e.line == line(of: "dubble_tap", in: text))
        #expect(e.key == "gesture \"tap@yellow\".require_to_fail")
        #expect(e.message.hasPrefix("unknown recognizer 'dubble_tap@yellow'; did you mean 'double_tap@yellow'?"))
    }

    @Test func anUnknownKeySuggestsTheNearestValidOne() throws {
        let text = try defaultConfig(replacing: "minimum_press_duration = 0.5", with: "minimum_press_duraton = 0.5")
        let e = try #require(configError(text))
        #expect(e.line == line(of: "minimum_press_duraton", in: text))
        #expect(e.message.contains("did you mean 'minimum_press_duration'?"))
    }

    @Test(arguments: [
        ("taps = 2\naction = \"reset_transform\"\n\n[[gesture]]\nview = \"yellow\"", "taps = 0\naction = \"reset_transform\"\n\n[[gesture]]\nview = \"yellow\"", "taps", "0 is out of range; allowed: a whole number from 1 to 10"),
        ("minimum_press_duration = 0.5", "minimum_press_duration = \"long\"", "minimum_press_duration", "expected a number of seconds from 0 to 60, found \"long\""),
        ("color = \"#f5c518\"", "color = \"yellow\"", "color", "'yellow' is not a colour; expected \"#rrggbb\""),
        ("frame = [100, 130, 120, 120]", "frame = [100, 130, 120]", "frame", "expected [x, y, width, height] in pixels, 4 numbers in brackets"),
        ("frame = [100, 130, 120, 120]", "frame = [100, 130, 120, 90]", "frame", "a square's width and height must be equal"),
        ("directions = [\"left\", \"right\"]", "directions = [\"left\", \"sideways\"]", "directions", "'sideways' is not a direction"),
        ("action = \"cycle_theme\"", "action = \"cycle_themes\"", "action", "did you mean 'cycle_theme'?"),
        ("action = \"cycle_theme\"", "action = \"move_all\"", "action", "'move_all' reads pan events, not swipe"),
        ("width_mm = 154.2", "width_mm = -3", "width_mm", "-3 is out of range; allowed: a number of millimetres from 1 to 10000"),
        ("value = 0.5", "value = 1.5", "value", "1.5 is out of range; allowed: a number from 0 to 1"),
    ])
    func aBadValueNamesItsKeyAndWhatIsAllowed(old: String, new: String, key: String, message: String) throws {
        let text = try defaultConfig(replacing: old, with: new)
        let e = try #require(configError(text))
        #expect(e.line == line(of: new.split(separator: "\n").first.map(String.init) ?? new, in: text))
        #expect(e.key.hasSuffix(key))
        #expect(e.message.contains(message), "\(e)")
    }

    @Test func aRangeOpenAtZeroIsWordedAsGreaterThanZero() throws {
        let text = try defaultConfig(replacing: "minimum_press_duration = 0.5", with: "minimum_press_duration = 0.5\nmulti_tap_interval = 0")
        let e = try #require(configError(text))
        #expect(e.description == "kiosk.toml:\(line(of: "multi_tap_interval", in: text)): gesture \"long_press@yellow\".multi_tap_interval: "
            + "0 is out of range; allowed: a number of seconds greater than 0 and at most 60")
    }

    @Test func aRequirementCycleIsFoundAtSetupOnTheKeyThatClosesIt() throws {
        let text = try defaultConfig(replacing: "taps = 2\naction = \"reset_transform\"\n\n[[gesture]]\nview = \"yellow\"",
                                     with: "taps = 2\naction = \"reset_transform\"\nrequire_to_fail = [\"tap\"]\n\n[[gesture]]\nview = \"yellow\"")
        let e = try #require(configError(text))
        #expect(e.message.contains("failure requirements form a cycle"))
        #expect(e.message.contains("tap@yellow waits for double_tap@yellow"))
        #expect([line(of: "require_to_fail = [\"tap\"]", in: text), line(of: "require_to_fail = [\"double_tap\"]", in: text)].contains(e.line))
    }

    @Test func aCycleThroughTheDelegatePlacementsIsFoundToo() throws {
        let text = try defaultConfig(replacing: "action = \"cycle_theme\"", with: "action = \"cycle_theme\"\nshould_require_failure_of = [\"pan\"]")
        let e = try #require(configError(text))
        #expect(e.message.contains("swipe@canvas waits for pan@canvas") || e.message.contains("pan@canvas waits for swipe@canvas"))
        #expect(e.key.hasSuffix("should_require_failure_of"))
    }

    @Test func aRecognizerDeclaredTwiceOrAViewWithAnUnknownParentIsRefused() throws {
        let twice = try defaultConfig(replacing: "name = \"double_tap\"\nkind = \"tap\"\ntaps = 2\naction = \"reset_transform\"\n\n[[gesture]]\nview = \"yellow\"\nname = \"tap\"",
                                      with: "name = \"double_tap\"\nkind = \"tap\"\ntaps = 2\naction = \"reset_transform\"\n\n[[gesture]]\nview = \"yellow\"\nname = \"double_tap\"")
        #expect(try #require(configError(twice)).message.contains("'double_tap@yellow' is declared twice"))
        let orphan = try defaultConfig(replacing: "name = \"cyan\"\nkind = \"square\"\nparent = \"canvas\"", with: "name = \"cyan\"\nkind = \"square\"\nparent = \"canvs\"")
        let e = try #require(configError(orphan))
        #expect(e.line == line(of: "parent = \"canvs\"", in: orphan))
        #expect(e.message.contains("did you mean 'canvas'?"))
    }

    @Test func anUnreadableFileIsNamed() {
        #expect(throws: ConfigError.self) { try KioskConfiguration.load(path: "/nonexistent/kiosk.toml") }
        do {
            _ = try KioskConfiguration.load(path: "/nonexistent/kiosk.toml")
        } catch {
            #expect(error.description.hasPrefix("/nonexistent/kiosk.toml: cannot read the config file"))
        }
    }
}

@Suite("Key locator")
struct KeyLocatorTests {
    @Test func findsTablesArraysOfTablesAndInlineTableElements() {
        let text = """
            # comment = not a key
            top = 1
            [panel]
            width_mm = 154.2  # trailing = comment
            [[view]]
            name = "a"
            themes = [
              { name = "x" },
              { name = "y" },
            ]
            label = "a = b"
            [[view]]
            "quoted key" = 2
            """
        let l = KeyLocator(text)
        #expect(l.line(of: "top") == 2)
        #expect(l.line(of: "panel.width_mm") == 4)
        #expect(l.line(of: "view[0]") == 5)
        #expect(l.line(of: "view[0].themes") == 7)
        #expect(l.line(of: "view[0].themes[1]") == 9)
        #expect(l.line(of: "view[0].themes[1].name") == 9)
        #expect(l.line(of: "view[0].label") == 11)
        #expect(l.line(of: "view[1].quoted key") == 13)
        #expect(l.line(of: "view[1].missing") == 12)
    }

    @Test func editDistanceFindsTypos() {
        #expect(editDistance("kitten", "sitting") == 3)
        #expect(nearest("requre_to_fail", among: GestureKey.graph.map(\.name)) == "require_to_fail")
        #expect(nearest("zzz", among: ["pan", "tap"]) == nil)
    }
}
