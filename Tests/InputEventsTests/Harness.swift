import Foundation
import InputEvents
import KioskCore
import KioskTestSupport
import Testing

/// The real recordings in Fixtures/, as they were published.
enum Recording: String, CaseIterable {
    case ep0430m09 = "EP0430M09.2-finger-scroll-down.evemu"
    case egalax = "egalax-usb-0eef-0001.single-touch.evemu"

    func text() throws -> String {
        let url = try #require(Bundle.module.url(forResource: rawValue, withExtension: nil, subdirectory: "Fixtures"))
        return try String(contentsOf: url, encoding: .utf8)
    }

    func trace() throws -> EvemuTrace { try EvemuTrace.parse(text(), file: rawValue) }
}

let panel = Size(width: 800, height: 480)

/// Every frame a decoder makes of `events`, pending frames included unless `fetchPending` is
/// false, in delivery order.
func decode(_ events: [InputEvent], with decoder: inout TouchDecoder, fetchPending: Bool = true) -> [TouchFrame] {
    var frames: [TouchFrame] = []
    for event in events {
        if let frame = decoder.feed(event) { frames.append(frame) }
        while fetchPending, let frame = decoder.nextPendingFrame() { frames.append(frame) }
    }
    return frames
}

/// Decodes a whole trace onto `screen`; returns the frames and the decoder, for its counters.
func decode(
    _ trace: EvemuTrace, screen: Size = panel, positionAxes: (x: AbsoluteAxis, y: AbsoluteAxis)? = nil
) throws -> (frames: [TouchFrame], decoder: TouchDecoder) {
    var decoder = try TouchDecoder(device: trace.device, screen: screen, positionAxes: positionAxes)
    let frames = decode(trace.events, with: &decoder)
    return (frames, decoder)
}

/// Each touch's life across frames: its phases and locations, in order.
struct TouchPaths {
    private(set) var ids: [TouchID] = []
    private var touches: [TouchID: [Touch]] = [:]

    init(_ frames: [TouchFrame]) {
        for frame in frames {
            for touch in frame.touches {
                if touches[touch.id] == nil { ids.append(touch.id) }
                touches[touch.id, default: []].append(touch)
            }
        }
    }

    func phases(_ id: TouchID) -> [TouchPhase] { touches[id, default: []].map(\.phase) }
    func locations(_ id: TouchID) -> [Point] { touches[id, default: []].map(\.location) }

    /// True when the touch began first, ended last, and only moved or stood in between.
    func isComplete(_ id: TouchID) -> Bool {
        let phases = phases(id)
        guard phases.count >= 2, phases.first == .began, phases.last == .ended else { return false }
        return phases.dropFirst().dropLast().allSatisfy { $0 == .moved || $0 == .stationary }
    }
}

/// Hand-written evdev reports for one device, 10 ms apart: the kernel's side of a decoder test.
struct KernelScript {
    private(set) var events: [InputEvent] = []
    var now = Instant(seconds: 5)

    mutating func slot(_ slot: Int32) { abs(.multitouchSlot, slot) }
    mutating func trackingID(_ id: Int32) { abs(.multitouchTrackingID, id) }
    mutating func lift() { trackingID(-1) }
    mutating func position(_ x: Int32, _ y: Int32) {
        abs(.multitouchPositionX, x)
        abs(.multitouchPositionY, y)
    }
    /// A finger with tracking id `id` put down at (`x`, `y`) on the current slot.
    mutating func touch(_ id: Int32, at x: Int32, _ y: Int32) {
        trackingID(id)
        position(x, y)
    }
    /// A finger put down at (`x`, `y`) on `slot` and lifted before the report closes.
    mutating func tap(_ id: Int32, slot: Int32, at x: Int32, _ y: Int32) {
        self.slot(slot)
        touch(id, at: x, y)
        lift()
    }
    /// A single-touch press at (`x`, `y`): ABS_X, ABS_Y, then BTN_TOUCH 1.
    mutating func press(_ x: Int32, _ y: Int32) {
        abs(.x, x)
        abs(.y, y)
        touchButton(true)
    }
    mutating func touchButton(_ down: Bool) { events.append(InputEvent(time: now, KeyCode.touch, down ? 1 : 0)) }
    mutating func abs(_ axis: AbsoluteAxis, _ value: Int32) { events.append(InputEvent(time: now, axis, value)) }
    mutating func dropped() { events.append(InputEvent(time: now, SynchronizationCode.dropped, 0)) }

    /// Closes the report and moves the clock on; `value` 1 is the kernel's own close after
    /// releasing a device (unplugged, reset, inhibited), 0 a driver's.
    mutating func report(value: Int32 = 0) {
        events.append(InputEvent(time: now, SynchronizationCode.report, value))
        now = now.adding(seconds: 0.010)
    }
}

extension KernelScript {
    /// A script that starts with one finger (tracking id `id`, slot 0) down at (`x`, `y`), reported.
    init(touch id: Int32, at x: Int32, _ y: Int32) {
        self.init()
        touch(id, at: x, y)
        report()
    }
}

/// Runs `script` through a fresh decoder for `device` on the 800x480 panel.
func decodeScript(
    _ script: KernelScript, device: DeviceDescription = SyntheticTouchscreen.ft5406
) throws -> (frames: [TouchFrame], decoder: TouchDecoder) {
    var decoder = try TouchDecoder(device: device, screen: panel, positionAxes: nil)
    let frames = decode(script.events, with: &decoder)
    return (frames, decoder)
}

/// The touches of a frame as (phase, x, y), easy to compare.
func summary(_ frame: TouchFrame) -> [String] {
    frame.touches.map { "\($0.id.rawValue) \($0.phase) \($0.location.x),\($0.location.y)" }
}

/// An event as "NAME value", the way evemu's comments read.
func named(_ event: InputEvent) -> String {
    "\(event.code.name(for: event.type) ?? "?") \(event.value)"
}
