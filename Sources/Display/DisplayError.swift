import Glibc

/// Why the display could not be set up or driven; names the card and the cause.
public struct DisplayError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }

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
