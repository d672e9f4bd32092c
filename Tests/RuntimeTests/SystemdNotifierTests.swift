import Foundation
import Gestures
import KioskCore
@testable import Runtime
import KioskTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// sd_notify against a real datagram socket, as systemd listens on one.
@Suite("systemd notification and watchdog")
struct SystemdNotifierTests {
    /// A bound AF_UNIX datagram socket standing in for systemd's.
    final class Listener {
        let path: String
        let fd: Int32

        init() throws {
            path = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-notify-\(UUID().uuidString.prefix(8))").path
            fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            let r = UnixSocketAddress.attach(fd, to: path, .bind)
            try #require(r == 0)
        }

        deinit {
            close(fd)
            unlink(path)
        }

        /// Every datagram waiting.
        func messages() -> [String] {
            var out: [String] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = recv(fd, &buffer, buffer.count, 0)
                if n <= 0 { return out }
                out.append(String(decoding: buffer[0..<n], as: UTF8.self))
            }
        }
    }

    @Test func withoutNotifySocketThereIsNoNotifier() {
        #expect(SystemdNotifier(environment: [:]) == nil)
    }

    @Test func readyReloadingAndStoppingReachTheSocket() throws {
        let l = try Listener()
        let n = try #require(SystemdNotifier(environment: ["NOTIFY_SOCKET": l.path]))
        n.ready(status: "generation 1")
        n.reloading(at: Instant(seconds: 2))
        n.stopping()
        #expect(l.messages() == ["READY=1\nSTATUS=generation 1", "RELOADING=1\nMONOTONIC_USEC=2000000", "STOPPING=1"])
        #expect(n.watchdogInterval == nil)
        n.keepAlive(at: Instant(seconds: 3))
        #expect(l.messages().isEmpty, "no watchdog asked for: no keep-alives")
    }

    @Test func theWatchdogIsFedAtHalfItsInterval() throws {
        let l = try Listener()
        let n = try #require(SystemdNotifier(environment: ["NOTIFY_SOCKET": l.path, "WATCHDOG_USEC": "10000000"]))
        #expect(n.watchdogInterval == 5)
        n.keepAlive(at: Instant(seconds: 100))
        n.keepAlive(at: Instant(seconds: 103))
        #expect(n.nextKeepAlive(after: Instant(seconds: 103)) == Instant(seconds: 105))
        n.keepAlive(at: Instant(seconds: 105))
        #expect(l.messages() == ["WATCHDOG=1", "WATCHDOG=1"])
    }

    @Test func aWatchdogMeantForAnotherProcessIsIgnored() throws {
        let l = try Listener()
        let n = try #require(SystemdNotifier(environment: ["NOTIFY_SOCKET": l.path, "WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "1"]))
        #expect(n.watchdogInterval == nil)
    }
}
