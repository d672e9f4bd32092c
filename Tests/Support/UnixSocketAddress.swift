#if canImport(Glibc)
import Glibc
#endif

/// The tests' side of a Unix socket: a client connecting to kiosk's control socket, or a test
/// standing in for systemd's notify socket.
public enum UnixSocketAddress {
    public enum Action: Sendable { case connect, bind }

    /// Connects or binds `fd` to `path`: 0, or -1 with errno set, as the call returns.
    public static func attach(_ fd: Int32, to path: String, _ action: Action) -> Int32 {
        var a = sockaddr_un()
        a.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &a.sun_path) { raw in for (i, b) in path.utf8.prefix(raw.count - 1).enumerated() { raw[i] = b } }
        let size = socklen_t(MemoryLayout<sockaddr_un>.size)
        return withUnsafePointer(to: &a) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { action == .connect ? connect(fd, $0, size) : bind(fd, $0, size) }
        }
    }
}
