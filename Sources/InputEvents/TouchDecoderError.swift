/// Why a device's events cannot be decoded into touches; each case names the device and what it has.
public enum TouchDecoderError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Neither multitouch protocol B nor single touch.
    case noTouchAxes(device: String, axes: [AbsoluteAxis], hasTouchButton: Bool)
    /// A position axis asked for (`positionAxes`) that the device does not have.
    case missingPositionAxis(device: String, axis: AbsoluteAxis, axes: [AbsoluteAxis])
    /// Position axes asked for on a device without `BTN_TOUCH`, which says when a touch is down.
    case noTouchButton(device: String, positionAxes: [AbsoluteAxis])
    /// An axis whose maximum is below its minimum.
    case emptyAxisRange(device: String, axis: AbsoluteAxis, minimum: Int32, maximum: Int32)

    public var description: String {
        switch self {
        case let .noTouchAxes(device, axes, hasTouchButton):
            let has = axes.isEmpty ? "it has no absolute axes" : "it has: " + axes.map(\.name).joined(separator: ", ")
            return "device '\(device)' has no touch axes: needs ABS_MT_SLOT + ABS_MT_POSITION_X/Y (multitouch protocol B)"
                + " or ABS_X/ABS_Y + BTN_TOUCH (single touch); \(has)" + (hasTouchButton ? ", BTN_TOUCH" : "; no BTN_TOUCH")
        case let .missingPositionAxis(device, axis, axes):
            let has = axes.isEmpty ? "it has no absolute axes" : "it has: " + axes.map(\.name).joined(separator: ", ")
            return "device '\(device)' has no axis \(axis.name) to take touch positions from; \(has)"
        case let .noTouchButton(device, positionAxes):
            return "device '\(device)' has no BTN_TOUCH, so touches on "
                + positionAxes.map(\.name).joined(separator: "/") + " cannot be told down from up"
        case let .emptyAxisRange(device, axis, minimum, maximum):
            return "device '\(device)': axis \(axis.name) has an empty range \(minimum)...\(maximum)"
        }
    }
}
