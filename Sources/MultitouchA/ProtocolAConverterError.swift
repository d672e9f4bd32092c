import InputEvents
import KioskCore
#if canImport(Glibc)
import Glibc
#endif

/// Why a device's events cannot be converted from protocol A.
public enum ProtocolAConverterError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The device is not protocol A: it has slots, or no multitouch positions.
    case notProtocolA(device: String, axes: [AbsoluteAxis])
    /// Asked for no slots at all.
    case noSlots(device: String)
    /// libmtdev failed.
    case mtdev(SystemCallError)

    public var description: String {
        switch self {
        case let .notProtocolA(device, axes):
            "device '\(device)' is not multitouch protocol A (ABS_MT_POSITION_X/Y without ABS_MT_SLOT); it has: "
                + (axes.isEmpty ? "no absolute axes" : axes.map(\.name).joined(separator: ", "))
        case let .noSlots(device):
            "device '\(device)': a protocol A conversion needs at least one slot"
        case let .mtdev(failure):
            "\(failure.call) failed: \(failure.errno)"
        }
    }
}
