import InputEvents
import KioskCore

/// Writes realistic traces of fingers on a touchscreen, the events a kernel driver would send.
///
/// Fingers are logical numbers; each takes the lowest free slot. Between `sync()` calls the changes
/// collect; `sync()` writes them as the input core would: only values that changed, `ABS_MT_SLOT`
/// only when switching slots, `BTN_TOUCH` on the first touch and the last lift, `ABS_X/ABS_Y`
/// following the oldest contact, then `SYN_REPORT`. A finger pressed and lifted between two syncs
/// gives both in one report, as some drivers do.
///
/// On a protocol A device (no slots) a report that changed anything lists every contact, each as
/// `ABS_MT_POSITION_X/Y` closed by `SYN_MT_REPORT`, in the order of the slots they would have.
/// When the last finger lifts, `protocolARelease` says how the driver tells it.
public struct SyntheticTouchscreen: Sendable {
    /// How a protocol A driver says that the last finger lifted.
    public enum ProtocolARelease: Hashable, Sendable {
        /// An empty contact (`SYN_MT_REPORT` alone) and `BTN_TOUCH 0`: the kernel's documented form.
        case emptyContact
        /// Only `BTN_TOUCH 0`, no `SYN_MT_REPORT` at all, which the kernel's documentation allows
        /// for devices with `BTN_TOUCH`; the release lvgl#9829 missed on GT9xx panels.
        case touchButtonOnly
    }

    /// What kind of device the events are for.
    enum DeviceKind {
        case multitouchB, multitouchA, singleTouch
    }

    /// The kernel's state of one slot, and the changes not yet written.
    struct Slot {
        var trackingID: Int32 = -1
        var x: Int32
        var y: Int32
        var finger: Int?
        var targetX: Int32
        var targetY: Int32
        var beginPending = false
        var endPending = false
        /// When the contact began, counted in contacts: pointer emulation follows the oldest.
        var age = 0
    }

    public let device: DeviceDescription
    public let screen: Size
    /// The time the next events get.
    public var now: Instant
    public private(set) var events: [InputEvent] = []
    /// How the last lift is written on a protocol A device.
    public var protocolARelease = ProtocolARelease.emptyContact

    private let kind: DeviceKind
    private let xAxis: AbsoluteAxis
    private let yAxis: AbsoluteAxis
    private let xMapping: AxisMapping
    private let yMapping: AxisMapping
    private var slots: [Slot]
    private var fingerSlots: [Int: Int] = [:]
    /// The slot the kernel last announced with `ABS_MT_SLOT`; evdev starts at 0.
    private var announcedSlot = 0
    private var nextTrackingID: Int32 = 0
    private var contactsBegun = 0
    /// The kernel's values of the axes outside the slots (`ABS_X`, `ABS_Y`, `ABS_PRESSURE`).
    private var axisValues: [AbsoluteAxis: Int32]
    private var touchButton = false
    private var reportHasEvents = false

    /// Contacts a protocol A device reports at most here: more than the ten slots kiosk converts
    /// them to, so that tests can overflow those.
    public static let protocolAContacts = 16

    /// A screen of `device` (protocol B, protocol A or single touch) showing `screen`, with the clock at `start`.
    public init(
        device: DeviceDescription = SyntheticTouchscreen.ft5406, screen: Size = Size(width: 800, height: 480),
        start: Instant = Instant(seconds: 1)
    ) {
        if device.isMultitouchB {
            kind = .multitouchB
        } else if device.isMultitouchA {
            kind = .multitouchA
        } else {
            precondition(device.isSingleTouch, "device '\(device.name)' is not a touchscreen")
            kind = .singleTouch
        }
        self.device = device
        self.screen = screen
        now = start
        (xAxis, yAxis) = kind == .singleTouch ? (.x, .y) : (.multitouchPositionX, .multitouchPositionY)
        let xInfo = device.axes[xAxis]!, yInfo = device.axes[yAxis]!
        xMapping = AxisMapping(xInfo, length: screen.width)
        yMapping = AxisMapping(yInfo, length: screen.height)
        let slotCount = switch kind {
        case .multitouchB: Int(device.axes[.multitouchSlot]!.maximum) + 1
        case .multitouchA: Self.protocolAContacts
        case .singleTouch: 1
        }
        let x = xInfo.clamped(xInfo.value), y = yInfo.clamped(yInfo.value)
        slots = Array(repeating: Slot(x: x, y: y, targetX: x, targetY: y), count: slotCount)
        axisValues = device.axes.mapValues(\.value)
    }

    /// The trace so far, with the device's header.
    public var trace: EvemuTrace { EvemuTrace(device: device, events: events) }

    /// Puts `finger` down at `point`, in the lowest free slot.
    public mutating func down(_ finger: Int, at point: Point) {
        precondition(fingerSlots[finger] == nil, "finger \(finger) is already down")
        guard let slot = slots.firstIndex(where: { $0.finger == nil }) else {
            preconditionFailure("all \(slots.count) slots of '\(device.name)' are taken")
        }
        // The slot's previous contact lifted in this report: its lift goes out before the new press.
        // (A protocol A report lists the contacts there are: the lifted one is simply not in it.)
        if slots[slot].endPending, kind != .multitouchA { flush(slot) }
        fingerSlots[finger] = slot
        contactsBegun += 1
        slots[slot].finger = finger
        slots[slot].beginPending = true
        slots[slot].age = contactsBegun
        aim(slot, at: point)
    }

    /// Moves `finger`, which is down, to `point`.
    public mutating func move(_ finger: Int, to point: Point) {
        guard let slot = fingerSlots[finger] else { preconditionFailure("finger \(finger) is not down") }
        aim(slot, at: point)
    }

    /// Lifts `finger`, which is down.
    public mutating func up(_ finger: Int) {
        guard let slot = fingerSlots.removeValue(forKey: finger) else { preconditionFailure("finger \(finger) is not down") }
        // Pressed in this same report: the press goes out before the lift, or the tap would vanish.
        precondition(!slots[slot].beginPending || kind != .multitouchA,
                     "a protocol A report lists the contacts there are: finger \(finger) cannot come and go in one")
        if slots[slot].beginPending { flush(slot) }
        slots[slot].finger = nil
        slots[slot].endPending = true
    }

    /// Writes the changes since the last sync and closes the report with `SYN_REPORT`; nothing if none changed.
    public mutating func sync() {
        if kind == .multitouchA { writeContacts() }
        for slot in slots.indices { flush(slot) }
        if kind != .singleTouch { emulatePointer() }
        if reportHasEvents { events.append(.report(at: now)) }
        reportHasEvents = false
    }

    /// Moves the clock on by `seconds`.
    public mutating func wait(_ seconds: Double) { now = now.adding(seconds: seconds) }

    /// Writes what the kernel sends when the device is unplugged (`input_disconnect_device`): the
    /// keys that are down released, then `SYN_REPORT` with value 1; the slots stay as they were.
    /// Nothing is written when no key is down. The fingers are gone afterwards.
    public mutating func unplug() {
        releaseKeys(slots: false)
    }

    /// Writes what the kernel sends when the device is inhibited (`input_inhibit_device`): every
    /// slot's contact released, pressure 0, the keys released, then `SYN_REPORT` with value 1.
    public mutating func inhibit() {
        releaseKeys(slots: true)
    }

    private mutating func releaseKeys(slots releasingSlots: Bool) {
        var wrote = false
        if releasingSlots, kind == .multitouchB {
            for slot in slots.indices where slots[slot].trackingID >= 0 {
                slotValue(slot, .multitouchTrackingID, -1)
                slots[slot].trackingID = -1
                wrote = true
            }
        }
        if releasingSlots, let pressure = axisValues[.pressure], pressure != 0 {
            axis(.pressure, 0)
            wrote = true
        }
        if touchButton {
            key(.touch, down: false)
            wrote = true
        }
        if wrote || releasingSlots { events.append(InputEvent(time: now, SynchronizationCode.report, 1)) }
        reportHasEvents = false
        fingerSlots.removeAll()
        for slot in slots.indices {
            slots[slot].finger = nil
            slots[slot].trackingID = -1
            slots[slot].beginPending = false
            slots[slot].endPending = false
        }
    }

    // MARK: Kernel side

    private mutating func aim(_ slot: Int, at point: Point) {
        slots[slot].targetX = xMapping.device(point.x)
        slots[slot].targetY = yMapping.device(point.y)
    }

    /// Writes one slot's pending changes in the driver's order.
    private mutating func flush(_ slot: Int) {
        switch kind {
        case .multitouchB: flushMultitouch(slot)
        case .multitouchA: break  // written whole by `writeContacts`
        case .singleTouch: flushSingleTouch()
        }
        slots[slot].beginPending = false
        slots[slot].endPending = false
    }

    /// Protocol A: when anything changed, every contact down, each closed by `SYN_MT_REPORT`.
    private mutating func writeContacts() {
        let changed = slots.contains {
            $0.beginPending || $0.endPending || ($0.finger != nil && ($0.targetX != $0.x || $0.targetY != $0.y))
        }
        guard changed else { return }
        var contacts = 0
        for slot in slots.indices {
            guard slots[slot].finger != nil else {
                slots[slot].trackingID = -1
                continue
            }
            if slots[slot].beginPending { slots[slot].trackingID = takeTrackingID() }
            slots[slot].x = slots[slot].targetX
            slots[slot].y = slots[slot].targetY
            // Devices with ids of their own send them; mtdev assigns ids to those without.
            if device.axes[.multitouchTrackingID] != nil {
                emit(InputEvent(time: now, AbsoluteAxis.multitouchTrackingID, slots[slot].trackingID))
            }
            emit(InputEvent(time: now, xAxis, slots[slot].x))
            emit(InputEvent(time: now, yAxis, slots[slot].y))
            emit(InputEvent(time: now, SynchronizationCode.multitouchReport, 0))
            contacts += 1
        }
        if contacts == 0, protocolARelease == .emptyContact {
            emit(InputEvent(time: now, SynchronizationCode.multitouchReport, 0))
        }
    }

    private mutating func flushMultitouch(_ slot: Int) {
        if slots[slot].beginPending {
            slots[slot].trackingID = takeTrackingID()
            slotValue(slot, .multitouchTrackingID, slots[slot].trackingID)
        }
        if slots[slot].finger != nil {
            if slots[slot].targetX != slots[slot].x {
                slots[slot].x = slots[slot].targetX
                slotValue(slot, xAxis, slots[slot].x)
            }
            if slots[slot].targetY != slots[slot].y {
                slots[slot].y = slots[slot].targetY
                slotValue(slot, yAxis, slots[slot].y)
            }
        }
        if slots[slot].endPending {
            slots[slot].trackingID = -1
            slotValue(slot, .multitouchTrackingID, -1)
        }
    }

    /// The next contact's tracking id, wrapping at the axis's maximum as the kernel's counter does.
    private mutating func takeTrackingID() -> Int32 {
        let id = nextTrackingID
        let maximum = device.axes[.multitouchTrackingID]?.maximum ?? Int32.max
        nextTrackingID = nextTrackingID >= maximum ? 0 : nextTrackingID + 1
        return id
    }

    /// A per-slot value, announced with `ABS_MT_SLOT` first when the slot is not the current one.
    private mutating func slotValue(_ slot: Int, _ axis: AbsoluteAxis, _ value: Int32) {
        if slot != announcedSlot {
            emit(InputEvent(time: now, AbsoluteAxis.multitouchSlot, Int32(slot)))
            announcedSlot = slot
        }
        emit(InputEvent(time: now, axis, value))
    }

    /// ADS7846's order: position, pressure, then BTN_TOUCH on the first sample; pressure 0 and BTN_TOUCH 0 on release.
    private mutating func flushSingleTouch() {
        if slots[0].endPending {
            axis(.pressure, 0)
            key(.touch, down: false)
        }
        if slots[0].finger != nil {
            axis(xAxis, slots[0].targetX)
            axis(yAxis, slots[0].targetY)
            if let pressure = device.axes[.pressure] { axis(.pressure, pressure.maximum / 2) }
            key(.touch, down: true)
        }
    }

    /// `BTN_TOUCH` and `ABS_X/ABS_Y` from the slots, as `input_mt_report_pointer_emulation` does.
    private mutating func emulatePointer() {
        let active = slots.filter { $0.trackingID >= 0 }
        key(.touch, down: !active.isEmpty)
        if let oldest = active.min(by: { $0.age < $1.age }) {
            axis(.x, oldest.x)
            axis(.y, oldest.y)
        }
    }

    /// An axis outside the slots, written only when the device has it and its value changes.
    private mutating func axis(_ axis: AbsoluteAxis, _ value: Int32) {
        guard let current = axisValues[axis], current != value else { return }
        axisValues[axis] = value
        emit(InputEvent(time: now, axis, value))
    }

    private mutating func key(_ key: KeyCode, down: Bool) {
        guard device.supports(key), touchButton != down else { return }
        touchButton = down
        emit(InputEvent(time: now, key, down ? 1 : 0))
    }

    private mutating func emit(_ event: InputEvent) {
        events.append(event)
        reportHasEvents = true
    }
}
