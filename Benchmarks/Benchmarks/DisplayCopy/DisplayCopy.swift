import Benchmark
import BenchmarkThresholds
import Display
import KioskCore

/// Copying a whole 800x480 shadow buffer to the panel, as mounted: upright, and turned.
/// Target: a copy turned 90° or 270° costs at most 2x an upright one (issue 14).
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal],
        warmupIterations: 20,
        scalingFactor: .one,
        maxDuration: .seconds(2),
        maxIterations: 3_000,
        thresholds: Thresholds.perFrame
    )
    // An upright copy is row by row memcpy: it measures the machine's memory (Thresholds.memoryBound).
    // A turned one is our tiled code, held to the tighter tolerance of every frame.
    var uprightConfiguration = Benchmark.defaultConfiguration
    uprightConfiguration.thresholds = Thresholds.memoryBound
    for format in [PixelFormat.xrgb8888, .rgb565] {
        for rotation in DisplayRotation.allCases {
            Benchmark("copy a full frame \(rotation == .upright ? "upright" : "turned \(rotation.degrees)°"), \(format)",
                      configuration: rotation == .upright ? uprightConfiguration : Benchmark.defaultConfiguration,
                      closure: { (benchmark: Benchmark, f: CopyFixture) in
                let all = [Rect(x: 0, y: 0, width: 800, height: 480)]
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations { f.panel.copy(from: f.shadow, damage: all, rotation: rotation) }
                benchmark.stopMeasurement()
            }, setup: { () throws -> CopyFixture in try CopyFixture(format: format, rotation: rotation) })
        }
    }
}

/// A shadow buffer with something in it, and a panel-sized target turned as the copy turns it.
final class CopyFixture {
    let shadow: PixelBuffer
    let panel: HeadlessDisplay

    init(format: PixelFormat, rotation: DisplayRotation) throws {
        shadow = try PixelBuffer(width: 800, height: 480, format: format)
        for i in 0..<(shadow.stride * shadow.height) { shadow.bytes.storeBytes(of: UInt8(truncatingIfNeeded: i &* 31), toByteOffset: i, as: UInt8.self) }
        let size = rotation.panelSize(width: 800, height: 480)
        panel = try HeadlessDisplay(width: size.width, height: size.height, format: format)
    }
}
