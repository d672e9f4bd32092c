import Foundation
import KioskTestSupport
import Runtime
import Testing

@Suite struct HostFactsTests {
    let root: String

    init() throws {
        root = try KioskExecutable.temporaryFolder("host").path
    }

    func lay(_ path: String, _ bytes: [UInt8]) throws {
        let url = URL(fileURLWithPath: root + path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }

    @Test func theModelIsTheDeviceTreesStringWithoutItsNUL() throws {
        try lay("/proc/device-tree/model", Array("Raspberry Pi 4 Model B Rev 1.5".utf8) + [0])
        #expect(HostFacts(root: root).model() == "Raspberry Pi 4 Model B Rev 1.5")
    }

    @Test func noDeviceTreeOrAnEmptyOrUnprintableOneIsNoModel() throws {
        #expect(HostFacts(root: root).model() == nil)
        try lay("/proc/device-tree/model", [0, 0x1B, 0x07])
        #expect(HostFacts(root: root + "/").model() == nil)
    }

    @Test func theTemperatureIsTheFirstZonesMillidegrees() throws {
        #expect(HostFacts(root: root).cpuTemperature() == nil)
        try lay("/sys/class/thermal/thermal_zone0/temp", Array("48312\n".utf8))
        #expect(HostFacts(root: root).cpuTemperature() == 48.312)
        try lay("/sys/class/thermal/thermal_zone0/temp", Array("hot\n".utf8))
        #expect(HostFacts(root: root).cpuTemperature() == nil)
    }
}
