import Gestures
import InputEvents
import KioskCore
import KioskTestSupport
import MultitouchA
import TouchInput

/// The traces the real-kernel tests play into a uinput FT5406 panel.
enum Traces {
    /// A pinch, a tap whose press and release share one report (lvgl#5211), and a drag.
    static let pinchTapDrag: EvemuTrace = {
        let panel = Fingers(panel: SyntheticTouchscreen.ft5406, clock: VirtualClock(Instant(seconds: 1)))
        panel.up(pinchOpen(panel), after: 0)
        panel.wait(0.1)
        panel.tapInOneReport(at: Point(x: 130, y: 424))
        panel.wait(0.1)
        let drag = panel.down(Point(x: 160, y: 190))
        for step in 1...8 { panel.move([drag[0]: Point(x: 160 + Double(step) * 6, y: 190 + Double(step) * 5)]) }
        panel.up(drag)
        return panel.trace
    }()

    /// Two fingers put down on cyan and spread apart over ten reports, a frame apart; still down a
    /// frame after the last. Returns the two.
    static func pinchOpen(_ panel: Fingers) -> [Int] {
        let f = panel.down(Point(x: 370, y: 190), Point(x: 430, y: 190))
        for step in 1...10 {
            panel.move([f[0]: Point(x: 370 - Double(step) * 4, y: 190 + Double(step)),
                        f[1]: Point(x: 430 + Double(step) * 4, y: 190 - Double(step))])
        }
        panel.wait(1.0 / 60)
        return f
    }

    /// The frames the trace decoder gives for `trace`, as `kiosk touches` prints them, without times;
    /// a protocol A trace goes through the protocol A converter first.
    static func decodedFrames(_ trace: EvemuTrace) throws -> [String] {
        try decode(trace).frames
    }

    /// The frames, and the decoder for its counters.
    static func decode(_ trace: EvemuTrace) throws -> (frames: [String], decoder: TouchDecoder) {
        let trace = try trace.convertedToProtocolB()
        var decoder = try TouchDecoder(device: trace.device, screen: Size(width: 800, height: 480))
        var out: [String] = []
        for event in trace.events {
            if let f = decoder.feed(event) { out.append(TouchFrameText.touches(f)) }
            while let f = decoder.nextPendingFrame() { out.append(TouchFrameText.touches(f)) }
        }
        return (out, decoder)
    }

    /// The events without their times, which a replay through the kernel cannot keep.
    static func rawEvents(_ trace: EvemuTrace) -> [String] {
        trace.events.map { "\($0.type.rawValue) \($0.code.rawValue) \($0.value)" }
    }
}
