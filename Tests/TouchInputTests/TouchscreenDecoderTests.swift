import InputEvents
import KioskCore
import KioskTestSupport
import Testing
import TouchInput

/// The live decoder: a device's own events in, frames out, whatever protocol the device speaks.
@Suite("Decoding any touchscreen")
struct TouchscreenDecoderTests {
    /// Frames as "id phase x,y" lists, from feeding `events` one by one.
    func frames(_ decoder: TouchscreenDecoder, _ events: [InputEvent]) -> [[String]] {
        var out: [[String]] = []
        for event in events {
            decoder.feed(event) { frame in
                out.append(frame.touches.map { "\($0.id.rawValue) \($0.phase) \($0.location.x),\($0.location.y)" })
            }
        }
        return out
    }

    /// Two fingers down, one drags and lifts, then the other lifts.
    func touch(_ panel: Fingers) {
        let f = panel.down(Point(x: 100, y: 200), Point(x: 600, y: 300))
        panel.move([f[0]: Point(x: 120, y: 210)], after: 0.016)
        panel.up([f[0]], after: 0.016)
        panel.up([f[1]], after: 0.016)
    }

    @Test func aProtocolAPanelsRawEventsDecodeLikeAnFT5406s() throws {
        let a = Fingers(panel: SyntheticTouchscreen.protocolA, clock: VirtualClock(Instant(seconds: 1)), protocolARelease: .touchButtonOnly)
        touch(a)
        let decoder = try TouchscreenDecoder(device: a.device, screen: Size(width: 800, height: 480))
        #expect(decoder.converter != nil)
        #expect(decoder.decoder.mode == .multitouch(slots: 10))
        let expected = [
            ["1 began 100.0,200.0", "2 began 600.0,300.0"],
            ["1 moved 120.0,210.0", "2 stationary 600.0,300.0"],
            ["1 ended 120.0,210.0", "2 stationary 600.0,300.0"],
            ["2 ended 600.0,300.0"],
        ]
        #expect(frames(decoder, a.events) == expected)
        #expect(decoder.decoder.activeTouchCount == 0)

        let b = Fingers(panel: SyntheticTouchscreen.ft5406, clock: VirtualClock(Instant(seconds: 1)))
        touch(b)
        let straight = try TouchscreenDecoder(device: b.device, screen: Size(width: 800, height: 480))
        #expect(straight.converter == nil)
        #expect(frames(straight, b.events) == expected)
    }

    @Test func aDeviceThatGoesAwayMidTouchCancelsIt() throws {
        let a = Fingers(panel: SyntheticTouchscreen.protocolA, clock: VirtualClock(Instant(seconds: 1)))
        a.down(Point(x: 300, y: 100))
        let decoder = try TouchscreenDecoder(device: a.device, screen: Size(width: 800, height: 480), firstTouchID: 7)
        #expect(frames(decoder, a.events) == [["7 began 300.0,100.0"]])
        let cancelled = decoder.cancelAll(at: Instant(seconds: 2))
        #expect(cancelled?.touches.map(\.phase) == [.cancelled])
        #expect(cancelled?.touches.map(\.id) == [TouchID(7)])
        #expect(decoder.cancelAll(at: Instant(seconds: 3)) == nil)
    }
}
