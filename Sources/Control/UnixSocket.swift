#if canImport(Glibc)
import Glibc
#endif
import KioskCore

/// A system call on a Unix socket that failed: which call, on what path, the errno, and what it means here.
public struct SocketError: Error, Sendable, CustomStringConvertible {
    /// The call and the errno, with the socket's path as the subject.
    public var failure: SystemCallError
    public var detail: String?

    public init(_ failure: SystemCallError, detail: String? = nil) {
        self.failure = failure
        self.detail = detail
    }

    init(call: String, path: String, errno: Int32, detail: String? = nil) {
        self.init(SystemCallError(call: call, subject: path, errno: Errno(rawValue: errno)), detail: detail)
    }

    public var call: String { failure.call }
    public var path: String { failure.subject ?? "" }
    public var errno: Int32 { failure.errno.rawValue }

    public var description: String { "\(failure)" + (detail.map { "; \($0)" } ?? "") }
}

/// Unix stream sockets by path: the listening side for the kiosk, the connecting side for
/// `kiosk control`. The calls go through KioskCore's `systemCall`, retried on EINTR.
enum UnixSocket {
    /// `systemCall` on the socket at `path`; a failure becomes a `SocketError` naming `call`.
    @discardableResult
    static func syscall(_ call: String, _ path: String, _ body: () -> Int32) throws(SocketError) -> Int32 {
        do throws(SystemCallError) {
            return try systemCall(call, on: path, .minusOneAndErrno, body)
        } catch {
            throw SocketError(error)
        }
    }

    /// `path` as a sockaddr_un; nil when it does not fit sun_path.
    static func address(_ path: String) -> sockaddr_un? {
        var a = sockaddr_un()
        a.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: a.sun_path), !bytes.contains(0) else { return nil }
        withUnsafeMutableBytes(of: &a.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        return a
    }

    static func call(_ fd: Int32, _ addr: inout sockaddr_un, _ f: (Int32, UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
        withUnsafePointer(to: &addr) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { f(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }

    /// A non-blocking listening socket at `path` with file mode `mode`. A socket file left there
    /// by a kiosk that died is replaced; one another program still listens on is not.
    static func listen(path: String, mode: mode_t, backlog: Int32) throws(SocketError) -> Int32 {
        guard var addr = address(path) else {
            throw SocketError(call: "bind", path: path, errno: ENAMETOOLONG)
        }
        try removeStale(path)
        let fd = try syscall("socket", path) { socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }
        do {
            // The file is made with the mode at once: no moment in which others may connect.
            let old = umask(~mode & 0o777)
            defer { umask(old) }
            try syscall("bind", path) { call(fd, &addr, bind) }
            try syscall("chmod", path) { chmod(path, mode) }
            try syscall("listen", path) { Glibc.listen(fd, backlog) }
        } catch {
            close(fd)
            throw error
        }
        return fd
    }

    private static func removeStale(_ path: String) throws(SocketError) {
        var st = stat()
        guard lstat(path, &st) == 0 else { return }
        guard (st.st_mode & S_IFMT) == S_IFSOCK else {
            throw SocketError(call: "bind", path: path, errno: EEXIST, detail: "the file there is not a socket; remove it or choose another path")
        }
        if let fd = try? connect(path: path) {
            close(fd)
            throw SocketError(call: "bind", path: path, errno: EADDRINUSE, detail: "another program (another kiosk?) listens on it")
        }
        try syscall("unlink", path) { unlink(path) }
    }

    /// Accepts one waiting connection, non-blocking; nil when none waits.
    static func accept(_ listener: Int32, path: String) throws(SocketError) -> Int32? {
        while true {
            switch systemCall({ Glibc.accept(listener, nil, nil) }) {
            case .success(let fd):
                // Glibc's module has no accept4: the flags are set after.
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                return fd
            case .failure(let errno) where errno.rawValue == ECONNABORTED: continue
            case .failure(let errno) where errno == .wouldBlock || errno.rawValue == EWOULDBLOCK: return nil
            case .failure(let errno): throw SocketError(SystemCallError(call: "accept", subject: path, errno: errno))
            }
        }
    }

    /// A blocking connection to the socket at `path`.
    static func connect(path: String) throws(SocketError) -> Int32 {
        guard var addr = address(path) else { throw SocketError(call: "connect", path: path, errno: ENAMETOOLONG) }
        let fd = try syscall("socket", path) { socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }
        do {
            try syscall("connect", path) { call(fd, &addr, Glibc.connect) }
        } catch {
            close(fd)
            throw error
        }
        return fd
    }
}
