import Foundation
import KioskTestSupport
import Testing
@testable import KioskConfig

/// `[control]`: the control socket's settings, and what check-config says of a wrong one.
@Suite("[control] settings")
struct ControlConfigTests {
    func control(_ section: String) throws -> ControlSettings {
        try KioskConfiguration.parse(runtimeConfig(section), file: "kiosk.toml").control
    }

    func problem(_ section: String) -> ConfigError? {
        do {
            _ = try control(section)
            return nil
        } catch let e as ConfigError {
            return e
        } catch {
            return nil
        }
    }

    @Test func withoutTheSectionTheSocketIsInRunKiosk() throws {
        let c = try control("")
        #expect(c.socket == "/run/kiosk/control.sock")
        #expect(c.maximumClients == 16 && c.clientQueueLines == 256)
    }

    @Test func everyKeyIsReadAndNoneTurnsItOff() throws {
        let c = try control("[control]\nsocket = \"/tmp/k.sock\"\nmax_clients = 3\nclient_queue = 64\n")
        #expect(c.socket == "/tmp/k.sock" && c.maximumClients == 3 && c.clientQueueLines == 64)
        #expect(try control("[control]\nsocket = \"none\"\n").socket == nil)
    }

    /// A socket path one byte past what a Unix socket's address holds. Made outside the arguments
    /// below: Swift 6.0.3's compiler crashes on an interpolation inside @Test(arguments:).
    static let tooLongSocket = "socket = \"/run/" + String(repeating: "k", count: 120) + "\""

    @Test(arguments: [
        ("socket = \"control.sock\"", 3, "control.socket", "neither an absolute path"),
        (tooLongSocket, 3, "control.socket", "at most 107"),
        ("socket = 5", 3, "control.socket", "string"),
        ("max_clients = 0", 3, "control.max_clients", "1"),
        ("client_queue = 1000000", 3, "control.client_queue", "65536"),
        ("sockett = \"/x\"", 3, "control.sockett", "did you mean 'socket'"),
    ])
    func aWrongKeyIsNamedWithItsLine(line: String, number: Int, key: String, says: String) throws {
        let e = problem("\n[control]\n\(line)\n")
        #expect(e?.line == number, "\(String(describing: e))")
        #expect(e?.key == key, "\(String(describing: e))")
        #expect(e?.message.contains(says) == true, "\(String(describing: e))")
    }

    @Test func checkConfigPrintsItAndItReadsBack() throws {
        let configuration = try KioskConfiguration.parse(runtimeConfig("[control]\nsocket = \"none\"\nclient_queue = 32\n"), file: "kiosk.toml")
        let text = configuration.resolvedText
        #expect(text.contains("[control]\nsocket = \"none\"\nmax_clients = 16\nclient_queue = 32\n"), "\(text)")
        #expect(try KioskConfiguration.parse(text, file: "resolved").control == configuration.control)
    }

    @Test func checkConfigReportsItWithFileLineAndStatus2() throws {
        let folder = try KioskExecutable.temporaryFolder("control-config")
        let path = folder.appendingPathComponent("kiosk.conf").path
        try runtimeConfig("[control]\nsocket = \"relative.sock\"\n").write(toFile: path, atomically: true, encoding: .utf8)
        let done = try KioskExecutable.run(["check-config", path])
        #expect(done.status == 2)
        #expect(done.stderr.contains("\(path):2: control.socket: 'relative.sock' is neither an absolute path"), "\(done.stderr)")
    }
}
