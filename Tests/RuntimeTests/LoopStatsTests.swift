import Gestures
import KioskConfig
import KioskCore
@testable import Runtime
import Testing

@Suite("Loop stats: stage budgets, overruns, latency")
struct LoopStatsTests {
    static let refresh60 = KioskLoop.budgets(LoopSettings(), refresh: 60)

    @Test func aRefreshIsSplitByTheStagesShares() {
        let b = Self.refresh60
        #expect(b.count == 6)
        // One refresh at 60 Hz is 16.67 ms; render has 55 % of it.
        #expect(b[LoopStats.index(of: .render)] == Int64(16_666_666.0 * 0.55))
        #expect(abs(b.reduce(0, +) - 16_666_666) < 10)
        var custom = LoopSettings()
        custom.frameBudgetMilliseconds = 10
        #expect(KioskLoop.budgets(custom, refresh: 60)[LoopStats.index(of: .input)] == 1_000_000)
    }

    @Test func aStageOverItsBudgetIsCountedPerStageAndInAll() {
        var s = LoopStats(budgets: Self.refresh60, start: .zero)
        let within = s.record(.render, nanoseconds: 9_000_000)
        s.record(.render, nanoseconds: 1_000_000)
        let over = s.record(.render, nanoseconds: 9_200_000)
        let inputOver = s.record(.input, nanoseconds: 5_000_000)
        #expect(!within && over && inputOver)
        #expect(s.overruns[LoopStats.index(of: .render)] == 1)
        #expect(s.overruns[LoopStats.index(of: .input)] == 1)
        let fields = s.report(at: Instant(seconds: 2), extra: [])
        #expect(fields.first { $0.0 == "overruns" }?.1 == "input:1,render:1")
        // p50/p99/max of the three render times (1, 9 and 9.2 ms), to the histogram's 3 digits.
        let render = (fields.first { $0.0 == "stage.render.ms" }?.1 ?? "").split(separator: "/").compactMap { Double($0) }
        #expect(render.count == 3, "\(fields)")
        if render.count == 3 {
            #expect(abs(render[0] - 9) < 0.01 && abs(render[1] - 9.2) < 0.01 && abs(render[2] - 9.2) < 0.01, "\(render)")
        }
        #expect(s.overruns.allSatisfy { $0 == 0 }, "a stats line starts the next interval afresh")
        #expect(s.totalOverruns[LoopStats.index(of: .render)] == 1, "the totals go on")
    }

    @Test func theReportGivesFramesPerSecondAndLatencyPercentiles() {
        var s = LoopStats(budgets: Self.refresh60, start: Instant(seconds: 10))
        s.frames = 120
        for ms in 1...100 { s.recordLatency(microseconds: Int64(ms) * 1000) }
        let fields = Dictionary(uniqueKeysWithValues: s.report(at: Instant(seconds: 12), extra: [("config.generation", "3")]))
        #expect(fields["frames"] == "120")
        #expect(fields["fps"] == "60.0")
        #expect(fields["latency.p50.ms"] == "50.02" || fields["latency.p50.ms"] == "50.00")
        #expect(fields["latency.p99.ms"]?.hasPrefix("99.") == true)
        #expect(fields["latency.max.ms"]?.hasPrefix("100.") == true)
        #expect(fields["config.generation"] == "3")
        #expect(fields["stage.render.ms"] == nil, "a stage that never ran is not reported")
        let next = Dictionary(uniqueKeysWithValues: s.report(at: Instant(seconds: 13), extra: []))
        #expect(next["latency"] == "none", "no inputs in the next interval: no latency to report")
        #expect(next["frames"] == "0")
    }
}

@Suite("Blanking: the panel sleeps after idle and the waking touch is swallowed")
struct BlankingPolicyTests {
    /// Built by hand, not by `Fingers`: `BlankingPolicy` reads only a frame's time, and the fingers
    /// down are given apart (as the loop counts them), so the frame is a bare time with no touches,
    /// which no report of fingers down makes.
    static func frame(_ t: Double) -> TouchFrame { TouchFrame(time: Instant(seconds: t)) }

    @Test func blanksOnceAfterTheIdleTime() {
        var p = BlankingPolicy(blankAfter: 30, now: Instant(seconds: 100))
        #expect(p.deadline == Instant(seconds: 130))
        let early = p.shouldBlank(at: Instant(seconds: 129.9))
        let due = p.shouldBlank(at: Instant(seconds: 130))
        #expect(!early && due && p.isBlanked)
        let again = p.shouldBlank(at: Instant(seconds: 200))
        #expect(!again, "already blank")
        #expect(p.deadline == nil)
    }

    /// Feeds frames (time, fingers down after it) and returns the verdicts.
    static func admit(_ p: inout BlankingPolicy, _ frames: [(Double, Int)]) -> [BlankingPolicy.Verdict] {
        frames.map { p.admit(frame($0.0), touchesDown: $0.1) }
    }

    @Test func aTouchPutsTheDeadlineBack() {
        var p = BlankingPolicy(blankAfter: 30, now: .zero)
        #expect(Self.admit(&p, [(20, 1)]) == [.deliver])
        #expect(p.deadline == Instant(seconds: 50))
    }

    @Test func theWakingTouchIsSwallowedUntilItsFingersLift() {
        var p = BlankingPolicy(blankAfter: 5, now: .zero)
        let blanked = p.shouldBlank(at: Instant(seconds: 6))
        #expect(blanked)
        // Down, a second finger, both up (all the waking touch), then the user's next touch.
        #expect(Self.admit(&p, [(7, 1), (7.1, 2), (7.2, 0), (8, 1)]) == [.wake, .swallow, .swallow, .deliver])
    }

    @Test func aTapThatWakesInOneReportIsSwallowedWhole() {
        var p = BlankingPolicy(blankAfter: 5, now: .zero)
        _ = p.shouldBlank(at: Instant(seconds: 6))
        #expect(Self.admit(&p, [(7, 0), (7.5, 1)]) == [.wake, .deliver])
    }

    @Test func zeroMeansNever() {
        var p = BlankingPolicy(blankAfter: 0, now: .zero)
        #expect(p.deadline == nil)
        let blanked = p.shouldBlank(at: Instant(seconds: 1e6))
        #expect(!blanked)
    }
}
