import KioskTestSupport
import Testing
@testable import KioskConfig

/// `[input]`'s filters for bad panels: read, bounded, and refused with file:line and what is allowed.
@Suite("Config: [input] filters")
struct InputFilterConfigTests {
    @Test func offByDefaultAndReadWhenGiven() throws {
        let none = try runtime("")
        #expect(none.input.minimumTouchDuration == 0 && none.input.maximumTouchSizeMillimetres == nil && none.input.ignore.isEmpty)
        let some = try runtime("[input]\nminimum_touch_duration = 0.05\nmaximum_touch_size = 15\nignore = [[0, 0, 800, 10], [790, 0, 10.5, 480]]\n")
        #expect(some.input.minimumTouchDuration == 0.05)
        #expect(some.input.maximumTouchSizeMillimetres == 15)
        #expect(some.input.ignore == [[0, 0, 800, 10], [790, 0, 10.5, 480]])
    }

    @Test(arguments: [
        ("[input]\nminimum_touch_duration = 2", "minimum_touch_duration",
         "input.minimum_touch_duration: 2 is out of range; allowed: a number of seconds from 0 to 1"),
        ("[input]\nminimum_touch_duration = \"50ms\"", "minimum_touch_duration",
         "input.minimum_touch_duration: expected a number of seconds from 0 to 1, found \"50ms\""),
        ("[input]\nmaximum_touch_size = 0", "maximum_touch_size",
         "input.maximum_touch_size: 0 is out of range; allowed: a number of millimetres greater than 0 and at most 1000"),
        ("[input]\nignore = [0, 0, 10, 10]", "ignore",
         "input.ignore: region 1 is not 4 numbers; expected a list of regions [x, y, width, height] in screen pixels, such as [[0, 0, 800, 8], [0, 472, 800, 8]]"),
        ("[input]\nignore = [[0, 0, 10, 10], [5, 5, 0, 10]]", "ignore",
         "input.ignore: region 2, [5.0, 5.0, 0.0, 10.0], is not a rectangle on the screen: width and height greater than 0, x, y and the far edges x + width, y + height from -65536 to 65536 pixels"),
        ("[input]\nignore = \"top\"", "ignore",
         "input.ignore: expected a list of regions [x, y, width, height] in screen pixels, such as [[0, 0, 800, 8], [0, 472, 800, 8]]"),
        ("[input]\nminimum_touch_duraton = 0.05", "minimum_touch_duraton",
         "input.minimum_touch_duraton: unknown key in [input]; did you mean 'minimum_touch_duration'? Allowed: device, directory, grab, calibration, pointercal, rotation, flip_x, flip_y, jitter, minimum_pressure, minimum_touch_duration, maximum_touch_size, ignore"),
    ])
    func refused(sections: String, needle: String, expected: String) throws {
        let text = runtimeConfig("# a line first\n" + sections)
        let e = try #require(configError(text))
        #expect(e.description == "kiosk.toml:\(line(of: needle, in: text)): \(expected)")
    }

    @Test func checkConfigPrintsThemAndTheyReadBack() throws {
        let text = runtimeConfig("[input]\nminimum_touch_duration = 0.05\nmaximum_touch_size = 15\nignore = [[0, 0, 800, 10]]\n")
        let resolved = try KioskConfiguration.parse(text, file: "k").resolvedText
        #expect(resolved.contains("minimum_touch_duration = 0.05\nmaximum_touch_size = 15\nignore = [[0, 0, 800, 10]]\n"))
        #expect(try KioskConfiguration.parse(resolved, file: "k").runtime.input == (try runtime(text.replacingOccurrences(of: minimalScene, with: ""))).input)
    }
}
