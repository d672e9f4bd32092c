import Gestures
import Histogram
import KioskConfig
import KioskCore

/// What the loop measured: stage times against their budgets, end-to-end latency, and counts,
/// reported as one stats line per interval and then started afresh.
///
/// All storage is made up front: recording a frame allocates nothing.
public struct LoopStats {
    public typealias Stage = LoopSettings.Stage
    public static let stages = Stage.allCases

    /// Each stage's budget in nanoseconds, in `stages` order.
    public private(set) var budgets: [Int64]
    /// Per stage, times over budget since the last stats line, and in all.
    public private(set) var overruns: [Int]
    public private(set) var totalOverruns: [Int]
    /// Per stage, microseconds each time it ran.
    public private(set) var stageTimes: [Histogram<UInt64>]
    /// Microseconds from an input event's kernel timestamp to the flip that showed its effect.
    public private(set) var latency: Histogram<UInt64>
    public var frames = 0
    public var touchFrames = 0
    /// Touches that began (fingers put down) since the last stats line.
    public var touchesBegan = 0
    /// Inputs beyond the per-frame latency storage: not measured, but never silently.
    public var unmeasuredInputs = 0
    public var totalFrames = 0
    /// When the current interval began.
    public var intervalStart: Instant
    /// The last interval's frame rate and latency, as its stats line said them; nil before the first.
    public private(set) var lastInterval: IntervalFigures?

    /// An interval's frame rate, and its input-to-flip latency's 99th percentile (nil: none measured).
    public struct IntervalFigures: Sendable, Equatable {
        public var framesPerSecond: Double
        public var latencyP99Milliseconds: Double?
    }

    public init(budgets: [Int64], start: Instant) {
        precondition(budgets.count == Self.stages.count)
        self.budgets = budgets
        overruns = Array(repeating: 0, count: budgets.count)
        totalOverruns = overruns
        stageTimes = (0..<budgets.count).map { _ in Self.emptyHistogram() }
        latency = Self.emptyHistogram()
        intervalStart = start
    }

    /// Up to 10 s in microseconds, three significant digits: 15,360 counts, 120 KiB.
    static func emptyHistogram() -> Histogram<UInt64> {
        Histogram<UInt64>(lowestDiscernibleValue: 1, highestTrackableValue: 10_000_000, numberOfSignificantValueDigits: .three)
    }

    /// The budgets for a frame of `frameNanoseconds` split by `settings`' shares.
    public static func budgets(frameNanoseconds: Int64, settings: LoopSettings) -> [Int64] {
        stages.map { Int64(Double(frameNanoseconds) * (settings.stageShares[$0] ?? 0)) }
    }

    public mutating func setBudgets(_ b: [Int64]) { budgets = b }

    /// Records one run of `stage`; true when it overran its budget.
    @discardableResult
    public mutating func record(_ stage: Stage, nanoseconds: Int64) -> Bool {
        let i = Self.index(of: stage)
        _ = stageTimes[i].record(UInt64(max(1, nanoseconds / 1000)))
        guard nanoseconds > budgets[i] else { return false }
        overruns[i] += 1
        totalOverruns[i] += 1
        return true
    }

    public mutating func recordLatency(microseconds: Int64) {
        // Beyond the histogram's 10 s (a display that was down) it counts as 10 s, not as nothing.
        _ = latency.record(UInt64(min(max(1, microseconds), 10_000_000)))
    }

    @inline(__always)
    public static func index(of stage: Stage) -> Int {
        switch stage {
        case .input: 0
        case .timers: 1
        case .recognizers: 2
        case .animation: 3
        case .render: 4
        case .present: 5
        }
    }

    /// The current interval's frame rate and latency, as if it ended at `now`.
    public func intervalFigures(at now: Instant) -> IntervalFigures {
        let seconds = max(now.seconds(since: intervalStart), 1e-9)
        return IntervalFigures(framesPerSecond: Double(frames) / seconds,
                               latencyP99Milliseconds: latency.totalCount > 0 ? Double(latency.valueAtPercentile(99)) / 1000 : nil)
    }

    /// The stats line's fields as dotted metadata, for the interval ending at `now`; the
    /// interval's counts and histograms then start afresh.
    public mutating func report(at now: Instant, extra: [(String, String)]) -> [(String, String)] {
        let seconds = max(now.seconds(since: intervalStart), 1e-9)
        var fields: [(String, String)] = [
            ("frames", String(frames)),
            ("fps", fixedDecimal(Double(frames) / seconds, 1)),
            ("touch.frames", String(touchFrames)),
            ("touches", String(touchesBegan)),
        ]
        let over = Self.stages.indices.filter { overruns[$0] > 0 }
            .map { "\(Self.stages[$0].rawValue):\(overruns[$0])" }
        fields.append(("overruns", over.isEmpty ? "0" : over.joined(separator: ",")))
        if latency.totalCount > 0 {
            fields.append(("latency.p50.ms", Self.milliseconds(latency.valueAtPercentile(50))))
            fields.append(("latency.p99.ms", Self.milliseconds(latency.valueAtPercentile(99))))
            fields.append(("latency.max.ms", Self.milliseconds(latency.maxRecorded)))
        } else {
            fields.append(("latency", "none"))
        }
        if unmeasuredInputs > 0 { fields.append(("latency.unmeasured", String(unmeasuredInputs))) }
        // Per stage, p50/p99/max in one field, to keep the serial line short.
        for (i, stage) in Self.stages.enumerated() where stageTimes[i].totalCount > 0 {
            let h = stageTimes[i]
            fields.append(("stage.\(stage.rawValue).ms", Self.milliseconds(h.valueAtPercentile(50)) + "/"
                + Self.milliseconds(h.valueAtPercentile(99)) + "/" + Self.milliseconds(h.maxRecorded)))
        }
        fields += extra
        lastInterval = intervalFigures(at: now)
        frames = 0
        touchFrames = 0
        touchesBegan = 0
        unmeasuredInputs = 0
        // A histogram that recorded something is replaced, not reset: the package's reset() zeroes
        // its 15,360 counts one by one, which in a debug build costs milliseconds a stats line,
        // most of what an idle kiosk spends (the VM test measures it). So the allocations are
        // here, once an interval, never on the frame path.
        for i in overruns.indices {
            overruns[i] = 0
            if stageTimes[i].totalCount > 0 { stageTimes[i] = Self.emptyHistogram() }
        }
        if latency.totalCount > 0 { latency = Self.emptyHistogram() }
        intervalStart = now
        return fields
    }

    static func milliseconds(_ microseconds: UInt64) -> String {
        fixedDecimal(Double(microseconds) / 1000, 2)
    }
}
