import Benchmark
import Geometry
import Gestures
import InputEvents
import MultitouchA
import TouchInput

/// The input hot path after the read: decoding one report of ten moving fingers on the FT5406
/// (protocol B), calibrating and turning them, and building the TouchFrame; and the same on a
/// protocol A panel, through libmtdev first. Each both through the bare decoder and through
/// `TouchscreenDecoder`, the class `kiosk run`'s watcher feeds every event it reads. Target: no
/// allocation.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal],
        warmupIterations: 200,
        scalingFactor: .one,
        maxDuration: .seconds(3),
        maxIterations: 100_000
    )

    Benchmark("baseline: empty measurement") { benchmark in
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations { blackHole(i) }
        benchmark.stopMeasurement()
    }

    Benchmark("one report, ten fingers moving: decode, calibrate, frame") { benchmark in
        let reports = TenFingerReports()
        let calibration = try TouchCalibration(matrix: [1.02, 0, -0.01, 0, 0.98, 0.01]).rotated(clockwise: 180)
        var decoder = try TouchDecoder(device: SyntheticTouchscreen.ft5406, screen: Size(width: 800, height: 480),
                                       calibration: calibration)
        for event in reports.down { _ = decoder.feed(event) }
        var next = 0
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            // One report's events, as a read delivers them.
            for event in reports.moves[next] {
                if let frame = decoder.feed(event) { blackHole(frame.touches.count) }
            }
            next = (next + 1) % reports.moves.count
        }
        benchmark.stopMeasurement()
    }

    Benchmark("live decoder (TouchscreenDecoder), ten fingers moving on the FT5406: decode, calibrate, frame") { benchmark in
        let reports = TenFingerReports()
        let calibration = try TouchCalibration(matrix: [1.02, 0, -0.01, 0, 0.98, 0.01]).rotated(clockwise: 180)
        let decoder = try TouchscreenDecoder(device: SyntheticTouchscreen.ft5406, screen: Size(width: 800, height: 480),
                                             calibration: calibration)
        for event in reports.down { decoder.feed(event) { _ in } }
        var next = 0
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            for event in reports.moves[next] {
                decoder.feed(event) { frame in blackHole(frame.touches.count) }
            }
            next = (next + 1) % reports.moves.count
        }
        benchmark.stopMeasurement()
    }

    Benchmark("live decoder (TouchscreenDecoder), ten fingers moving on a protocol A panel: mtdev, decode, frame") { benchmark in
        let reports = TenFingerReports(device: SyntheticTouchscreen.protocolA)
        let decoder = try TouchscreenDecoder(device: SyntheticTouchscreen.protocolA, screen: Size(width: 800, height: 480))
        for event in reports.down { decoder.feed(event) { _ in } }
        var next = 0
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            for event in reports.moves[next] {
                decoder.feed(event) { frame in blackHole(frame.touches.count) }
            }
            next = (next + 1) % reports.moves.count
        }
        benchmark.stopMeasurement()
    }

    Benchmark("one report, ten fingers moving on a protocol A panel: convert through mtdev, decode, frame") { benchmark in
        let reports = TenFingerReports(device: SyntheticTouchscreen.protocolA)
        let converter = try ProtocolAConverter(device: SyntheticTouchscreen.protocolA)
        var decoder = try TouchDecoder(device: converter.protocolB, screen: Size(width: 800, height: 480))
        for event in reports.down { converter.convert(event) { _ = decoder.feed($0) } }
        var next = 0
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            for event in reports.moves[next] {
                converter.convert(event) { converted in
                    if let frame = decoder.feed(converted) { blackHole(frame.touches.count) }
                }
            }
            next = (next + 1) % reports.moves.count
        }
        benchmark.stopMeasurement()
    }
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
