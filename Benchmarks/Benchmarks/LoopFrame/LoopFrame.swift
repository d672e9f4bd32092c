import Benchmark
import BenchmarkThresholds
import Display
import Foundation
import Gestures
import KioskConfig
import KioskCore
import LoopFixture
import Render
import Runtime

/// One frame of the kiosk loop in steady state: a finger dragging the yellow square, through
/// every stage (recognizers, timers, animation, render with damage, copy to a dumb-buffer-sized
/// buffer, present, latency and stage histograms). It must allocate nothing of its own.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal],
        warmupIterations: 30,
        scalingFactor: .one,
        maxDuration: .seconds(3),
        maxIterations: 5_000,
        thresholds: Thresholds.perFrame
    )

    // The harness's own cost, measured the same way: what it counts here is not the loop's.
    Benchmark("baseline: empty measurement") { benchmark in
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations { blackHole(i) }
        benchmark.stopMeasurement()
    }

    // One loop, made and warmed once (setup), then measured frame by frame: the steady state,
    // not the first frames after setting up.
    Benchmark("loop frame: one finger dragging a square (process + tick)", closure: { (benchmark: Benchmark, d: SteadyDrag) in
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { d.step() }
        benchmark.stopMeasurement()
        blackHole(d.loop.output?.flipCount)
    }, setup: { () throws -> SteadyDrag in try SteadyDrag() })

    // The same frame with nothing moving: the loop's cost when a finger rests. A resting frame
    // takes about 3 µs, short enough for one preemption to be most of it, so one measurement is
    // 100 of them: CI once saw this p90 at 7 times its baseline, measured a frame at a time, on an
    // unchanged loop (docs/performance.md, "The loop").
    Benchmark("loop frame: a finger resting, 100 frames (nothing to draw)", closure: { (benchmark: Benchmark, d: SteadyDrag) in
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            for _ in 0..<100 { d.rest() }
        }
        benchmark.stopMeasurement()
        blackHole(d.loop.output?.flipCount)
    }, setup: { () throws -> SteadyDrag in
        let d = try SteadyDrag()
        // The finger comes to rest: the frames after that are the steady state.
        for _ in 0..<60 { d.rest() }
        return d
    })
}
