import Benchmark

/// How far a run may stray from the committed static thresholds (`Benchmarks/Thresholds/`, the
/// p90 of a reference run) before `swift package benchmark thresholds check` fails.
///
/// Loose on time, because CI machines are shared and noisy: a frame may take up to 2.5x its
/// recorded p90 (the regressions worth catching are of that size: a rotated copy back to pixel
/// by pixel is 10x, squares drawn afresh every frame 5x). Tight on allocations, which do not
/// depend on the machine: at most 2 more mallocs a frame than recorded (a drag frame's count
/// inside cairo and pixman varies by a few between frames, see README).
public enum Thresholds {
    public static var perFrame: [BenchmarkMetric: BenchmarkThresholds] { [
        .wallClock: .init(relative: [.p90: 150.0]),
        .mallocCountTotal: .init(absolute: [.p90: 2]),
    ] }
}
