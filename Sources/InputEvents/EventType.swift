import CLinuxInput

/// An evdev event type, one of the kernel's `EV_*` constants.
public struct EventType: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public var rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }

    init(_ constant: Int32) { rawValue = UInt16(constant) }

    /// `EV_SYN`: report boundaries and overflow notices.
    public static let synchronization = EventType(EV_SYN)
    /// `EV_KEY`: keys and buttons, `BTN_TOUCH` among them.
    public static let key = EventType(EV_KEY)
    /// `EV_REL`: relative axes.
    public static let relative = EventType(EV_REL)
    /// `EV_ABS`: absolute axes, the touch positions and slots.
    public static let absolute = EventType(EV_ABS)
    /// `EV_MSC`: miscellaneous values such as `MSC_SCAN`.
    public static let miscellaneous = EventType(EV_MSC)
    /// `EV_SW`: switches.
    public static let `switch` = EventType(EV_SW)
    /// `EV_LED`: LEDs.
    public static let led = EventType(EV_LED)
    /// `EV_SND`: sounds.
    public static let sound = EventType(EV_SND)
    /// `EV_REP`: autorepeat settings.
    public static let autorepeat = EventType(EV_REP)
    /// `EV_FF`: force feedback.
    public static let forceFeedback = EventType(EV_FF)
    /// `EV_PWR`: power buttons.
    public static let power = EventType(EV_PWR)
    /// `EV_FF_STATUS`: force feedback status.
    public static let forceFeedbackStatus = EventType(EV_FF_STATUS)

    /// The number of event types the kernel can name (`EV_CNT`).
    public static let count = Int(EV_CNT)

    /// The kernel's name for this type, such as `EV_ABS`, or nil when it has none.
    public var name: String? { EventNames.typeNames[self] }

    /// The highest code of this type (`KEY_MAX`, `ABS_MAX`, ...), or nil for types without codes.
    public var maximumCode: UInt16? { EventNames.maximumCodes[self] }

    public static func < (a: EventType, b: EventType) -> Bool { a.rawValue < b.rawValue }

    public var description: String { name ?? "EV_0x\(String(rawValue, radix: 16))" }
}

/// The code of an evdev event; what it means depends on the event's type.
public struct EventCode: RawRepresentable, Hashable, Comparable, Sendable {
    public var rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }

    init(_ constant: Int32) { rawValue = UInt16(constant) }

    public static func < (a: EventCode, b: EventCode) -> Bool { a.rawValue < b.rawValue }

    /// The kernel's name for this code under `type`, such as `ABS_MT_SLOT`, or nil when unknown.
    public func name(for type: EventType) -> String? {
        EventNames.codeNames[type]?[rawValue]
    }
}

/// An event code that belongs to one event type, so it can be used without naming the type.
public protocol TypedEventCode: RawRepresentable<UInt16>, Hashable, Sendable, CustomStringConvertible {
    static var eventType: EventType { get }
}

extension TypedEventCode {
    /// The untyped code, as it travels in an `InputEvent`.
    public var code: EventCode { EventCode(rawValue: rawValue) }

    public var description: String {
        code.name(for: Self.eventType) ?? "\(Self.eventType)/0x\(String(rawValue, radix: 16))"
    }
}
