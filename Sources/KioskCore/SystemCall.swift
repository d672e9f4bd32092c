#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed system call's `errno` (`EAGAIN`, `ENOENT`, ...), named by `strerror` when printed.
public struct Errno: RawRepresentable, Error, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The kernel's words: "No such file or directory".
    public var description: String { String(cString: strerror(rawValue)) }

    /// The kernel's words lower-cased to read inside a sentence: "no such file or directory".
    public var reason: String {
        let text = description
        return text.prefix(1).lowercased() + text.dropFirst()
    }

    /// `errno` as the calling thread has it now.
    public static var current: Errno { Errno(rawValue: errno) }

    /// `EINTR`: a signal arrived during the call; `systemCall` retries it.
    public static let interrupted = Errno(rawValue: EINTR)
    /// `EAGAIN`: the descriptor is non-blocking and has nothing (or no room) now.
    public static let wouldBlock = Errno(rawValue: EAGAIN)
    /// `ENOENT`.
    public static let noSuchFile = Errno(rawValue: ENOENT)
}

/// A system call that failed: which call, on what, and the errno. The text is made where the
/// error is shown (`description`), from these parts.
public struct SystemCallError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The C function, such as `open` or `drmModeSetCrtc`.
    public var call: String
    /// What it was called on, such as a path or `the card /dev/dri/card0`; nil when there is nothing to name.
    public var subject: String?
    public var errno: Errno

    public init(call: String, subject: String? = nil, errno: Errno) {
        self.call = call
        self.subject = subject
        self.errno = errno
    }

    /// `signalfd: Too many open files`, `open /dev/ttyUSB0: No such file or directory`.
    public var description: String {
        "\(call)\(subject.map { " \($0)" } ?? ""): \(errno)"
    }
}

/// How a call reports a failure.
public enum FailureConvention: Sendable {
    /// -1 (any negative value) with `errno` set: the system calls.
    case minusOneAndErrno
    /// A negative errno as the result, or -1 with `errno` set: libdrm's calls do both.
    case negativeErrno
}

/// The one funnel for system calls: runs `body` again while it fails with EINTR, and returns the
/// errno of any other failure, so no caller forgets either.
@inlinable
public func systemCall<R: BinaryInteger>(_ body: () -> R) -> Result<R, Errno> {
    systemCall(.minusOneAndErrno, body)
}

/// `systemCall` for a call that reports failure by `convention`.
@inlinable
public func systemCall<R: BinaryInteger>(_ convention: FailureConvention, _ body: () -> R) -> Result<R, Errno> {
    while true {
        let result = body()
        if result >= 0 { return .success(result) }
        let code: Int32 = switch convention {
        case .minusOneAndErrno: errno
        case .negativeErrno: result == -1 ? errno : Int32(truncatingIfNeeded: 0 - result)
        }
        if code == EINTR { continue }
        return .failure(Errno(rawValue: code))
    }
}

/// `systemCall` that throws what failed: `call` and `subject` name it in the error.
@inlinable
@discardableResult
public func systemCall<R: BinaryInteger>(_ call: String, on subject: @autoclosure () -> String? = nil,
                                         _ convention: FailureConvention = .minusOneAndErrno,
                                         _ body: () -> R) throws(SystemCallError) -> R {
    switch systemCall(convention, body) {
    case .success(let result): return result
    case .failure(let errno): throw SystemCallError(call: call, subject: subject(), errno: errno)
    }
}
