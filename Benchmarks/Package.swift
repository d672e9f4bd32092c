// swift-tools-version:6.1
import PackageDescription
import class Foundation.NSString

// A path dependency is known by its folder's name, which is whatever the clone was called.
let kiosk = ((Context.packageDirectory as NSString).deletingLastPathComponent as NSString).lastPathComponent.lowercased()

// Benchmarks live in their own package so the kiosk itself does not depend on the benchmark
// harness. Run from this folder: `swift package benchmark`.
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
                .product(name: "InputEvents", package: kiosk),
                .product(name: "MultitouchA", package: kiosk),
                .product(name: "TouchInput", package: kiosk),
                .product(name: "Gestures", package: kiosk),
            ],
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
                "CairoReference",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Render", package: kiosk),
                .product(name: "Display", package: kiosk),
                .product(name: "Scene", package: kiosk),
                .product(name: "Gestures", package: kiosk),
                .product(name: "KioskConfig", package: kiosk),
            ],
            path: "Benchmarks/RenderFrame",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "LoopFrame",
            dependencies: [
                "LoopFixture",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Runtime", package: kiosk),
                .product(name: "Display", package: kiosk),
                .product(name: "Render", package: kiosk),
                .product(name: "Gestures", package: kiosk),
                .product(name: "KioskConfig", package: kiosk),
            ],
            path: "Benchmarks/LoopFrame",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // The kiosk loop in steady state, a finger on a square: shared by LoopFrame and FrameAllocations.
        .target(
            name: "LoopFixture",
            dependencies: [
                .product(name: "Runtime", package: kiosk),
                .product(name: "Display", package: kiosk),
                .product(name: "Gestures", package: kiosk),
                .product(name: "KioskConfig", package: kiosk),
            ]
        ),
        // Steady-state loop frames outside the harness, for a heap profiler: frame-allocations.sh.
        .executableTarget(
            name: "FrameAllocations",
            dependencies: ["LoopFixture"],
            path: "Benchmarks/FrameAllocations"
        ),
        .executableTarget(
            name: "GestureFrame",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Gestures", package: kiosk),
                .product(name: "Scene", package: kiosk),
                .product(name: "KioskConfig", package: kiosk),
            ],
            path: "Benchmarks/GestureFrame",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
