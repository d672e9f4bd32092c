import CLinuxInput

/// A code of `EV_SYN` events, one of the kernel's `SYN_*` constants.
public struct SynchronizationCode: TypedEventCode {
    public static let eventType = EventType.synchronization
    public var rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }
    init(_ constant: Int32) { rawValue = UInt16(constant) }

    /// `SYN_REPORT`: the end of one report; the values before it belong together.
    public static let report = SynchronizationCode(SYN_REPORT)
    /// `SYN_CONFIG`: unused by the kernel today.
    public static let config = SynchronizationCode(SYN_CONFIG)
    /// `SYN_MT_REPORT`: the end of one contact in multitouch protocol A.
    public static let multitouchReport = SynchronizationCode(SYN_MT_REPORT)
    /// `SYN_DROPPED`: the client's buffer overflowed and events were lost.
    public static let dropped = SynchronizationCode(SYN_DROPPED)
}

/// A code of `EV_KEY` events, one of the kernel's `KEY_*` and `BTN_*` constants.
public struct KeyCode: TypedEventCode {
    public static let eventType = EventType.key
    public var rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }
    init(_ constant: Int32) { rawValue = UInt16(constant) }

    /// `BTN_TOUCH`: something touches the surface (value 1) or nothing does any more (0).
    public static let touch = KeyCode(BTN_TOUCH)
    /// `BTN_LEFT`
    public static let left = KeyCode(BTN_LEFT)
    /// `BTN_RIGHT`
    public static let right = KeyCode(BTN_RIGHT)
    /// `BTN_TOOL_PEN`
    public static let toolPen = KeyCode(BTN_TOOL_PEN)
    /// `BTN_TOOL_FINGER`
    public static let toolFinger = KeyCode(BTN_TOOL_FINGER)
}

/// An absolute axis, one of the kernel's `ABS_*` constants.
public struct AbsoluteAxis: TypedEventCode, Comparable {
    public static let eventType = EventType.absolute
    public var rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }
    init(_ constant: Int32) { rawValue = UInt16(constant) }

    /// The axis the kernel calls `name` ("ABS_X", "ABS_MT_POSITION_X"), or nil for an unknown name.
    /// Also accepts the `ABS_0x..` form that `name` gives axes the kernel leaves unnamed.
    public init?(name: String) {
        if let axis = EventNames.axesByName[name] {
            self = axis
        } else if name.hasPrefix("ABS_0x"), let raw = UInt16(name.dropFirst(6), radix: 16),
                  raw <= UInt16(ABS_MAX) {
            self.init(rawValue: raw)
        } else {
            return nil
        }
    }

    /// The kernel's name, such as `ABS_MT_POSITION_X`; `ABS_0x..` for codes it leaves unnamed.
    public var name: String { code.name(for: .absolute) ?? "ABS_0x\(String(rawValue, radix: 16))" }

    public var description: String { name }

    public static func < (a: AbsoluteAxis, b: AbsoluteAxis) -> Bool { a.rawValue < b.rawValue }

    /// `ABS_X`
    public static let x = AbsoluteAxis(ABS_X)
    /// `ABS_Y`
    public static let y = AbsoluteAxis(ABS_Y)
    /// `ABS_Z`
    public static let z = AbsoluteAxis(ABS_Z)
    /// `ABS_RX`
    public static let rx = AbsoluteAxis(ABS_RX)
    /// `ABS_RY`
    public static let ry = AbsoluteAxis(ABS_RY)
    /// `ABS_PRESSURE`
    public static let pressure = AbsoluteAxis(ABS_PRESSURE)
    /// `ABS_DISTANCE`
    public static let distance = AbsoluteAxis(ABS_DISTANCE)
    /// `ABS_TOOL_WIDTH`
    public static let toolWidth = AbsoluteAxis(ABS_TOOL_WIDTH)
    /// `ABS_MISC`
    public static let misc = AbsoluteAxis(ABS_MISC)
    /// `ABS_MT_SLOT`: which slot the multitouch values that follow are for.
    public static let multitouchSlot = AbsoluteAxis(ABS_MT_SLOT)
    /// `ABS_MT_TOUCH_MAJOR`
    public static let multitouchTouchMajor = AbsoluteAxis(ABS_MT_TOUCH_MAJOR)
    /// `ABS_MT_WIDTH_MAJOR`
    public static let multitouchWidthMajor = AbsoluteAxis(ABS_MT_WIDTH_MAJOR)
    /// `ABS_MT_POSITION_X`
    public static let multitouchPositionX = AbsoluteAxis(ABS_MT_POSITION_X)
    /// `ABS_MT_POSITION_Y`
    public static let multitouchPositionY = AbsoluteAxis(ABS_MT_POSITION_Y)
    /// `ABS_MT_TRACKING_ID`: a contact's kernel id in the current slot; -1 ends the contact.
    public static let multitouchTrackingID = AbsoluteAxis(ABS_MT_TRACKING_ID)
    /// `ABS_MT_PRESSURE`
    public static let multitouchPressure = AbsoluteAxis(ABS_MT_PRESSURE)

    /// The number of absolute axes the kernel defines (`ABS_CNT`).
    public static let count = Int(ABS_CNT)

    /// True for the `ABS_MT_*` axes, which the kernel keeps per slot.
    public var isMultitouch: Bool { rawValue >= UInt16(ABS_MT_SLOT) }
}

/// The device properties, the kernel's `INPUT_PROP_*` bits.
public struct InputProperties: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt32

    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The set holding the property at `bit`.
    public init(bit: Int) {
        precondition(bit >= 0 && bit < InputProperties.count, "INPUT_PROP bit \(bit) out of range")
        rawValue = 1 << UInt32(bit)
    }

    /// `INPUT_PROP_POINTER`: moves a pointer (touchpads).
    public static let pointer = InputProperties(bit: Int(INPUT_PROP_POINTER))
    /// `INPUT_PROP_DIRECT`: touches land where they are shown (touchscreens).
    public static let direct = InputProperties(bit: Int(INPUT_PROP_DIRECT))
    /// `INPUT_PROP_BUTTONPAD`
    public static let buttonPad = InputProperties(bit: Int(INPUT_PROP_BUTTONPAD))
    /// `INPUT_PROP_SEMI_MT`: reports a bounding rectangle, not the contacts.
    public static let semiMultitouch = InputProperties(bit: Int(INPUT_PROP_SEMI_MT))

    /// The number of property bits (`INPUT_PROP_CNT`).
    public static let count = Int(INPUT_PROP_CNT)

    /// The bits that are set, lowest first.
    public var bits: [Int] { (0..<InputProperties.count).filter { rawValue & (1 << UInt32($0)) != 0 } }

    /// The kernel's name for property `bit`, such as `INPUT_PROP_DIRECT`, or nil when unknown.
    public static func name(ofBit bit: Int) -> String? { EventNames.propertyNames[bit] }

    public var description: String {
        "[" + bits.map { InputProperties.name(ofBit: $0) ?? "INPUT_PROP_\($0)" }.joined(separator: ", ") + "]"
    }
}
