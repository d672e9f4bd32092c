import Foundation
import KioskTestSupport
import Testing

/// kiosk's version comes from one place (Tools/version.sh, stamped into the KioskVersion module at
/// build time): `kiosk --version`, the log's first line and Home Assistant's `sw_version` all say
/// what the script says for this checkout. (The Debian package's version is checked against the
/// binary in Tests/KernelTests/KioskPackageOnRealKernelTests.swift.)
@Suite(.enabled(if: Broker.available, "needs mosquitto and mosquitto-clients"))
struct OneVersionTests {
    /// What Tools/version.sh prints for this checkout.
    static func scriptVersion() throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = [KioskExecutable.repositoryRoot.appendingPathComponent("Tools/version.sh").path]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        try #require(p.terminationStatus == 0, "Tools/version.sh failed")
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func versionFlagLogAndHomeAssistantSayTheScriptsVersion() throws {
        let version = try Self.scriptVersion()
        let release = try String(contentsOf: KioskExecutable.repositoryRoot.appendingPathComponent("VERSION"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(version == release || version.hasPrefix(release + "+"), "\(version) is VERSION (\(release)) and the commit")

        let flag = try KioskExecutable.run(["--version"])
        #expect(flag.status == 0 && flag.stdout == version + "\n", "kiosk --version: \(flag.stdout) \(flag.stderr)")

        let broker = try Broker()
        let kiosk = try KioskOnBrokerTests.Kiosk(broker: broker)
        #expect(kiosk.process.waitFor(containing: "mqtt: connected"), "\(kiosk.process.text)")
        let first = try #require(kiosk.process.lines.first, "no log")
        #expect(first.contains(" kiosk starting ") && first.contains("kiosk.version=\(version) "), "the log's first line: \(first)")

        let sub = try broker.subscribe(["homeassistant/#"])
        #expect(sub.waitFor(containing: "homeassistant/switch/kiosk-test/switch/config {"), "\(sub.text)")
        let configs = sub.lines.filter { $0.hasPrefix("homeassistant/") }
        #expect(!configs.isEmpty)
        for line in configs {
            let json = line.split(separator: " ", maxSplits: 1).last.map { Data($0.utf8) } ?? Data()
            let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any], "\(line)")
            let device = try #require(object["device"] as? [String: Any] ?? object["dev"] as? [String: Any], "\(line)")
            #expect(device["sw_version"] as? String == version, "\(line)")
        }
    }
}
