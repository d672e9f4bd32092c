import CLinuxInput
import KioskCore

/// One evdev event (the kernel's `struct input_event`), with its timestamp as an `Instant`.
public struct InputEvent: Hashable, Sendable, CustomStringConvertible {
    public var time: Instant
    public var type: EventType
    public var code: EventCode
    public var value: Int32

    public init(time: Instant, type: EventType, code: EventCode, value: Int32) {
        self.time = time
        self.type = type
        self.code = code
        self.value = value
    }

    /// An event of the code's own type, such as `InputEvent(time: t, AbsoluteAxis.x, 12)`.
    public init<Code: TypedEventCode>(time: Instant, _ code: Code, _ value: Int32) {
        self.init(time: time, type: Code.eventType, code: code.code, value: value)
    }

    /// The `SYN_REPORT` that closes a report at `time`.
    public static func report(at time: Instant) -> InputEvent {
        InputEvent(time: time, SynchronizationCode.report, 0)
    }

    /// The axis, when this is an `EV_ABS` event.
    public var axis: AbsoluteAxis? { type == .absolute ? AbsoluteAxis(rawValue: code.rawValue) : nil }

    /// The key or button, when this is an `EV_KEY` event.
    public var key: KeyCode? { type == .key ? KeyCode(rawValue: code.rawValue) : nil }

    /// The synchronization code, when this is an `EV_SYN` event.
    public var synchronization: SynchronizationCode? {
        type == .synchronization ? SynchronizationCode(rawValue: code.rawValue) : nil
    }

    /// False for an event no kernel can send: a type above `EV_MAX`, or a code above its type's
    /// maximum (`ABS_MAX`, `KEY_MAX`, ...). Only a hand-made or damaged trace holds one.
    public var isWithinKernelLimits: Bool {
        // Compared with the constants, not looked up in `maximumCode`'s table: this runs on every live event.
        let maximum: Int32 = switch type {
        case .synchronization: SYN_MAX
        case .key: KEY_MAX
        case .absolute: ABS_MAX
        case .relative: REL_MAX
        case .miscellaneous: MSC_MAX
        case .switch: SW_MAX
        case .led: LED_MAX
        case .sound: SND_MAX
        case .autorepeat: REP_MAX
        case .forceFeedback: FF_MAX
        default: Int(type.rawValue) < EventType.count ? Int32(UInt16.max) : -1
        }
        return Int32(code.rawValue) <= maximum
    }

    public var description: String {
        let name = code.name(for: type) ?? "0x\(String(code.rawValue, radix: 16))"
        return "\(time) \(type) \(name) \(value)"
    }
}
