import InputEvents
import KioskCore
import KioskTestSupport
import MultitouchA

/// Hand-written protocol A reports, 10 ms apart: the kernel's side of a converter test.
///
/// Each `contact` is one finger's values closed by `SYN_MT_REPORT`; `report()` closes the report.
struct ProtocolAScript {
    private(set) var events: [InputEvent] = []
    var now = Instant(seconds: 5)

    /// One contact at `x`, `y` (device units), with the device's own tracking id when it has them.
    mutating func contact(_ x: Int32, _ y: Int32, id: Int32? = nil) {
        if let id { add(AbsoluteAxis.multitouchTrackingID, id) }
        add(AbsoluteAxis.multitouchPositionX, x)
        add(AbsoluteAxis.multitouchPositionY, y)
        add(SynchronizationCode.multitouchReport, 0)
    }

    /// `SYN_MT_REPORT` with no values: no contact at all, as the kernel's documentation writes it.
    mutating func emptyContact() { add(SynchronizationCode.multitouchReport, 0) }

    mutating func touchButton(_ down: Bool) { add(KeyCode.touch, down ? 1 : 0) }

    mutating func add<Code: TypedEventCode>(_ code: Code, _ value: Int32) {
        events.append(InputEvent(time: now, code, value))
    }

    /// Closes the report and moves the clock on.
    mutating func report() {
        events.append(.report(at: now))
        now = now.adding(seconds: 0.010)
    }
}

/// The 800x480 panel: 0...799 x 0...479 on it is one unit, one pixel.
let panel = Size(width: 800, height: 480)

/// Every frame the converter and the decoder make of `events`, pending frames included.
func decode(
    _ events: [InputEvent], device: DeviceDescription = SyntheticTouchscreen.protocolA, slots: Int = ProtocolAConverter.defaultSlotCount
) throws -> (frames: [TouchFrame], decoder: TouchDecoder) {
    let converter = try ProtocolAConverter(device: device, slots: slots)
    var decoder = try TouchDecoder(device: converter.protocolB, screen: panel)
    var frames: [TouchFrame] = []
    for event in events {
        converter.convert(event) { converted in
            if let frame = decoder.feed(converted) { frames.append(frame) }
            while let frame = decoder.nextPendingFrame() { frames.append(frame) }
        }
    }
    return (frames, decoder)
}

/// Every frame the decoder makes of a protocol B trace.
func decodeProtocolB(_ trace: EvemuTrace) throws -> [TouchFrame] {
    var decoder = try TouchDecoder(device: trace.device, screen: panel)
    var frames: [TouchFrame] = []
    for event in trace.events {
        if let frame = decoder.feed(event) { frames.append(frame) }
        while let frame = decoder.nextPendingFrame() { frames.append(frame) }
    }
    return frames
}

/// The touches of a frame as "id phase x,y", easy to compare.
func summary(_ frame: TouchFrame) -> [String] {
    frame.touches.map { "\($0.id.rawValue) \($0.phase) \($0.location.x),\($0.location.y)" }
}

/// An event as "NAME value", the way evemu's comments read.
func named(_ event: InputEvent) -> String {
    "\(event.code.name(for: event.type) ?? "?") \(event.value)"
}
