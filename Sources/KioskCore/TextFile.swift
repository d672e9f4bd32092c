#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole files read and written with plain system calls, so that every error names the path and
/// the kernel's reason (no such file, permission denied, a directory) rather than Foundation's.
///
/// Reads are bounded: a file larger than the caller's limit (a config is never a megabyte, a trace
/// never a gigabyte) is refused before it is read, and a device that never ends (`/dev/zero`) stops
/// at the limit. Writes go to a temporary file beside the target, renamed over it once complete,
/// so a reader never sees half a file; a target that is not a regular file (`/dev/stdout`, a pipe)
/// is written in place.
public enum TextFile {
    /// The bytes of the file at `path`, at most `limit` of them; `what` names the file in errors
    /// ("the trace", "the config file").
    public static func read(_ path: String, what: String, limit: Int) throws(FileError) -> [UInt8] {
        let file: FileDescriptor
        do throws(SystemCallError) {
            file = try FileDescriptor.open(path, O_RDONLY | O_CLOEXEC)
        } catch {
            throw FileError(path: path, .cannotRead(what: what, error.errno))
        }
        // Kept alive (open) to the end of the function, not only to its last mention.
        defer { withExtendedLifetime(file) {} }
        let fd = file.rawValue
        var info = stat()
        if case .failure(let errno) = systemCall({ fstat(fd, &info) }) { throw FileError(path: path, .cannotRead(what: what, errno)) }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            throw FileError(path: path, .isDirectory(what: what, writing: false))
        }
        let tooLarge = FileError(path: path, .tooLarge(what: what, limit: limit))
        let isRegular = (info.st_mode & S_IFMT) == S_IFREG
        if isRegular, Int(info.st_size) > limit { throw tooLarge }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(isRegular ? Int(info.st_size) : 4096)
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let read = chunk.withUnsafeMutableBytes { buffer in
                systemCall { systemRead(fd, buffer.baseAddress, buffer.count) }
            }
            let count: Int
            switch read {
            case .success(let n): count = n
            case .failure(let errno): throw FileError(path: path, .cannotRead(what: what, errno))
            }
            if count == 0 { break }
            guard bytes.count + count <= limit else { throw tooLarge }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return bytes
    }

    /// The text of the file at `path`, which must be UTF-8; an invalid byte is named by its line
    /// and column (both 1-based) in the error.
    public static func readText(_ path: String, what: String, limit: Int) throws(FileError) -> String {
        let bytes = try read(path, what: what, limit: limit)
        guard let (line, column, byte) = firstInvalidUTF8(bytes, orNUL: true) else { return String(decoding: bytes, as: UTF8.self) }
        // NUL is UTF-8, but no text holds one; UTF-16 and binary files are full of them.
        throw FileError(path: path, line: line, .notUTF8(what: what, column: column, byte: byte, binary: bytes.contains(0)))
    }

    /// Where `bytes` first stop being UTF-8: the 1-based line and column (in bytes) and the byte
    /// there; nil when they are all UTF-8. With `orNUL`, a NUL byte counts as the first that is not.
    public static func firstInvalidUTF8(_ bytes: [UInt8], orNUL: Bool = false) -> (line: Int, column: Int, byte: UInt8)? {
        var line = 1, lineStart = 0, i = 0
        while i < bytes.count {
            if orNUL, bytes[i] == 0 { return (line, i - lineStart + 1, 0) }
            if bytes[i] == UInt8(ascii: "\n") {
                line += 1
                lineStart = i + 1
                i += 1
                continue
            }
            let length = utf8SequenceLength(bytes, at: i)
            guard length > 0 else { return (line, i - lineStart + 1, bytes[i]) }
            i += length
        }
        return nil
    }

    /// The length of the well-formed UTF-8 sequence at `i` (Unicode's table 3-7), 0 when there is none.
    static func utf8SequenceLength(_ bytes: [UInt8], at i: Int) -> Int {
        let lead = bytes[i]
        let (length, secondRange): (Int, ClosedRange<UInt8>) = switch lead {
        case 0x00...0x7f: (1, 0...0)
        case 0xc2...0xdf: (2, 0x80...0xbf)
        case 0xe0: (3, 0xa0...0xbf)
        case 0xe1...0xec, 0xee...0xef: (3, 0x80...0xbf)
        case 0xed: (3, 0x80...0x9f)
        case 0xf0: (4, 0x90...0xbf)
        case 0xf1...0xf3: (4, 0x80...0xbf)
        case 0xf4: (4, 0x80...0x8f)
        default: (0, 0...0)
        }
        guard length > 1 else { return length }
        guard i + length <= bytes.count, secondRange.contains(bytes[i + 1]) else { return 0 }
        for k in 2..<length where !(0x80...0xbf).contains(bytes[i + k]) { return 0 }
        return length
    }

    /// Throws what `write` would for `path` as far as can be told without writing: a directory, a
    /// folder that does not exist or cannot be written. Checked before long work whose result goes there.
    public static func checkWritable(_ path: String, what: String) throws(FileError) {
        var info = stat()
        if stat(path, &info) == 0 {
            if (info.st_mode & S_IFMT) == S_IFDIR {
                throw FileError(path: path, .isDirectory(what: what, writing: true))
            }
            if (info.st_mode & S_IFMT) != S_IFREG {
                guard access(path, W_OK) == 0 else { throw FileError(path: path, .cannotWrite(what: what, .current)) }
                return
            }
        }
        let directory = directoryName(path)
        guard stat(directory, &info) == 0 else {
            let code = errno
            if code == ENOENT { throw FileError(path: path, .noDirectory(what: what, directory: directory)) }
            throw FileError(path: path, .cannotWriteIn(what: what, directory: directory, Errno(rawValue: code)))
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR else {
            throw FileError(path: path, .notADirectory(what: what, directory: directory))
        }
        guard access(directory, W_OK) == 0 else {
            throw FileError(path: path, .cannotWriteIn(what: what, directory: directory, .current))
        }
    }

    /// Writes `text` to `path`, whole or not at all; `what` names the file in errors ("the state").
    public static func write(_ text: String, to path: String, what: String) throws(FileError) {
        try write(bytes: Array(text.utf8), to: path, what: what)
    }

    /// Writes `bytes` to `path`, whole or not at all (a new file beside it, renamed over it).
    public static func write(bytes: [UInt8], to path: String, what: String) throws(FileError) {
        var info = stat()
        var mode: mode_t = 0o644
        if stat(path, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                throw FileError(path: path, .isDirectory(what: what, writing: true))
            case S_IFREG:
                mode = info.st_mode & 0o7777
            default:
                // A terminal, a pipe, /dev/null: written in place, never replaced.
                return try writeInPlace(bytes, to: path, what: what)
            }
        }
        let directory = directoryName(path)
        let prefix: String = directory == "/" ? "/" : directory + "/"
        var template = (prefix + "." + baseName(path) + ".XXXXXX").utf8CString
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT { throw FileError(path: path, .noDirectory(what: what, directory: directory)) }
            if code == ENOTDIR { throw FileError(path: path, .notADirectory(what: what, directory: directory)) }
            throw FileError(path: path, .cannotWriteIn(what: what, directory: directory, Errno(rawValue: code)))
        }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        do throws(FileError) {
            defer { close(fd) }
            // mkstemp makes the file private: a replaced file keeps its mode, a new one is readable by all.
            _ = fchmod(fd, mode)
            try writeAll(bytes, to: fd, path: path, what: what)
            guard fsync(fd) == 0 else { throw FileError(path: path, .cannotWrite(what: what, .current)) }
        } catch {
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw FileError(path: path, .cannotWrite(what: what, Errno(rawValue: code)))
        }
    }

    private static func writeInPlace(_ bytes: [UInt8], to path: String, what: String) throws(FileError) {
        let file: FileDescriptor
        do throws(SystemCallError) {
            file = try FileDescriptor.open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
        } catch {
            throw FileError(path: path, .cannotWrite(what: what, error.errno))
        }
        defer { withExtendedLifetime(file) {} }
        try writeAll(bytes, to: file.rawValue, path: path, what: what)
    }

    private static func writeAll(_ bytes: [UInt8], to fd: Int32, path: String, what: String) throws(FileError) {
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                systemCall { systemWrite(fd, buffer.baseAddress! + written, buffer.count - written) }
            }
            switch result {
            case .success(let count) where count > 0: written += count
            case .success: throw FileError(path: path, .cannotWrite(what: what, Errno(rawValue: EIO)))
            case .failure(let errno): throw FileError(path: path, .cannotWrite(what: what, errno))
            }
        }
    }

    /// The folder part of `path`: "." for a bare name.
    static func directoryName(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let directory = String(path[..<slash])
        return directory.isEmpty ? "/" : directory
    }

    static func baseName(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    static func size(_ bytes: Int) -> String {
        bytes >= 1 << 20 && bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB"
            : bytes >= 1 << 10 && bytes % (1 << 10) == 0 ? "\(bytes >> 10) KiB" : "\(bytes) bytes"
    }
}

#if canImport(Glibc)
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { Glibc.read(fd, buffer, count) }
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int { Glibc.write(fd, buffer, count) }
#else
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { Darwin.read(fd, buffer, count) }
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int { Darwin.write(fd, buffer, count) }
#endif

/// Why a file could not be read or written: the path, the line when the fault is inside it, and
/// the problem as typed parts (the errno where a call failed); the text is made in `reason`.
public struct FileError: Error, Hashable, Sendable, CustomStringConvertible {
    public var path: String
    /// 1-based, for a fault inside the text (such as a byte that is not UTF-8); nil for the file as a whole.
    public var line: Int?
    public var problem: Problem

    /// What went wrong; `what` names the file as the caller does (`the trace`, `the config file`).
    public enum Problem: Hashable, Sendable, CustomStringConvertible {
        /// Opening, examining or reading it failed.
        case cannotRead(what: String, Errno)
        /// It is a directory, and a file was to be read (`writing` false) or written.
        case isDirectory(what: String, writing: Bool)
        /// It is larger than `limit` bytes, the most kiosk reads as `what`.
        case tooLarge(what: String, limit: Int)
        /// At `column` of the error's line, `byte` (0: a NUL) is not UTF-8 text; `binary`: the file has NULs.
        case notUTF8(what: String, column: Int, byte: UInt8, binary: Bool)
        /// Writing, syncing or renaming it failed.
        case cannotWrite(what: String, Errno)
        /// The step of a write (`fsync`, `rename`) failed.
        case cannotWriteStep(what: String, step: String, Errno)
        /// The folder it goes in does not exist, is not a folder, or cannot be written (the errno).
        case noDirectory(what: String, directory: String)
        case notADirectory(what: String, directory: String)
        case cannotWriteIn(what: String, directory: String, Errno)
        /// The text is not what its format wants, as the format's reader says.
        case malformed(String)

        public var description: String {
            switch self {
            case .cannotRead(let what, let errno): "cannot read \(what): \(errno.reason)"
            case .isDirectory(let what, let writing):
                writing ? "cannot write \(what): it is a directory; expected a file name" : "cannot read \(what): it is a directory; expected a file"
            case .tooLarge(let what, let limit): "cannot read \(what): it is larger than \(TextFile.size(limit)), the most kiosk reads as \(what)"
            case .notUTF8(let what, let column, let byte, let binary):
                "column \(column): \(byte == 0 ? "a NUL byte" : "byte 0x\(String(byte, radix: 16)) is not UTF-8"): \(what) must be UTF-8 text"
                    + (binary ? ", not UTF-16 or a binary file" : "")
            case .cannotWrite(let what, let errno): "cannot write \(what): \(errno.reason)"
            case .cannotWriteStep(let what, let step, let errno): "cannot write \(what): \(step): \(errno.reason)"
            case .noDirectory(let what, let directory): "cannot write \(what): the directory '\(directory)' does not exist"
            case .notADirectory(let what, let directory): "cannot write \(what): '\(directory)' is not a directory"
            case .cannotWriteIn(let what, let directory, let errno): "cannot write \(what) in the directory '\(directory)': \(errno.reason)"
            case .malformed(let text): text
            }
        }
    }

    public init(path: String, line: Int? = nil, _ problem: Problem) {
        self.path = path
        self.line = line
        self.problem = problem
    }

    /// What is wrong, such as `cannot read the trace: no such file or directory`.
    public var reason: String { problem.description }

    public var description: String { line.map { "\(path):\($0): \(reason)" } ?? "\(path): \(reason)" }
}
