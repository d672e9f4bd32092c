import KioskConfig
import KioskCore
import KioskLog
#if canImport(Glibc)
import Glibc
#endif

/// Times the loop's stages against their shares of the frame budget: each run is recorded in
/// `stats`, and an overrun is logged, at most once a second per stage. `kiosk run
/// --inject-stall STAGE:MS` makes one stage that much longer, inside its own measurement.
final class StageMeter {
    typealias Stage = LoopSettings.Stage

    var stats: LoopStats
    var log: Logger
    let clock: any InstantClock
    let injectedStall: (stage: Stage, milliseconds: Double)?
    private var lastOverrunLog: [Instant?] = Array(repeating: nil, count: LoopStats.stages.count)

    init(stats: LoopStats, log: Logger, clock: any InstantClock, injectedStall: (stage: Stage, milliseconds: Double)?) {
        self.stats = stats
        self.log = log
        self.clock = clock
        self.injectedStall = injectedStall
    }

    /// The moment a stage starts.
    func start() -> Instant { clock.now }

    /// `stage` ran from `start` until now.
    func end(_ stage: Stage, since start: Instant) {
        stall(stage)
        record(stage, nanoseconds: nanoseconds(since: start))
    }

    func nanoseconds(since start: Instant) -> Int64 { (clock.now.microseconds - start.microseconds) * 1000 }

    func record(_ stage: Stage, nanoseconds: Int64) {
        guard stats.record(stage, nanoseconds: nanoseconds) else { return }
        let i = LoopStats.index(of: stage)
        // At most one line a second per stage: a Pi that overruns every frame must not build
        // a line every frame. The count goes on (in the next line and in the stats line).
        let now = clock.now
        if let last = lastOverrunLog[i], now.seconds(since: last) < 1 { return }
        lastOverrunLog[i] = now
        log.warning("\(stage.rawValue) stage overran its budget", metadata: [
            "stage": "\(stage.rawValue)",
            "stage.took.ms": "\(fixedDecimal(Double(nanoseconds) / 1e6, 2))",
            "stage.budget.ms": "\(fixedDecimal(Double(stats.budgets[i]) / 1e6, 2))",
            "stage.overruns": "\(stats.totalOverruns[i])",
        ])
    }

    func stall(_ stage: Stage) {
        guard let stall = injectedStall, stall.stage == stage else { return }
        Self.pause(milliseconds: stall.milliseconds)
    }

    static func pause(milliseconds: Double) {
        var t = timespec(tv_sec: Int(milliseconds / 1000), tv_nsec: Int(milliseconds.truncatingRemainder(dividingBy: 1000) * 1e6))
        var left = timespec()
        // Interrupted, it sleeps what is left.
        _ = systemCall {
            let result = nanosleep(&t, &left)
            t = left
            return result
        }
    }
}
