import Display
import KioskCore

/// Input-to-flip latency of a replay on a paced display (`kiosk replay --refresh HZ`).
public struct LatencyReport: Sendable, Equatable, CustomStringConvertible {
    public var refreshHz: Int
    /// Inputs whose effect reached the screen (inputs that changed nothing are not counted).
    public var inputs: Int
    /// Inputs beyond the loop's per-frame latency storage.
    public var unmeasured: Int
    public var p50Milliseconds: Double
    public var p99Milliseconds: Double
    public var maxMilliseconds: Double

    /// One refresh, in milliseconds.
    public var refreshMilliseconds: Double { 1000 / Double(refreshHz) }

    public var description: String {
        let ms = { (v: Double) in "\(fixedDecimal(v, 2)) ms" }
        var line = "input to flip at \(refreshHz) Hz (one refresh \(ms(refreshMilliseconds))): \(inputs) inputs, "
            + "p50 \(ms(p50Milliseconds)), p99 \(ms(p99Milliseconds)), max \(ms(maxMilliseconds))"
        if unmeasured > 0 { line += ", \(unmeasured) not measured" }
        return line
    }
}

extension Replay {
    /// The latency of every input shown, on a paced display; nil when the replay was not paced.
    public var latency: LatencyReport? {
        guard let paced = loop.pipeline.paced, paced.nextVBlank(after: .zero) != nil else { return nil }
        let h = loop.stats.latency
        return LatencyReport(
            refreshHz: paced.refreshHz, inputs: Int(h.totalCount), unmeasured: loop.stats.unmeasuredInputs,
            p50Milliseconds: h.totalCount > 0 ? Double(h.valueAtPercentile(50)) / 1000 : 0,
            p99Milliseconds: h.totalCount > 0 ? Double(h.valueAtPercentile(99)) / 1000 : 0,
            maxMilliseconds: Double(h.maxRecorded) / 1000
        )
    }

    /// On a paced display, the loop's wake-ups and the flips that complete up to `time` (all of
    /// them when nil), each at its own moment, as the live loop wakes for its timer and for the
    /// card's flip events. A flip due at the very moment of an input is taken first, as the live
    /// loop handles display events before it reads input.
    mutating func runPacedWakes(through time: Instant?, _ clock: VirtualClock) {
        guard let paced = loop.pipeline.paced, paced.nextVBlank(after: clock.now) != nil else { return }
        var steps = 0
        while steps < 1_000_000 {
            var wake = loop.nextWake()
            if let flip = paced.flipCompletion, wake.map({ flip < $0 }) ?? true { wake = flip }
            guard let wake, time.map({ wake <= $0 }) ?? true else { return }
            clock.now = max(clock.now, wake)
            loop.handleDisplayEvents(at: clock.now)
            loop.tick(at: clock.now)
            endTime = max(endTime, clock.now)
            steps += 1
        }
    }
}
