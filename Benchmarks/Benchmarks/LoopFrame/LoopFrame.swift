import Benchmark
import Display
import Foundation
import Geometry
import Gestures
import KioskConfig
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
        maxIterations: 5_000
    )

    // The harness's own cost, measured the same way: what it counts here is not the loop's.
    Benchmark("baseline: empty measurement") { benchmark in
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations { blackHole(i) }
        benchmark.stopMeasurement()
    }

    // One loop, made and warmed once (setup), then measured frame by frame: the steady state,
    // not the first frames after setting up.
    Benchmark("loop frame: one finger dragging a square (process + tick)", closure: { (benchmark: Benchmark, d: Drag) in
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { d.step() }
        benchmark.stopMeasurement()
        blackHole(d.loop.output?.flipCount)
    }, setup: { () throws -> Drag in try Drag() })

    // The same frame with nothing moving: the loop's cost when a finger rests.
    Benchmark("loop frame: a finger resting (nothing to draw)", closure: { (benchmark: Benchmark, d: Drag) in
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { d.rest() }
        benchmark.stopMeasurement()
        blackHole(d.loop.output?.flipCount)
    }, setup: { () throws -> Drag in
        let d = try Drag()
        // The finger comes to rest: the frames after that are the steady state.
        for _ in 0..<60 { d.rest() }
        return d
    })
}

/// The default scene in a loop with a headless display, a finger already down on yellow.
final class Drag {
    final class Clock: @unchecked Sendable { var now = Instant(seconds: 100) }
    let clock = Clock()
    let loop: KioskLoop
    /// A back-and-forth path, built before measuring so the frames themselves cost nothing.
    private var moves: [TouchFrame] = []
    private var resting: TouchFrame
    private var next = 0

    init() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let configuration = try KioskConfiguration.load(path: root.appendingPathComponent("config/kiosk.toml").path)
        let clock = self.clock
        let output = try HeadlessOutput(width: 800, height: 480, format: .xrgb8888, now: { clock.now })
        loop = try KioskLoop(replaying: configuration, output: output, traceDecisions: false, recordsEvents: false, clock: { clock.now })
        let id = TouchID(1)
        for i in 0..<240 {
            let t = Double(i < 120 ? i : 240 - i)
            moves.append(TouchFrame(time: .zero, touches: [Touch(id: id, phase: .moved, location: Point(x: 160 + t, y: 190 + t / 2))]))
        }
        resting = TouchFrame(time: .zero, touches: [Touch(id: id, phase: .stationary, location: Point(x: 160, y: 190))])
        loop.tick(at: clock.now)
        deliver(TouchFrame(time: .zero, touches: [Touch(id: id, phase: .began, location: Point(x: 160, y: 190))]))
        for _ in 0..<60 { step() }
    }

    private func deliver(_ frame: TouchFrame) {
        var f = frame
        clock.now = clock.now.adding(seconds: 1.0 / 60)
        f.time = clock.now
        loop.process(f, touchesDown: 1)
        loop.tick(at: clock.now)
    }

    func step() {
        deliver(moves[next])
        next = (next + 1) % moves.count
    }

    func rest() { deliver(resting) }
}
