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

/// Runs `script` through a fresh decoder for `device` on the 800x480 panel.
func decodeScript(
    _ script: EvdevScript, device: DeviceDescription = SyntheticTouchscreen.ft5406
) throws -> (frames: [TouchFrame], decoder: TouchDecoder) {
    var decoder = try TouchDecoder(device: device, screen: panel, positionAxes: nil)
    let frames = decode(script.events, with: &decoder)
    return (frames, decoder)
}
