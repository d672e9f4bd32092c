import KioskCore
#if canImport(Glibc)
import Glibc
#endif

/// The state file on disk: read whole, written so that a power cut leaves either the old file or
/// the new one, never a mix (SQLite's and systemd's way).
///
/// A write goes to `<file>.new` beside it, is fsynced, renamed over the file, and the folder is
/// fsynced so the rename itself is on disk. The temporary name is fixed: a kiosk killed
/// mid-write leaves at most one stray file, which the next write replaces.
public struct StateFile: Sendable {
    public let path: String

    public init(path: String) { self.path = path }

    /// The temporary file a write goes through.
    public var temporaryPath: String { path + ".new" }

    /// The folder holding the file.
    public var directory: String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let d = String(path[..<slash])
        return d.isEmpty ? "/" : d
    }

    /// What a read found.
    public enum Contents: Sendable, Equatable {
        case document(StateDocument)
        /// No file yet: the first start, or the file was removed.
        case missing
        /// The file is there and is not a state document of this version (why).
        case unusable(String)
    }

    /// Reads and parses the file; never throws: every problem is a `Contents` case to warn about.
    public func read() -> Contents {
        let bytes: [UInt8]
        do {
            bytes = try TextFile.read(path, what: "the state file", limit: StateDocument.maximumBytes)
        } catch {
            var info = stat()
            if stat(path, &info) != 0, errno == ENOENT { return .missing }
            return .unusable(error.reason)
        }
        do {
            return .document(try StateDocument.parse(bytes))
        } catch {
            return .unusable(error.reason)
        }
    }

    /// Writes `text` durably: temporary file, fsync, rename, fsync of the folder. Throws what
    /// failed, naming the file; the old file is then still whole.
    public func write(_ text: String) throws(FileError) {
        let temporary = temporaryPath
        let fd = Self.retrying { open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
        guard fd >= 0 else { throw failure("cannot create \(temporary)", errno) }
        do throws(FileError) {
            try writeAll(Array(text.utf8), to: fd)
            guard fsync(fd) == 0 else { throw failure("fsync", errno) }
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        guard close(fd) == 0 else {
            let code = errno
            unlink(temporary)
            throw failure("close", code)
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw failure("rename", code)
        }
        // The rename is in the folder: without this, a power cut may still bring back the old file.
        let folder = Self.retrying { open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard folder >= 0 else { throw failure("cannot open the folder \(directory) to fsync it", errno) }
        defer { close(folder) }
        guard fsync(folder) == 0 else { throw failure("fsync of the folder \(directory)", errno) }
    }

    private func writeAll(_ bytes: [UInt8], to fd: Int32) throws(FileError) {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                Self.retrying { Glibc.write(fd, buffer.baseAddress! + written, buffer.count - written) }
            }
            guard count > 0 else { throw failure("write", count < 0 ? errno : EIO) }
            written += count
        }
    }

    private func failure(_ step: String, _ code: Int32) -> FileError {
        FileError(path: path, .cannotWriteStep(what: "the state file", step: step, Errno(rawValue: code)))
    }

    /// The call through KioskCore's one funnel (EINTR retried there); -1 on failure, with `errno`
    /// still saying why for the message.
    private static func retrying<T: BinaryInteger & SignedInteger>(_ call: () -> T) -> T {
        switch systemCall(call) {
        case .success(let result): result
        case .failure: -1
        }
    }
}
