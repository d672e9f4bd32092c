#if canImport(Glibc)
import Glibc
#endif
import KioskCore

/// The read end of one of a hook's pipes (stdout or stderr), cut into lines for the log, bounded:
/// a line is cut at `maxLineBytes`, a run logs at most `maxLines` lines per stream (the rest are
/// counted), and one wake-up reads at most `maxBytesPerService` bytes, so a chatty hook cannot
/// hold up the loop.
struct HookOutput {
    static let maxLineBytes = 512
    static let maxLines = 100
    static let maxBytesPerService = 64 * 1024

    let stream: String
    private(set) var fd: Int32
    private var partial: [UInt8] = []
    /// The current line was already cut at its limit: the rest of it, up to its newline, is skipped.
    private var skipping = false
    private(set) var linesLogged = 0
    private(set) var linesDropped = 0

    init(stream: String, fd: Int32) {
        self.stream = stream
        self.fd = fd
    }

    var isOpen: Bool { fd >= 0 }

    /// Reads what the pipe holds now, passing each complete line to `line`; closes the pipe at EOF.
    mutating func read(_ line: (String) -> Void) {
        guard fd >= 0 else { return }
        var total = 0
        var buffer = [UInt8](repeating: 0, count: 4096)
        while total < Self.maxBytesPerService {
            let n: Int
            switch systemCall({ buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) } }) {
            case .success(let count): n = count
            case .failure(.wouldBlock): return
            case .failure: n = 0  // an error on a pipe: treat as its end
            }
            if n == 0 { break }
            total += n
            for byte in buffer[..<n] { take(byte, line) }
        }
        if total >= Self.maxBytesPerService { return }
        finish(line)
    }

    /// The pipe's end (EOF, or the hook was reaped): the last, unterminated line too, then close.
    mutating func finish(_ line: (String) -> Void) {
        guard fd >= 0 else { return }
        if !partial.isEmpty { emit(line) }
        close(fd)
        fd = -1
    }

    private mutating func take(_ byte: UInt8, _ line: (String) -> Void) {
        if byte == UInt8(ascii: "\n") {
            if !skipping { emit(line) }
            skipping = false
            return
        }
        guard !skipping else { return }
        partial.append(byte)
        if partial.count >= Self.maxLineBytes {
            partial.append(contentsOf: Array("…".utf8))
            emit(line)
            skipping = true
        }
    }

    private mutating func emit(_ line: (String) -> Void) {
        defer { partial.removeAll(keepingCapacity: true) }
        guard linesLogged < Self.maxLines else {
            linesDropped += 1
            return
        }
        linesLogged += 1
        line(String(decoding: partial, as: UTF8.self))
    }
}
