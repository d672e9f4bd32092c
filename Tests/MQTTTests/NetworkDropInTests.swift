import Foundation
import KioskTestSupport
import Testing

/// deploy/install.sh gives kiosk the network only when its config has [mqtt]: the drop-in that
/// turns PrivateNetwork off and lets AF_INET and AF_INET6 through, and no drop-in otherwise.
@Suite struct NetworkDropInTests {
    static let hasSystemd = FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze")

    func install(_ root: URL) throws -> KioskExecutable.Finished {
        try KioskExecutable.run(["--root", root.path, "--binary", KioskExecutable.url.path, "--no-start"],
                                executable: KioskExecutable.repositoryRoot.appendingPathComponent("deploy/install.sh"))
    }

    @Test func theDropInFollowsTheConfig() throws {
        let root = try KioskExecutable.temporaryFolder("mqtt-root")
        defer { try? FileManager.default.removeItem(at: root) }
        let conf = root.appendingPathComponent("etc/kiosk/kiosk.conf")
        try FileManager.default.createDirectory(at: conf.deletingLastPathComponent(), withIntermediateDirectories: true)
        let plain = try String(contentsOf: KioskExecutable.repositoryRoot.appendingPathComponent("config/kiosk.toml"), encoding: .utf8)
        try (plain + "\n[mqtt]\nbroker = \"mqtt://192.168.1.10:1883\"\n").write(to: conf, atomically: true, encoding: .utf8)
        let dropIn = root.appendingPathComponent("etc/systemd/system/kiosk.service.d/mqtt.conf")

        let first = try install(root)
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        let text = try String(contentsOf: dropIn, encoding: .utf8)
        for line in ["PrivateNetwork=no", "IPAddressDeny=\n", "RestrictAddressFamilies=\n", "RestrictAddressFamilies=AF_UNIX AF_NETLINK AF_INET AF_INET6"] {
            #expect(text.contains("\n" + line), "the drop-in lacks \(line)")
        }
        if Self.hasSystemd {
            // systemd reads the unit with its drop-in and finds nothing to say.
            let dir = try KioskExecutable.temporaryFolder("unit")
            defer { try? FileManager.default.removeItem(at: dir) }
            let unit = try String(contentsOf: KioskExecutable.repositoryRoot.appendingPathComponent("deploy/kiosk.service"), encoding: .utf8)
                .replacingOccurrences(of: "/usr/local/bin/kiosk", with: KioskExecutable.url.path)
            try unit.write(to: dir.appendingPathComponent("kiosk.service"), atomically: true, encoding: .utf8)
            try FileManager.default.createDirectory(at: dir.appendingPathComponent("kiosk.service.d"), withIntermediateDirectories: true)
            try text.write(to: dir.appendingPathComponent("kiosk.service.d/mqtt.conf"), atomically: true, encoding: .utf8)
            let r = try KioskExecutable.run(["verify", dir.appendingPathComponent("kiosk.service").path],
                                            executable: URL(fileURLWithPath: "/usr/bin/systemd-analyze"))
            let complaints = (r.stdout + r.stderr).split(separator: "\n").filter { $0.contains("kiosk.service") || $0.contains("mqtt.conf") }
            #expect(complaints.isEmpty, "\(r.stdout)\(r.stderr)")
        }

        // [mqtt] gone: the drop-in goes too, and the unit has no network again.
        try plain.write(to: conf, atomically: true, encoding: .utf8)
        let second = try install(root)
        #expect(second.status == 0 && second.stdout.contains("removed"), "\(second.stdout)\(second.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dropIn.path))
    }
}
