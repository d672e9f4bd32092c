import Display
import Foundation
import KioskTestSupport
import Testing

/// The backlight class as the kernel lays it out, in a folder of the test's own.
@Suite struct BacklightTests {
    let classFolder: String

    init() throws {
        classFolder = try KioskExecutable.temporaryFolder("backlight").path
    }

    func makeDevice(_ name: String, max: String = "255", brightness: String = "128", power: String? = "0") throws {
        let folder = classFolder + "/" + name
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try (max + "\n").write(toFile: folder + "/max_brightness", atomically: false, encoding: .utf8)
        try (brightness + "\n").write(toFile: folder + "/brightness", atomically: false, encoding: .utf8)
        if let power { try (power + "\n").write(toFile: folder + "/bl_power", atomically: false, encoding: .utf8) }
    }

    func contents(_ name: String, _ file: String) throws -> String {
        try String(contentsOfFile: classFolder + "/" + name + "/" + file, encoding: .utf8)
    }

    @Test func withNoNameTheFirstByNameIsFoundAndNoneIsNil() throws {
        #expect(try Backlight.find(named: nil, in: classFolder) == nil)
        try makeDevice("rpi_backlight")
        try makeDevice("11-0045")
        let found = try #require(try Backlight.find(named: nil, in: classFolder))
        #expect(found.name == "11-0045")
        #expect(found.maxBrightness == 255)
    }

    @Test func aNamedBacklightThatIsNotThereIsAnErrorThatNamesTheFile() throws {
        try makeDevice("rpi_backlight")
        #expect(throws: BacklightError.self) { try Backlight.find(named: "10-0045", in: classFolder) }
        do {
            _ = try Backlight.find(named: "10-0045", in: classFolder)
        } catch {
            #expect(error.path == classFolder + "/10-0045/max_brightness")
        }
    }

    @Test func brightnessIsReadAndWrittenClampedToTheDriversRange() throws {
        try makeDevice("rpi_backlight", max: "31", brightness: "20")
        let light = try #require(try Backlight.find(named: "rpi_backlight", in: classFolder))
        #expect(try light.brightness() == 20)
        try light.setBrightness(40)
        #expect(try contents("rpi_backlight", "brightness") == "31\n")
        try light.setBrightness(-3)
        #expect(try light.brightness() == 0)
        #expect(light.steps(forLevel: 0.5) == 16)
        #expect(light.level(of: 31) == 1)
        #expect(light.steps(forLevel: .nan) == 31)
    }

    @Test func powerGoesThroughBlPowerAndADriverWithoutItStaysOn() throws {
        try makeDevice("a")
        let light = try #require(try Backlight.find(named: "a", in: classFolder))
        try light.setOn(false)
        #expect(try contents("a", "bl_power") == "4\n")
        #expect(try !light.isOn())
        try light.setOn(true)
        #expect(try light.isOn())

        try makeDevice("b", power: nil)
        let plain = try #require(try Backlight.find(named: "b", in: classFolder))
        try plain.setOn(false)
        #expect(try plain.isOn())
    }

    @Test(arguments: ["0", "-5", "bright", ""])
    func aFolderThatIsNotABacklightIsRefused(max: String) throws {
        try makeDevice("odd", max: max)
        #expect(throws: BacklightError.self) { try Backlight.find(named: "odd", in: classFolder) }
    }

    @Test func aReadOnlyBrightnessSaysWhoCannotWrite() throws {
        try makeDevice("ro")
        let light = try #require(try Backlight.find(named: "ro", in: classFolder))
        try FileManager.default.removeItem(atPath: classFolder + "/ro/brightness")
        do {
            try light.setBrightness(3)
            Issue.record("a missing brightness file was written")
        } catch {
            #expect(error.description.hasPrefix(classFolder + "/ro/brightness: cannot open for writing"))
        }
    }
}
