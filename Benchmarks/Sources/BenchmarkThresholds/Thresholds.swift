import Benchmark

/// How far a run may stray from the committed static thresholds (`Benchmarks/Thresholds/`, the
/// p90 of a reference run) before `swift package benchmark thresholds check` fails.
///
/// Loose on time, because CI machines are shared and noisy: a frame may take up to 4x its
/// recorded p90 (a run beside a build on the 2-core machine saw 3.5x on a copy's p90 and 5x on
/// the plain C program's; the regressions worth catching are larger: a rotated copy back to
/// pixel by pixel is 10x, squares rasterised by cairo every frame of a transform 8x). Tight on allocations, which do not
/// depend on the machine: at most 2 more mallocs a measurement than recorded, a frame for most (a
/// drag frame's count inside cairo and pixman varies by a few between frames, see
/// docs/performance.md), 100 frames for the resting loop's (so tighter there).
public enum Thresholds {
    public static var perFrame: [BenchmarkMetric: BenchmarkThresholds] { [
        .wallClock: .init(relative: [.p90: 300.0]),
        .mallocCountTotal: .init(absolute: [.p90: 2]),
    ] }

    /// For the upright copies of a whole frame (row by row memcpy, DisplayCopy's upright ones)
    /// and RenderFrame's full frame with every picture cached (1.5 MB written): they measure the
    /// machine's memory, not our code. DisplayCopy copies frames the cache does
    /// not hold (as on the Pi), so machines differ by their memory's speed; a CI machine's shared
    /// memory varies more than its cores do. So up to 8x there; the turned copies, our own tiled
    /// code, keep `perFrame`; allocations stay as tight.
    public static var memoryBound: [BenchmarkMetric: BenchmarkThresholds] { [
        .wallClock: .init(relative: [.p90: 700.0]),
        .mallocCountTotal: .init(absolute: [.p90: 2]),
    ] }
}
