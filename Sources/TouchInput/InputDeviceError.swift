import KioskCore
#if canImport(Glibc)
import Glibc
#endif

/// Why an input device could not be used, naming the device and, where it helps, the fix.
public enum InputDeviceError: Error, Equatable, CustomStringConvertible {
    /// A system call failed; its subject is the device's path (or the directory watched).
    case system(SystemCallError)
    /// The device went away (unplugged, or the driver unbound).
    case gone(path: String)
    /// No device in the directory is a touchscreen; each line says why one was skipped.
    case noTouchscreen(directory: String, skipped: [String])
    /// The configured device is not a touchscreen.
    case notATouchscreen(path: String, name: String, reason: String)

    public var description: String {
        switch self {
        case .system(let failure): "\(failure.subject ?? failure.call): \(cause)"
        case .gone(let path): "\(path): \(cause)"
        case .noTouchscreen, .notATouchscreen: cause
        }
    }

    /// `call` failed on `path` with `errno`.
    public static func system(call: String, path: String, errno: Int32) -> InputDeviceError {
        .system(SystemCallError(call: call, subject: path, errno: Errno(rawValue: errno)))
    }

    /// Whether the device could not be opened for want of permission (EACCES, EPERM): udev may
    /// not have given it its group yet.
    public var isOpenRefused: Bool {
        guard case .system(let failure) = self, failure.call == "open" else { return false }
        return failure.errno.rawValue == EACCES || failure.errno.rawValue == EPERM
    }

    /// The path a failed call was made on, nil for another error.
    public var failedPath: String? {
        if case .system(let failure) = self { failure.subject } else { nil }
    }

    /// What went wrong, without the device's path in front: for a line that names the device already.
    public var cause: String {
        switch self {
        case .system(let failure):
            switch failure.errno.rawValue {
            case EACCES, EPERM:
                "permission denied (\(failure.call)): the user needs to be in group 'input' (sudo usermod -aG input $USER, then log in again)"
            case ENOENT:
                "no such device"
            case EBUSY:
                "\(failure.call) failed: another process has grabbed the device"
            default:
                "\(failure.call) failed: \(failure.errno)"
            }
        case .gone:
            "the device went away"
        case .noTouchscreen(let directory, let skipped):
            "no touchscreen in \(directory)" + (skipped.isEmpty ? " (no input devices at all)" : ":\n  " + skipped.joined(separator: "\n  "))
        case .notATouchscreen(let path, let name, let reason):
            "\(path) (\"\(name)\") is not a touchscreen: \(reason)"
        }
    }
}
