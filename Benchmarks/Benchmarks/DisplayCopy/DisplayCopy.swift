import Benchmark
import BenchmarkThresholds
import Display
import KioskCore

/// Copying a whole 800x480 shadow buffer to the panel, as mounted: upright, and turned.
/// Target: a copy turned 90° or 270° costs at most 2x an upright one (issue 14).
///
/// Each iteration copies a different pair of frames out of 64 MB of them, so every copy starts
/// with neither frame in the cache, as on the Pi (a 1.5 MB frame does not fit the Cortex-A72's
/// 1 MB L2, and the dumb buffer is written through, never read). A benchmark that copied one
/// pair over and over measured this machine's cache: 43 µs here, where a CI machine whose cache
/// did not hold the frame took 186 µs, and its turned copies failed a 4x tolerance (4.1x, 4.3x).
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
                var next = 0
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations {
                    f.panels[next].copy(from: f.shadows[next], damage: all, rotation: rotation)
                    next = next + 1 == f.shadows.count ? 0 : next + 1
                }
                benchmark.stopMeasurement()
            }, setup: { () throws -> CopyFixture in try CopyFixture(format: format, rotation: rotation) })
        }
    }
}

/// Shadow buffers with something in them, and as many panel-sized targets turned as the copy
/// turns them: 64 MB in all, more than any cache a CI machine or a Pi has.
final class CopyFixture {
    static let workingSetBytes = 64 << 20
    let shadows: [PixelBuffer]
    let panels: [HeadlessDisplay]

    init(format: PixelFormat, rotation: DisplayRotation) throws {
        let pairs = Self.workingSetBytes / (2 * 800 * 480 * format.bytesPerPixel)
        let size = rotation.panelSize(width: 800, height: 480)
        var shadows: [PixelBuffer] = []
        var panels: [HeadlessDisplay] = []
        for _ in 0..<pairs {
            let shadow = try PixelBuffer(width: 800, height: 480, format: format)
            for i in 0..<(shadow.stride * shadow.height) { shadow.bytes.storeBytes(of: UInt8(truncatingIfNeeded: i &* 31), toByteOffset: i, as: UInt8.self) }
            let panel = try HeadlessDisplay(width: size.width, height: size.height, format: format)
            // Written once, so no page of it is first touched while measured.
            panel.copy(from: shadow, damage: [Rect(x: 0, y: 0, width: 800, height: 480)], rotation: rotation)
            shadows.append(shadow)
            panels.append(panel)
        }
        self.shadows = shadows
        self.panels = panels
    }
}
