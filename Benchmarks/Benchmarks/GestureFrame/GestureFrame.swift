import Benchmark
import BenchmarkThresholds
import Foundation
import Gestures
import KioskConfig
import KioskCore
import KioskTestSupport
import Scene

/// One touch frame with ten fingers moving through the full default scene: the engine's
/// delivery, every recognizer that sees a finger, arbitration, the scene's actions and the
/// controls. Targets: no heap allocation per steady-state frame, under 10 µs.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .instructions],
        warmupIterations: 100,
        scalingFactor: .one,
        maxDuration: .seconds(3),
        maxIterations: 100_000,
        thresholds: Thresholds.perFrame
    )

    // The harness's own cost, measured the same way: what it counts here is not the engine's.
    Benchmark("baseline: empty measurement") { benchmark in
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations { blackHole(i) }
        benchmark.stopMeasurement()
    }

    // One scene with its fingers under way, made once (setup) and stepped by every sample: the
    // steady state, not the first frame after setting up.
    Benchmark("ten fingers moving, default scene", closure: { (benchmark: Benchmark, fingers: TenFingers) in
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            fingers.step()
        }
        benchmark.stopMeasurement()
        blackHole(fingers.scene.views[1].square?.center)
    }, setup: { () throws -> TenFingers in try TenFingers() })
}

/// Ten fingers already under way: two on each square (pan, pinch and rotation running), one on
/// the canvas (panning all squares), one on the slider's knob, one on the switch's knob, one
/// on the button. Each step moves them all a little, back and forth, so nothing drifts.
final class TenFingers {
    let scene: KioskScene
    private var frames: [TouchFrame]
    private var next = 0
    private var time = Instant(seconds: 1)

    init() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let config = try KioskConfiguration.load(path: root.appendingPathComponent("config/kiosk.toml").path)
        scene = try KioskScene(config.scene, recordsEvents: false)
        let starts = [
            Point(x: 130, y: 190), Point(x: 190, y: 190),  // yellow
            Point(x: 370, y: 190), Point(x: 430, y: 190),  // cyan
            Point(x: 610, y: 190), Point(x: 670, y: 190),  // magenta
            Point(x: 400, y: 330),                         // canvas
            Point(x: 410, y: 424),                         // slider knob
            Point(x: 648, y: 424),                         // switch knob
            Point(x: 130, y: 424),                         // button
        ]
        // Down, then a slow spread so every continuous gesture begins; then two alternating frames.
        let recorded = Fingers.frames(startingAt: time) { fingers in
            let down = fingers.report(down: starts)
            func moved(_ k: Double) -> [Int: Point] {
                var moves: [Int: Point] = [:]
                for (i, finger) in down.enumerated() { moves[finger] = starts[i] + Point(x: (i % 2 == 0 ? -1 : 1) * k, y: k / 2) }
                return moves
            }
            for step in 1...30 { fingers.move(moved(Double(step) * 0.5), after: 1.0 / 60) }
            fingers.move(moved(16), after: 0)
            fingers.move(moved(15), after: 0)
        }
        for frame in recorded.dropLast(2) { scene.handle(frame) }
        time = recorded[recorded.count - 1].time
        frames = Array(recorded.suffix(2))
    }

    /// One frame, 1/60 s after the last.
    @inline(__always)
    func step() {
        time.microseconds += 16_667
        frames[next].time = time
        scene.handle(frames[next])
        next ^= 1
    }
}
