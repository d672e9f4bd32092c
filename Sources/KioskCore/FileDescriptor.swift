#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An open file descriptor that this object owns: closed when the object goes away, unless handed
/// on with `release()`. A class rather than a `~Copyable` struct: Swift 6.0's compiler (Debian
/// trixie's) crashes on a non-copyable value assigned in a `do`/`catch`.
public final class FileDescriptor {
    /// The descriptor number, for the C calls; valid while this object lives.
    public let rawValue: Int32
    private var owned = true

    /// Takes ownership of `rawValue`, an open descriptor.
    public init(owning rawValue: Int32) { self.rawValue = rawValue }

    /// `open(path, flags, mode)` through the funnel; the error names `open` and the path.
    public static func open(_ path: String, _ flags: Int32, mode: mode_t = 0) throws(SystemCallError) -> FileDescriptor {
        #if canImport(Glibc)
        let fd = try systemCall("open", on: path) { Glibc.open(path, flags, mode) }
        #else
        let fd = try systemCall("open", on: path) { Darwin.open(path, flags, mode) }
        #endif
        return FileDescriptor(owning: fd)
    }

    /// Hands the descriptor on, open; the caller closes it.
    public func release() -> Int32 {
        owned = false
        return rawValue
    }

    deinit {
        // close is never retried: on Linux the descriptor is gone even when it says EINTR.
        if owned { _ = close(rawValue) }
    }
}
