import Foundation
import KioskState
import KioskTestSupport
import Scene
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `kiosk run` keeps what was set through the socket across restarts (the state file), and says
/// so when a file cannot be used.
@Suite("state file across restarts")
struct StateCommandTests {
    static func config(interval: Double = 2) throws -> String {
        try headlessConfig(tail: """
            [control]
            socket = "@FOLDER@/control.sock"

            [state]
            directory = "@FOLDER@"
            write_interval = \(interval)
            """)
    }

    /// `get_state`'s views by name, over a socket line.
    static func views(_ c: SocketLine) -> [String: [String: Any]] {
        let reply = c.ask("{\"command\": \"get_state\"}")
        let o = (try? JSONSerialization.jsonObject(with: Data(reply.utf8))) as? [String: Any]
        let views = (o?["state"] as? [String: Any])?["views"] as? [[String: Any]] ?? []
        var byName: [String: [String: Any]] = [:]
        for v in views { if let n = v["name"] as? String { byName[n] = v } }
        return byName
    }

    /// Starts kiosk on `folder`'s config again (a restart) and connects to its socket.
    static func restart(_ config: String, in folder: URL) throws -> (KioskProcess, SocketLine) {
        let k = try KioskProcess(config: config, folder: folder)
        #expect(k.waitFor("control socket listening"), "\(k.text)")
        return (k, try SocketLine(path: k.folder.appendingPathComponent("control.sock").path))
    }

    @Test func aRestartKeepsEverySettablePropertyAndGetStateShowsThem() throws {
        let config = try Self.config()
        let folder = try KioskExecutable.temporaryFolder("state-restart")
        var (k, c) = try Self.restart(config, in: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        for request in ["{\"command\": \"set\", \"view\": \"slider\", \"value\": 0.956}",
                        "{\"command\": \"set\", \"view\": \"switch\", \"on\": true}",
                        "{\"command\": \"set\", \"view\": \"button\", \"label\": \"Open the door\"}",
                        "{\"command\": \"tap\", \"x\": 130, \"y\": 424}"] {
            #expect(c.ask(request).contains("\"ok\": true"))
        }
        for _ in 0..<100 where Self.views(c)["button"]?["taps"] as? Int != 1 { usleep(10_000) }
        #expect(k.stop() == 0)
        #expect(k.text.contains("state restored") == false && k.text.contains("state file missing"), "\(k.text)")
        (k, c) = try Self.restart(config, in: folder)
        let v = Self.views(c)
        #expect(v["slider"]?["value"] as? Double == 0.956)
        #expect(v["switch"]?["on"] as? Bool == true)
        #expect(v["button"]?["label"] as? String == "Open the door" && v["button"]?["taps"] as? Int == 1)
        #expect(k.text.contains("state restored"), "\(k.text)")
        #expect(k.stop() == 0)
    }

    @Test(arguments: [
        ("truncated", "{\"version\": 1, \"views\": {\"slider\": {\"kind\": \"sli", "not JSON (torn or corrupt)"),
        ("other version", "{\"version\": 3, \"views\": {}}", "version 3 of the state file"),
    ])
    func anUnusableFileIsAWarningAndTheConfigsValuesAreUsed(name: String, text: String, says: String) throws {
        let folder = try KioskExecutable.temporaryFolder("state-\(name.replacingOccurrences(of: " ", with: "-"))")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("state.json").path
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        let (k, c) = try Self.restart(try Self.config(), in: folder)
        #expect(Self.views(c)["slider"]?["value"] as? Double == 0.5)
        let warning = k.lines(containing: "state file not used").joined()
        #expect(warning.contains(says) && warning.contains(path), "\(k.text)")
        #expect(k.stop() == 0)
        // Written again whole, from what the kiosk held.
        guard case .document(let d) = StateFile(path: path).read() else {
            Issue.record("the state file was not rewritten")
            return
        }
        #expect(d.views.contains(SavedView(name: "slider", state: .slider(value: 0.5))))
    }
}
