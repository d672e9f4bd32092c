// swift-tools-version:6.1
import PackageDescription
import class Foundation.NSString

// A path dependency is known by its folder's name, which is whatever the clone was called.
let kiosk = ((Context.packageDirectory as NSString).deletingLastPathComponent as NSString).lastPathComponent.lowercased()

// Benchmarks live in their own package so the kiosk itself does not depend on the benchmark
// harness. Run from this folder: `swift package benchmark`.

// Every target here sees every C wrapper's module map, through the products that carry them.
// The targets share one Clang module cache, and the wrappers reach the same system headers
// (the kernel's uapi headers, libc headers outside Glibc's module map): whichever wrapper's
// module includes such a header first owns it, and a target that cannot see that wrapper then
// fails with "missing required module 'CCairo'" (or 'CLinuxInput', 'CTOML'), depending on build
// order and on which targets a run builds.
let wrappers: [Target.Dependency] = [
    .product(name: "Render", package: kiosk),        // CCairo
    .product(name: "Display", package: kiosk),       // CDRM
    .product(name: "TouchInput", package: kiosk),    // CEvdev, CLinuxSystem
    .product(name: "MultitouchA", package: kiosk),   // CMtdev
    .product(name: "InputEvents", package: kiosk),   // CLinuxInput
    .product(name: "KioskConfig", package: kiosk),   // TOMLKit's CTOML
    "CairoReference",
]
let package = Package(
    name: "kiosk-benchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.0", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "TouchDecoding",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                "BenchmarkThresholds",
                .product(name: "Gestures", package: kiosk),
                // SyntheticTouchscreen: test tooling, outside the kiosk's own modules.
                .product(name: "KioskTestSupport", package: kiosk),
            ] + wrappers,
            path: "Benchmarks/TouchDecoding",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // The yardstick for the renderer: the same frame drawn by plain C calling cairo.
        .target(
            name: "CairoReference",
            cSettings: [.unsafeFlags(["-I/usr/include/cairo", "-I/usr/include/freetype2"])],
            linkerSettings: [.linkedLibrary("cairo"), .linkedLibrary("freetype"), .linkedLibrary("m")]
        ),
        .executableTarget(
            name: "RenderFrame",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                "BenchmarkThresholds",
                .product(name: "KioskTestSupport", package: kiosk),
                .product(name: "Runtime", package: kiosk),
                .product(name: "Scene", package: kiosk),
                .product(name: "Gestures", package: kiosk),
            ] + wrappers,
            path: "Benchmarks/RenderFrame",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "LoopFrame",
            dependencies: [
                "LoopFixture",
                .product(name: "Benchmark", package: "benchmark"),
                "BenchmarkThresholds",
                .product(name: "Runtime", package: kiosk),
                .product(name: "Gestures", package: kiosk),
            ] + wrappers,
            path: "Benchmarks/LoopFrame",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // The kiosk loop in steady state, a finger on a square: shared by LoopFrame and FrameAllocations.
        .target(
            name: "LoopFixture",
            dependencies: [
                .product(name: "Runtime", package: kiosk),
                .product(name: "KioskTestSupport", package: kiosk),
                .product(name: "Gestures", package: kiosk),
            ] + wrappers
        ),
        // Steady-state loop frames outside the harness, for a heap profiler: frame-allocations.sh.
        .executableTarget(
            name: "FrameAllocations",
            dependencies: ["LoopFixture"] + wrappers,
            path: "Sources/FrameAllocations"
        ),
        // The copy to the panel, upright and turned (issue 14: a turned copy within 2x an upright one).
        .executableTarget(
            name: "DisplayCopy",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                "BenchmarkThresholds",
            ] + wrappers,  // Display among them
            path: "Benchmarks/DisplayCopy",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Every target's tolerances against the committed static thresholds (Thresholds/).
        .target(
            name: "BenchmarkThresholds",
            dependencies: [.product(name: "Benchmark", package: "benchmark")] + wrappers
        ),
        .executableTarget(
            name: "GestureFrame",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                "BenchmarkThresholds",
                .product(name: "KioskTestSupport", package: kiosk),
                .product(name: "Gestures", package: kiosk),
                .product(name: "Scene", package: kiosk),
            ] + wrappers,
            path: "Benchmarks/GestureFrame",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
