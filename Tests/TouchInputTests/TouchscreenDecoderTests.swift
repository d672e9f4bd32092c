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
    func touch(_ panel: inout SyntheticTouchscreen) {
        panel.down(0, at: Point(x: 100, y: 200))
        panel.down(1, at: Point(x: 600, y: 300))
        panel.sync()
        panel.wait(0.016)
        panel.move(0, to: Point(x: 120, y: 210))
        panel.sync()
        panel.wait(0.016)
        panel.up(0)
        panel.sync()
        panel.wait(0.016)
        panel.up(1)
        panel.sync()
    }

    @Test func aProtocolAPanelsRawEventsDecodeLikeAnFT5406s() throws {
        var a = SyntheticTouchscreen(device: SyntheticTouchscreen.protocolA)
        a.protocolARelease = .touchButtonOnly
        touch(&a)
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

        var b = SyntheticTouchscreen(device: SyntheticTouchscreen.ft5406)
        touch(&b)
        let straight = try TouchscreenDecoder(device: b.device, screen: Size(width: 800, height: 480))
        #expect(straight.converter == nil)
        #expect(frames(straight, b.events) == expected)
    }

    @Test func aDeviceThatGoesAwayMidTouchCancelsIt() throws {
        var a = SyntheticTouchscreen(device: SyntheticTouchscreen.protocolA)
        a.down(0, at: Point(x: 300, y: 100))
        a.sync()
        let decoder = try TouchscreenDecoder(device: a.device, screen: Size(width: 800, height: 480), firstTouchID: 7)
        #expect(frames(decoder, a.events) == [["7 began 300.0,100.0"]])
        let cancelled = decoder.cancelAll(at: Instant(seconds: 2))
        #expect(cancelled?.touches.map(\.phase) == [.cancelled])
        #expect(cancelled?.touches.map(\.id) == [TouchID(7)])
        #expect(decoder.cancelAll(at: Instant(seconds: 3)) == nil)
    }
}
