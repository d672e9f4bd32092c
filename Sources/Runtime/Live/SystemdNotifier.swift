import CLinuxSystem
#if canImport(Glibc)
import Glibc
#endif
import Gestures
import KioskCore

/// Tells systemd how the service is doing (sd_notify): ready, reloading, stopping, and the
/// watchdog's keep-alive, as datagrams to `$NOTIFY_SOCKET`. Without that variable it does nothing.
public final class SystemdNotifier {
    public let socketPath: String
    /// How often systemd wants a keep-alive (half of `WatchdogSec`), when the watchdog is on.
    public let watchdogInterval: Double?
    private let file: FileDescriptor
    private var fd: Int32 { file.rawValue }
    public private(set) var lastKeepAlive: Instant?

    /// Reads `NOTIFY_SOCKET` and `WATCHDOG_USEC` (honouring `WATCHDOG_PID`); nil when not run by systemd.
    public init?(environment: [String: String]) {
        guard let path = environment["NOTIFY_SOCKET"], !path.isEmpty else { return nil }
        socketPath = path
        // From the C shim: with CLinuxSystem's <sys/socket.h> in the module, a release (whole-module)
        // build no longer sees Glibc's SOCK_CLOEXEC and SOCK_NONBLOCK.
        let fd = socket(AF_UNIX, kiosk_SOCK_DGRAM_CLOEXEC_NONBLOCK, 0)
        guard fd >= 0 else { return nil }
        file = FileDescriptor(owning: fd)
        var interval: Double?
        if let usec = environment["WATCHDOG_USEC"].flatMap(Double.init), usec > 0 {
            let pid = environment["WATCHDOG_PID"].flatMap(Int32.init)
            if pid == nil || pid == getpid() { interval = usec / 1e6 / 2 }
        }
        watchdogInterval = interval
    }

    /// When the next keep-alive is due.
    public func nextKeepAlive(after now: Instant) -> Instant? {
        guard let watchdogInterval else { return nil }
        return (lastKeepAlive ?? now).adding(seconds: watchdogInterval)
    }

    /// Sends `WATCHDOG=1` when one is due.
    public func keepAlive(at now: Instant) {
        guard watchdogInterval != nil else { return }
        if let due = nextKeepAlive(after: now), lastKeepAlive != nil, now < due { return }
        lastKeepAlive = now
        send("WATCHDOG=1")
    }

    public func ready(status: String) { send("READY=1\nSTATUS=\(status)") }
    public func reloading(at now: Instant) { send("RELOADING=1\nMONOTONIC_USEC=\(now.microseconds)") }
    public func stopping() { send("STOPPING=1") }
    public func status(_ text: String) { send("STATUS=\(text)") }

    /// One datagram; an abstract socket's name starts with `@`. Failures are ignored, as
    /// sd_notify's are: the kiosk runs on without systemd's ear.
    public func send(_ message: String) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var path = Array(socketPath.utf8)
        if path.first == UInt8(ascii: "@") { path[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.count < capacity else { return }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in path.enumerated() { raw[i] = b }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + path.count + (path.first == 0 ? 0 : 1))
        let bytes = Array(message.utf8)
        _ = withUnsafePointer(to: &address) { a in
            a.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                bytes.withUnsafeBytes { sendto(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), sa, length) }
            }
        }
    }
}
