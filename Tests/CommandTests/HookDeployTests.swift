import Foundation
import Testing

/// deploy/kiosk-gpio.conf, the drop-in that lets hooks drive GPIO lines: systemd reads it with the
/// unit and accepts every line; install.sh ships it without enabling it.
@Suite("deploy/: the GPIO drop-in for hooks")
struct HookDeployTests {
    static let deploy = repositoryRoot.appendingPathComponent("deploy")

    /// `systemd-analyze verify` of the unit with `dropIn` beside it, as systemd finds drop-ins: the complaints.
    func verify(dropIn: String) throws -> [Substring] {
        let dir = try temporaryFolder("gpio-unit")
        let unit = try String(contentsOf: Self.deploy.appendingPathComponent("kiosk.service"), encoding: .utf8)
            .replacingOccurrences(of: "/usr/local/bin/kiosk", with: kioskExecutable.path)
        try unit.write(to: dir.appendingPathComponent("kiosk.service"), atomically: true, encoding: .utf8)
        let drop = dir.appendingPathComponent("kiosk.service.d")
        try FileManager.default.createDirectory(at: drop, withIntermediateDirectories: true)
        try dropIn.write(to: drop.appendingPathComponent("gpio.conf"), atomically: true, encoding: .utf8)
        // The trailing colon keeps systemd's own search path after the folder.
        let r = try runToEnd(URL(fileURLWithPath: "/usr/bin/systemd-analyze"), ["verify", dir.appendingPathComponent("kiosk.service").path],
                             environment: ["SYSTEMD_UNIT_PATH": dir.path + ":", "PATH": "/usr/bin:/bin"])
        return (r.stdout + r.stderr).split(separator: "\n").filter { $0.contains("kiosk.service") }
    }

    @Test(.enabled(if: DeployTests.hasSystemd, "needs systemd-analyze"))
    func systemdReadsTheDropInAndAcceptsEveryLine() throws {
        let dropIn = try String(contentsOf: Self.deploy.appendingPathComponent("kiosk-gpio.conf"), encoding: .utf8)
        #expect(try verify(dropIn: dropIn).isEmpty)
        // The same check sees a drop-in's mistakes: it did read the file.
        let misspelt = try verify(dropIn: dropIn.replacingOccurrences(of: "DeviceAllow=", with: "DeviceAlow="))
        #expect(misspelt.contains { $0.contains("gpio.conf") && $0.contains("Unknown key 'DeviceAlow'") }, "\(misspelt)")
    }

    @Test func theDropInAllowsTheGPIOChipsAndTheGroupThatOwnsThem() throws {
        let dropIn = try String(contentsOf: Self.deploy.appendingPathComponent("kiosk-gpio.conf"), encoding: .utf8)
        let lines = dropIn.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(lines == ["[Service]", "DeviceAllow=char-gpiochip rw", "SupplementaryGroups=gpio"])
    }

    @Test func installShipsTheDropInWithoutEnablingIt() throws {
        let root = try DeployTests().piRoot()
        let r = try DeployTests().install(root)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("usr/local/share/doc/kiosk/kiosk-gpio.conf").path))
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("etc/systemd/system/kiosk.service.d/gpio.conf").path))
    }
}
