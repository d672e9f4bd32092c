import Glibc
import KioskCore

/// Why the display could not be set up or driven; names the card and the cause.
public struct DisplayError: Error, CustomStringConvertible {
    public enum Cause: Sendable {
        /// A libdrm or system call failed, on the card named (nil before a card is chosen).
        case systemCall(card: String?, SystemCallError)
        /// Anything else, in words: no connector, a mode not offered, a master held elsewhere.
        case described(String)
    }

    public var cause: Cause
    public init(_ description: String) { cause = .described(description) }
    public init(card: String?, _ failure: SystemCallError) { cause = .systemCall(card: card, failure) }

    /// `card0: drmModePageFlip HDMI-A-1: Device or resource busy`.
    public var description: String {
        switch cause {
        case .systemCall(let card, let failure): card.map { "\($0): \(failure)" } ?? "\(failure)"
        case .described(let text): text
        }
    }

    /// The errno when a call failed, nil for a described error.
    public var errno: Errno? {
        if case .systemCall(_, let failure) = cause { return failure.errno }
        return nil
    }

    /// `drmSetMaster` on `card` failed with `code` (errno): who holds the card, or what the user lacks.
    public static func masterRefused(card: String, errno code: Int32, again: Bool = false) -> DisplayError {
        let cause = switch code {
        case EBUSY: "another process holds DRM master (a compositor or another kiosk is running)"
        // Kernels before 5.x said EINVAL for a master held elsewhere; it also means a node that
        // cannot have a master (a render node).
        case EINVAL: "refused: another process may hold DRM master (kernels before 5.x say so this way), or this is not the card's primary node"
        case EACCES, EPERM:
            "permission denied: run kiosk as root, or as a user in group video while no other process holds the card"
        default: String(cString: strerror(code))
        }
        return DisplayError("\(card): cannot become DRM master\(again ? " again" : ""): \(cause) (\(errnoName(code)))")
    }

    /// Opening the card at `path` failed with `code` (errno); for want of permission, says what the user needs.
    public static func cannotOpen(card: String, path: String, errno code: Int32) -> DisplayError {
        let cause = String(cString: strerror(code))
        let hint = code == EACCES || code == EPERM ? " (the user needs group video, or run as root)" : ""
        return DisplayError("\(card): cannot open \(path): \(cause)\(hint)")
    }

    /// `EBUSY` for EBUSY: the name a user can search for.
    static func errnoName(_ code: Int32) -> String {
        switch code {
        case EBUSY: "EBUSY"
        case EINVAL: "EINVAL"
        case EACCES: "EACCES"
        case EPERM: "EPERM"
        case ENOENT: "ENOENT"
        default: "errno \(code)"
        }
    }
}

/// `systemCall` for libdrm, which returns -1 with errno or a negative errno; a failure becomes the
/// `DisplayError` of `card`, naming `call` and `subject`.
@discardableResult
func drmCall(_ card: String?, _ call: String, on subject: @autoclosure () -> String? = nil,
             _ body: () -> Int32) throws(DisplayError) -> Int32 {
    do throws(SystemCallError) {
        return try systemCall(call, on: subject(), .negativeErrno, body)
    } catch {
        throw DisplayError(card: card, error)
    }
}
