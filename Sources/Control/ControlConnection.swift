import KioskCore
#if canImport(Glibc)
import Glibc
#endif

/// The client's side of the control socket, for `kiosk control`: blocking, one line at a time.
public final class ControlConnection {
    public let path: String
    private let file: FileDescriptor
    private var fd: Int32 { file.rawValue }
    private var buffer: [UInt8] = []
    /// How much of `buffer` was searched for a newline already (a screenshot's reply is megabytes long).
    private var searched = 0

    public init(path: String) throws(SocketError) {
        self.path = path
        file = FileDescriptor(owning: try UnixSocket.connect(path: path))
    }

    /// Sends `line` and its newline, all of it.
    public func send(_ line: String) throws(SocketError) {
        let bytes = Array((line + "\n").utf8)
        var sent = 0
        while sent < bytes.count {
            let n = try UnixSocket.syscall("write", path) {
                Int32(bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) })
            }
            sent += Int(n)
        }
    }

    /// The next line the kiosk sends (without its newline); nil when it closed the connection.
    public func readLine() throws(SocketError) -> String? {
        while true {
            if let nl = buffer[searched...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<nl], as: UTF8.self)
                buffer.removeSubrange(...nl)
                searched = 0
                return line
            }
            searched = buffer.count
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = try UnixSocket.syscall("read", path) { Int32(chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }) }
            if n == 0 { return nil }
            buffer += chunk[0..<Int(n)]
        }
    }
}
