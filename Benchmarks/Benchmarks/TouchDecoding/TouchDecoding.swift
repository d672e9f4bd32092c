import Benchmark
import BenchmarkThresholds
import Gestures
import InputEvents
import KioskCore
import KioskTestSupport
import MultitouchA
import TouchInput

/// The input hot path after the read, through `TouchscreenDecoder`, the class `kiosk run`'s
/// watcher feeds every event it reads: decoding one report of ten moving fingers on the FT5406
/// (protocol B), calibrating and turning them, and building the TouchFrame; and the same on a
/// protocol A panel, through libmtdev first. Target: no allocation.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal],
        warmupIterations: 200,
        scalingFactor: .one,
        maxDuration: .seconds(3),
        maxIterations: 100_000,
        thresholds: Thresholds.perFrame
    )

    Benchmark("baseline: empty measurement") { benchmark in
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations { blackHole(i) }
        benchmark.stopMeasurement()
    }

    // The decoder the live watcher feeds, made once (setup) and fed report after report: the
    // steady state, not the first report after setting up.
    Benchmark("live decoder (TouchscreenDecoder), ten fingers moving on the FT5406: decode, calibrate, frame",
              closure: { (benchmark: Benchmark, live: LiveDecoding) in
                  benchmark.startMeasurement()
                  for _ in benchmark.scaledIterations { live.step() }
                  benchmark.stopMeasurement()
              }, setup: { () throws -> LiveDecoding in
                  try LiveDecoding(device: SyntheticTouchscreen.ft5406,
                                   calibration: try TouchCalibration(matrix: [1.02, 0, -0.01, 0, 0.98, 0.01]).rotated(clockwise: 180))
              })

    Benchmark("live decoder (TouchscreenDecoder), ten fingers moving on a protocol A panel: mtdev, decode, frame",
              closure: { (benchmark: Benchmark, live: LiveDecoding) in
                  benchmark.startMeasurement()
                  for _ in benchmark.scaledIterations { live.step() }
                  benchmark.stopMeasurement()
              }, setup: { () throws -> LiveDecoding in try LiveDecoding(device: SyntheticTouchscreen.protocolA) })

}

/// Ten fingers coming down, then 120 reports of all ten moving, each report's events apart.
struct TenFingerReports {
    var down: [InputEvent] = []
    var moves: [[InputEvent]] = []

    init(device: DeviceDescription = SyntheticTouchscreen.ft5406) {
        var panel = SyntheticTouchscreen(device: device)
        for f in 0..<10 { panel.down(f, at: Point(x: 60 + Double(f) * 70, y: 240)) }
        panel.sync()
        down = panel.trace.events
        for step in 1...120 {
            let before = panel.trace.events.count
            panel.wait(1.0 / 60)
            for f in 0..<10 { panel.move(f, to: Point(x: 60 + Double(f) * 70 + Double(step % 30), y: 240 + Double(step % 40))) }
            panel.sync()
            moves.append(Array(panel.trace.events[before...]))
        }
    }
}

/// `TouchscreenDecoder` with ten fingers down, fed one report of moves per step, round and round.
final class LiveDecoding {
    private let reports: TenFingerReports
    private let decoder: TouchscreenDecoder
    private var next = 0

    init(device: DeviceDescription, calibration: TouchCalibration = .identity) throws {
        reports = TenFingerReports(device: device)
        decoder = try TouchscreenDecoder(device: device, screen: Size(width: 800, height: 480), calibration: calibration)
        for event in reports.down { decoder.feed(event) { _ in } }
    }

    func step() {
        for event in reports.moves[next] {
            decoder.feed(event) { frame in blackHole(frame.touches.count) }
        }
        next = (next + 1) % reports.moves.count
    }
}
