/// What an input device is and can send: identity, properties, event codes and axis ranges.
///
/// The same description comes from an evemu header or, later, from a live device through libevdev,
/// so nothing here knows about the text format.
public struct DeviceDescription: Hashable, Sendable {
    public var name: String
    /// The bus the device sits on (`BUS_USB`, `BUS_I2C`, ... from linux/input.h).
    public var bus: UInt16
    public var vendor: UInt16
    public var product: UInt16
    public var version: UInt16
    public var properties: InputProperties
    /// The codes the device can send, per event type; a type it cannot send has no entry.
    public private(set) var supportedCodes: [EventType: Set<EventCode>]
    /// The range of each absolute axis; every axis here is also among the supported `EV_ABS` codes.
    public private(set) var axes: [AbsoluteAxis: AxisInfo]

    public init(
        name: String, bus: UInt16 = 0, vendor: UInt16 = 0, product: UInt16 = 0, version: UInt16 = 0,
        properties: InputProperties = [], supportedCodes: [EventType: Set<EventCode>] = [:],
        axes: [AbsoluteAxis: AxisInfo] = [:]
    ) {
        self.name = name
        self.bus = bus
        self.vendor = vendor
        self.product = product
        self.version = version
        self.properties = properties
        // Empty sets are dropped so that two descriptions of one device compare equal.
        self.supportedCodes = supportedCodes.filter { !$0.value.isEmpty }
        self.axes = [:]
        for (axis, info) in axes { setAxis(axis, info) }
    }

    /// Marks `code` of `type` as one the device can send.
    public mutating func enable(_ code: EventCode, of type: EventType) {
        supportedCodes[type, default: []].insert(code)
    }

    /// Marks a typed code, such as `KeyCode.touch`, as one the device can send.
    public mutating func enable<Code: TypedEventCode>(_ code: Code) {
        enable(code.code, of: Code.eventType)
    }

    /// Sets the range of `axis`, enabling it as an `EV_ABS` code.
    public mutating func setAxis(_ axis: AbsoluteAxis, _ info: AxisInfo) {
        axes[axis] = info
        enable(axis)
    }

    public func supports(_ code: EventCode, of type: EventType) -> Bool {
        supportedCodes[type]?.contains(code) ?? false
    }

    public func supports<Code: TypedEventCode>(_ code: Code) -> Bool {
        supports(code.code, of: Code.eventType)
    }

    /// The event types the device can send, in code order.
    public var supportedTypes: [EventType] { supportedCodes.keys.sorted() }

    /// The axes that have a range, in code order.
    public var axisList: [AbsoluteAxis] { axes.keys.sorted() }

    /// Multitouch protocol B: slots, and a position per slot.
    public var isMultitouchB: Bool {
        axes[.multitouchSlot] != nil && axes[.multitouchPositionX] != nil && axes[.multitouchPositionY] != nil
    }

    /// Multitouch protocol A: a position per contact, contacts separated by `SYN_MT_REPORT`, no slots.
    public var isMultitouchA: Bool {
        axes[.multitouchSlot] == nil && axes[.multitouchPositionX] != nil && axes[.multitouchPositionY] != nil
    }

    /// Single touch: one position and a button that says whether it touches.
    public var isSingleTouch: Bool {
        axes[.x] != nil && axes[.y] != nil && supports(KeyCode.touch)
    }

    /// A touchscreen rather than a touchpad: touches land where they are shown (`INPUT_PROP_DIRECT`).
    public var isDirect: Bool { properties.contains(.direct) }
}
