import InputEvents
import MultitouchA

/// What kind of touchscreen a device is, judged by its capabilities, never by its name.
public enum TouchscreenKind: Equatable, Sendable, CustomStringConvertible {
    /// Multitouch protocol B: slots with tracking ids (FT5406, most capacitive panels).
    case multitouch(slots: Int)
    /// Multitouch protocol A: contacts without slots (older and vendor drivers), read through
    /// libmtdev as protocol B with this many slots.
    case multitouchA(slots: Int)
    /// One contact: ABS_X/ABS_Y with BTN_TOUCH (resistive panels such as the ADS7846).
    case singleTouch

    /// The device's kind, or why it is not a touchscreen kiosk can use.
    public static func classify(_ d: DeviceDescription) -> Result<TouchscreenKind, NotATouchscreen> {
        if d.properties.contains(.pointer) || (!d.isDirect && d.supports(KeyCode.toolFinger)) {
            return .failure(NotATouchscreen("a touchpad (INPUT_PROP_POINTER or BTN_TOOL_FINGER without INPUT_PROP_DIRECT): it moves a pointer, it is not on the screen"))
        }
        if !d.isDirect && d.supports(KeyCode.toolPen) {
            return .failure(NotATouchscreen("a pen tablet (BTN_TOOL_PEN without INPUT_PROP_DIRECT): it moves a pointer, it is not on the screen"))
        }
        if d.isMultitouchB {
            guard d.isDirect else {
                return .failure(NotATouchscreen("multitouch but not direct (no INPUT_PROP_DIRECT): not a screen"))
            }
            let slots = Int(d.axes[.multitouchSlot]!.maximum) + 1
            return .success(.multitouch(slots: slots))
        }
        if d.isMultitouchA {
            guard d.isDirect else {
                return .failure(NotATouchscreen("multitouch protocol A but not direct (no INPUT_PROP_DIRECT): not a screen"))
            }
            return .success(.multitouchA(slots: ProtocolAConverter.defaultSlotCount))
        }
        if d.isSingleTouch { return .success(.singleTouch) }
        let axes = d.axisList.map(\.name)
        var lacks: [String] = []
        if d.axes[.x] == nil || d.axes[.y] == nil { lacks.append("ABS_X/ABS_Y") }
        if !d.supports(KeyCode.touch) { lacks.append("BTN_TOUCH") }
        return .failure(NotATouchscreen(
            "no touch axes: lacks ABS_MT_SLOT + ABS_MT_POSITION_X/Y (multitouch) and \(lacks.joined(separator: " and ")) (single touch)"
            + (axes.isEmpty ? "; it has no absolute axes" : "; it has \(axes.joined(separator: ", "))")))
    }

    public var description: String {
        switch self {
        case .multitouch(let slots): "multitouch protocol B, \(slots) slots"
        case .multitouchA(let slots): "multitouch protocol A, through mtdev as protocol B with \(slots) slots"
        case .singleTouch: "single touch (ABS_X/ABS_Y + BTN_TOUCH)"
        }
    }
}

/// Why a device is not a touchscreen kiosk uses.
public struct NotATouchscreen: Error, Equatable, Sendable, CustomStringConvertible {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}
