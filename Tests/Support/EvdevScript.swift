import InputEvents
import KioskCore

/// Hand-written evdev reports, 10 ms apart: the kernel's side of a decoder or converter test, for
/// the events a well-behaved driver never writes (SYN_DROPPED, malformed or cut reports, protocol A
/// contacts by hand). The lowest layer of the tests' touch vocabulary: fingers are `Fingers`
/// (frames, or a `SyntheticTouchscreen`'s events); this writes what no finger can produce.
///
/// Protocol B: `slot`, `trackingID`, `position`, `touch`. Protocol A: each `contact` is one finger's
/// values closed by `SYN_MT_REPORT`. Single touch: `press`, `touchButton`. `report()` closes a report.
public struct EvdevScript {
    public private(set) var events: [InputEvent] = []
    /// The tests' one virtual clock: each report closes at its time, then moves it on 10 ms.
    public let clock: VirtualClock
    public var now: Instant { clock.now }

    public init(clock: VirtualClock = VirtualClock(Instant(seconds: 5))) { self.clock = clock }

    public mutating func slot(_ slot: Int32) { abs(.multitouchSlot, slot) }
    public mutating func trackingID(_ id: Int32) { abs(.multitouchTrackingID, id) }
    public mutating func lift() { trackingID(-1) }
    public mutating func position(_ x: Int32, _ y: Int32) {
        abs(.multitouchPositionX, x)
        abs(.multitouchPositionY, y)
    }
    /// A finger with tracking id `id` put down at (`x`, `y`) on the current slot.
    public mutating func touch(_ id: Int32, at x: Int32, _ y: Int32) {
        trackingID(id)
        position(x, y)
    }
    /// A finger put down at (`x`, `y`) on `slot` and lifted before the report closes.
    public mutating func tap(_ id: Int32, slot: Int32, at x: Int32, _ y: Int32) {
        self.slot(slot)
        touch(id, at: x, y)
        lift()
    }
    /// A single-touch press at (`x`, `y`): ABS_X, ABS_Y, then BTN_TOUCH 1.
    public mutating func press(_ x: Int32, _ y: Int32) {
        abs(.x, x)
        abs(.y, y)
        touchButton(true)
    }

    /// One protocol A contact at `x`, `y` (device units), with the device's own tracking id when it has them.
    public mutating func contact(_ x: Int32, _ y: Int32, id: Int32? = nil) {
        if let id { add(AbsoluteAxis.multitouchTrackingID, id) }
        add(AbsoluteAxis.multitouchPositionX, x)
        add(AbsoluteAxis.multitouchPositionY, y)
        add(SynchronizationCode.multitouchReport, 0)
    }

    /// `SYN_MT_REPORT` with no values: no contact at all, as the kernel's documentation writes it.
    public mutating func emptyContact() { add(SynchronizationCode.multitouchReport, 0) }

    public mutating func touchButton(_ down: Bool) { add(KeyCode.touch, down ? 1 : 0) }
    public mutating func abs(_ axis: AbsoluteAxis, _ value: Int32) { add(axis, value) }
    public mutating func dropped() { add(SynchronizationCode.dropped, 0) }

    public mutating func add<Code: TypedEventCode>(_ code: Code, _ value: Int32) {
        events.append(InputEvent(time: now, code, value))
    }

    /// Closes the report and moves the clock on; `value` 1 is the kernel's own close after
    /// releasing a device (unplugged, reset, inhibited), 0 a driver's.
    public mutating func report(value: Int32 = 0) {
        events.append(InputEvent(time: now, SynchronizationCode.report, value))
        clock.advance(by: 0.010)
    }
}

extension EvdevScript {
    /// A script that starts with one finger (tracking id `id`, slot 0) down at (`x`, `y`), reported.
    public init(touch id: Int32, at x: Int32, _ y: Int32) {
        self.init()
        touch(id, at: x, y)
        report()
    }
}

/// The touches of a frame as "id phase x,y", easy to compare.
public func summary(_ frame: TouchFrame) -> [String] {
    frame.touches.map { "\($0.id.rawValue) \($0.phase) \($0.location.x),\($0.location.y)" }
}

/// An event as "NAME value", the way evemu's comments read.
public func named(_ event: InputEvent) -> String {
    "\(event.code.name(for: event.type) ?? "?") \(event.value)"
}
