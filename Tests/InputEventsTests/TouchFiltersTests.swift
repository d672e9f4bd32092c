import InputEvents
import KioskCore
import KioskTestSupport
import Testing

/// The optional filters for noisy resistive panels, on the synthetic ADS7846 (0..4095 on 800x480).
@Suite("Touch filters")
struct TouchFiltersTests {
    func decode(_ events: [InputEvent], filters: TouchFilters) throws -> [String] {
        var decoder = try TouchDecoder(device: SyntheticTouchscreen.resistive, screen: Size(width: 800, height: 480), filters: filters)
        var out: [String] = []
        for e in events {
            if let f = decoder.feed(e) { out.append(f.touches.map { "\($0.phase) \(Int($0.location.x)),\(Int($0.location.y))" }.joined(separator: "; ")) }
            while let f = decoder.nextPendingFrame() { out.append(f.touches.map { "\($0.phase) \(Int($0.location.x))" }.joined()) }
        }
        return out
    }

    /// BTN_TOUCH, then reports at these raw positions and pressures, then the release.
    func press(_ samples: [(x: Int32, y: Int32, pressure: Int32)]) -> [InputEvent] {
        var t = Instant(seconds: 1)
        var events = [InputEvent(time: t, KeyCode.touch, 1)]
        for s in samples {
            events += [InputEvent(time: t, AbsoluteAxis.x, s.x), InputEvent(time: t, AbsoluteAxis.y, s.y),
                       InputEvent(time: t, AbsoluteAxis.pressure, s.pressure), .report(at: t)]
            t = t.adding(seconds: 0.01)
        }
        return events + [InputEvent(time: t, KeyCode.touch, 0), .report(at: t)]
    }

    @Test func offByDefaultEveryWobbleIsAMove() throws {
        let frames = try decode(press([(2048, 2048, 200), (2051, 2046, 200), (2049, 2050, 200)]), filters: .none)
        #expect(frames.count == 4)
        #expect(frames[1].hasPrefix("moved"))
    }

    @Test func theJitterFilterHoldsARestingFingerStillButLetsARealMoveThrough() throws {
        let samples: [(x: Int32, y: Int32, pressure: Int32)] = [(2048, 2048, 200), (2051, 2046, 200), (2049, 2050, 200), (2200, 2048, 200)]
        let frames = try decode(press(samples), filters: TouchFilters(jitterUnits: 8))
        // The two wobbles change nothing (no frame); the real move does, from where it was held.
        #expect(frames == ["began 400,240", "moved 429,240", "ended 429,240"])
    }

    @Test func aPressureThresholdIgnoresALightBrush() throws {
        let light = try decode(press([(1000, 1000, 10), (1010, 1000, 12)]), filters: TouchFilters(minimumPressure: 50))
        #expect(light.isEmpty, "never pressed hard enough: no touch at all")
        let firm = try decode(press([(1000, 1000, 10), (1000, 1000, 80), (1000, 1000, 90)]), filters: TouchFilters(minimumPressure: 50))
        #expect(firm.first == "began 195,117", "the touch begins when the pressure is reached")
        #expect(firm.last == "ended 195,117")
    }
}
