import KioskConfig
import Testing

/// `[display] backlight`: a name under /sys/class/backlight, read, printed, refused as a path.
@Suite struct BacklightConfigTests {
    @Test func aNameIsReadAndPrinted() throws {
        #expect(try runtime(everyRuntimeKey).display.backlight == "rpi_backlight")
        let set = try KioskConfiguration.parse(runtimeConfig(everyRuntimeKey), file: "kiosk.toml").resolvedText
        #expect(set.contains("\nbacklight = \"rpi_backlight\"\n"))
        let unset = try KioskConfiguration.parse(runtimeConfig("[display]\ncard = \"headless\""), file: "kiosk.toml").resolvedText
        #expect(unset.contains("\n# backlight: not set: the first under /sys/class/backlight; none: on and off only\n"))
    }

    @Test(arguments: ["/sys/class/backlight/rpi_backlight", "..", "a/b"])
    func aPathIsNoName(name: String) throws {
        let e = try #require(configError(runtimeConfig("[display]\nbacklight = \"\(name)\"")))
        #expect(e.description.hasSuffix("display.backlight: '\(name)' is not a backlight's name; expected a name under /sys/class/backlight, such as \"rpi_backlight\""),
                "\(e)")
    }
}
