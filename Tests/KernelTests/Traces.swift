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
        var panel = SyntheticTouchscreen(device: SyntheticTouchscreen.ft5406)
        pinchOpen(&panel)
        panel.up(0)
        panel.up(1)
        panel.sync()
        panel.wait(0.1)
        panel.down(2, at: Point(x: 130, y: 424))
        panel.up(2)
        panel.sync()
        panel.wait(0.1)
        panel.down(3, at: Point(x: 160, y: 190))
        panel.sync()
        for step in 1...8 {
            panel.wait(1.0 / 60)
            panel.move(3, to: Point(x: 160 + Double(step) * 6, y: 190 + Double(step) * 5))
            panel.sync()
        }
        panel.wait(1.0 / 60)
        panel.up(3)
        panel.sync()
        return panel.trace
    }()

    /// Fingers 0 and 1 put down on cyan and spread apart over ten reports, still down.
    static func pinchOpen(_ panel: inout SyntheticTouchscreen) {
        panel.down(0, at: Point(x: 370, y: 190))
        panel.down(1, at: Point(x: 430, y: 190))
        panel.sync()
        for step in 1...10 {
            panel.wait(1.0 / 60)
            panel.move(0, to: Point(x: 370 - Double(step) * 4, y: 190 + Double(step)))
            panel.move(1, to: Point(x: 430 + Double(step) * 4, y: 190 - Double(step)))
            panel.sync()
        }
        panel.wait(1.0 / 60)
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
