import Foundation
import KioskTestSupport
import Testing

/// Issue 15's one rule for every command's `--config` default: /etc/kiosk/kiosk.conf when it
/// exists, else a checkout's config/kiosk.toml, and the command says which it took.
@Suite("The --config default", .enabled(if: !FileManager.default.fileExists(atPath: "/etc/kiosk/kiosk.conf"), "this machine has a kiosk config"))
struct ConfigDefaultTests {
    /// Runs a copy of kiosk that lives outside any checkout, in `directory`, as on an installed kiosk.
    func runOutsideACheckout(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let home = try KioskExecutable.temporaryFolder("home")
        defer { try? FileManager.default.removeItem(at: home) }
        let copy = home.appendingPathComponent("kiosk")
        try FileManager.default.copyItem(at: KioskExecutable.url, to: copy)
        let p = Process()
        p.executableURL = copy
        p.arguments = arguments
        p.currentDirectoryURL = home
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }

    @Test func inACheckoutEveryCommandTakesItsConfigAndSaysSo() throws {
        for (command, arguments) in [("check-config", []), ("replay", ["traces/demo.evemu"])] {
            let r = try KioskExecutable.run([command] + arguments)
            #expect(r.status == 0, "\(command): \(r.stderr)")
            #expect(r.stderr.hasPrefix("kiosk \(command): config config/kiosk.toml (the checkout's; /etc/kiosk/kiosk.conf does not exist)\n"), "\(r.stderr)")
        }
    }

    @Test func fromAHomeDirectoryTheMessageNamesBothPlaces() throws {
        let r = try runOutsideACheckout(["show"])
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("kiosk show: config /etc/kiosk/kiosk.conf (the default; neither it nor a checkout's config/kiosk.toml exists: pass --config FILE)\n"), "\(r.stderr)")
        #expect(!r.stderr.contains("config/kiosk.toml: cannot read"), "the old failure of issue 15")
        let devices = try runOutsideACheckout(["devices", "--directory", "/nonexistent"])
        #expect(devices.stderr.contains("kiosk devices: no config (neither /etc/kiosk/kiosk.conf nor a checkout's config/kiosk.toml); the defaults"), "\(devices.stderr)")
    }

    @Test func devicesSaysWhatTheConfigAppliesToTouches() throws {
        let dir = try KioskExecutable.temporaryFolder("devices")
        let config = try String(contentsOf: KioskExecutable.repositoryRoot.appendingPathComponent("config/kiosk.toml"), encoding: .utf8)
            .replacingOccurrences(of: "[input]\n", with: "[input]\ncalibration = [1.1, 0, -0.05, 0, 1.2, -0.1]\n")
            .replacingOccurrences(of: "minimum_touch_duration = 0 ", with: "minimum_touch_duration = 0.05 ")
            .replacingOccurrences(of: "ignore = []", with: "ignore = [[0, 0, 800, 8]]")
            .replacingOccurrences(of: "rotation = 0", with: "rotation = 90")
        let path = dir.appendingPathComponent("kiosk.toml").path
        try config.write(toFile: path, atomically: true, encoding: .utf8)
        let r = try KioskExecutable.run(["devices", "--config", path, "--directory", dir.path])
        #expect(r.stdout.contains("config \(path): screen 800x480; rotation following [display] rotation 90; calibration [1.1, 0.0, -0.05, 0.0, 1.2, -0.1]; filters: minimum_touch_duration 0.050 s, ignore 1 region\n"), "\(r.stdout)\(r.stderr)")
    }
}
