import Foundation
import KioskTestSupport
import Testing

/// Issue 23, part 9: `kiosk control` finds the socket as every other command finds its config:
/// `--socket`, else the `[control] socket` of the config the one `--config` rule picks.
extension ControlCommandTests {
    func controlWithoutSocket(_ arguments: [String]) throws -> Finished {
        try runToEnd(kioskExecutable, ["control"] + arguments)
    }

    @Test func theSocketIsTheConfigsAndSocketOverridesIt() throws {
        let (k, path) = try startKiosk()
        defer { _ = k.stop() }
        let set = try controlWithoutSocket(["--config", k.configPath, "set", "slider", "0.75"])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stderr.isEmpty, "a named config is not announced: \(set.stderr)")
        #expect(view("slider", in: try state(path))["value"] as? Double == 0.75)
        let elsewhere = k.folder.appendingPathComponent("elsewhere.sock").path
        let overridden = try controlWithoutSocket(["--config", k.configPath, "--socket", elsewhere, "state"])
        #expect(overridden.status == 1)
        #expect(overridden.stderr.contains("cannot reach the kiosk: connect \(elsewhere)"), "\(overridden.stderr)")
    }

    /// Only `[control]` is read: a file with nothing else still gives the socket, a bad `[control]`
    /// is the config error every command gives (status 2), and `socket = "none"` says it is off.
    @Test func onlyTheControlSectionIsReadAndItsProblemsAreSaid() throws {
        let (k, path) = try startKiosk()
        defer { _ = k.stop() }
        let folder = try temporaryFolder("control-rule")
        func config(_ text: String) throws -> String {
            let file = folder.appendingPathComponent("\(UUID().uuidString).conf")
            try text.write(to: file, atomically: true, encoding: .utf8)
            return file.path
        }
        let alone = try controlWithoutSocket(["--config", try config("[control]\nsocket = \"\(path)\"\n"), "state"])
        #expect(alone.status == 0, "\(alone.stderr)")
        #expect(alone.stdout.contains("\"views\""))
        let badFile = try config("[control]\nsocket = \"relative.sock\"\n")
        let bad = try controlWithoutSocket(["--config", badFile, "state"])
        #expect(bad.status == 2)
        #expect(bad.stderr.hasPrefix("kiosk control: \(badFile):2: control.socket: 'relative.sock' is neither"), "\(bad.stderr)")
        let offFile = try config("[control]\nsocket = \"none\"\n")
        let off = try controlWithoutSocket(["--config", offFile, "state"])
        #expect(off.status == 1)
        #expect(off.stderr == "kiosk control: \(offFile) turns the control socket off ([control] socket = \"none\"); the kiosk cannot be reached\n")
    }

    /// Without `--config` the rule's file, said on stderr as the other commands say it: in the
    /// checkout, its config/kiosk.toml, which has no `[control]`: the default socket.
    @Test(.enabled(if: !FileManager.default.fileExists(atPath: "/etc/kiosk/kiosk.conf"), "this machine has a kiosk config"))
    func withoutConfigTheCheckoutsConfigGivesTheSocket() throws {
        let r = try controlWithoutSocket(["state"])
        #expect(r.stderr.hasPrefix("kiosk control: config config/kiosk.toml (the checkout's; /etc/kiosk/kiosk.conf does not exist)\n"),
                "\(r.stderr)")
        if !FileManager.default.fileExists(atPath: "/run/kiosk/control.sock") {
            #expect(r.status == 1)
            #expect(r.stderr.contains("cannot reach the kiosk: connect /run/kiosk/control.sock"), "\(r.stderr)")
        }
    }
}
