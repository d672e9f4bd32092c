import InputEvents
import KioskCore
import KioskTestSupport
import Testing
import TouchInput

/// The whole-touch filters where `kiosk run` and `kiosk touches` decode: held touches begin at
/// their deadline, which the loop wakes for, and a device that goes away cancels only what began.
@Suite("Filters on the live decoder")
struct LiveTouchFilterTests {
    func lines(_ decoder: TouchscreenDecoder, _ events: [InputEvent], until: Instant? = nil) -> [String] {
        var out: [String] = []
        let show = { (f: TouchFrame) in out.append(fixedDecimal(f.time.seconds, 3) + " " + TouchFrameText.touches(f)) }
        for event in events {
            if let due = decoder.nextDeadline, due <= event.time { decoder.advance(to: event.time, show) }
            decoder.feed(event, show)
        }
        if let until { decoder.advance(to: until, show) }
        return out
    }

    @Test func aHeldTouchBeginsAtTheDeadlineTheWatcherWakesFor() throws {
        let decoder = try TouchscreenDecoder(device: SyntheticTouchscreen.ft5406, screen: Size(width: 800, height: 480),
                                             filters: TouchFilters(minimumTouchDuration: 0.05))
        let panel = Fingers(panel: SyntheticTouchscreen.ft5406, clock: VirtualClock(Instant(seconds: 1)))
        panel.down(Point(x: 100, y: 200))
        #expect(lines(decoder, panel.events).isEmpty)
        #expect(decoder.nextDeadline == Instant(seconds: 1.05))
        var out: [String] = []
        decoder.advance(to: Instant(seconds: 1.04)) { out.append(TouchFrameText.touches($0)) }
        #expect(out.isEmpty)
        decoder.advance(to: Instant(seconds: 1.2)) { out.append(fixedDecimal($0.time.seconds, 3) + " " + TouchFrameText.touches($0)) }
        #expect(out == ["1.050 1 began 100.0 200.0"])
        #expect(decoder.nextDeadline == nil)
    }

    @Test func aDeviceGoneCancelsWhatBeganAndDropsWhatWasHeld() throws {
        let decoder = try TouchscreenDecoder(device: SyntheticTouchscreen.ft5406, screen: Size(width: 800, height: 480),
                                             filters: TouchFilters(minimumTouchDuration: 0.05))
        let panel = Fingers(panel: SyntheticTouchscreen.ft5406, clock: VirtualClock(Instant(seconds: 1)))
        let first = panel.down(Point(x: 100, y: 200))[0]
        // A second finger, still held when the device goes, down as the first moves.
        panel.report(down: [Point(x: 500, y: 200)], [first: .move(Point(x: 110, y: 200))], after: 0.1)
        #expect(lines(decoder, panel.events) == ["1.050 1 began 100.0 200.0", "1.100 1 moved 110.0 200.0"])
        let gone = try #require(decoder.cancelAll(at: Instant(seconds: 1.11)))
        #expect(TouchFrameText.touches(gone) == "1 cancelled 110.0 200.0")
        #expect(decoder.filterCounters.short == 1)
    }
}
