// swift-tools-version:6.0
// libFuzzer targets for kiosk: a package of its own that takes the main package by path, so the
// fuzz build (every module instrumented with -sanitize=fuzzer) never touches the main build's.
// Build and run with Fuzz/run.sh; docs/fuzzing.md says how and why this way.
import Foundation
import PackageDescription

// A path dependency's identity is its folder's name, and a clone may be called anything.
let kiosk = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "KioskFuzz",
    dependencies: [.package(path: "..")],
    targets: [
        // libFuzzer's entry for a program that has its own main (LLVMFuzzerRunDriver); declaration only.
        .systemLibrary(name: "CFuzzer"),
        // The driver every target shares, and a reader that takes typed values from the fuzzer's bytes.
        .target(name: "FuzzSupport", dependencies: ["CFuzzer"]),
        // evemu text: the parser, then what `kiosk replay` does with a trace (protocol A through
        // libmtdev, decoding), and the writer's round trip.
        .executableTarget(name: "fuzz-evemu", dependencies: [
            "FuzzSupport",
            .product(name: "InputEvents", package: kiosk),
            .product(name: "MultitouchA", package: kiosk),
        ]),
        // evdev events into the touch decoder of a protocol B, single-touch, eGalax-style or
        // protocol A (libmtdev) panel, with and without calibration and filters.
        .executableTarget(name: "fuzz-decoder", dependencies: [
            "FuzzSupport",
            .product(name: "KioskCore", package: kiosk),
            .product(name: "InputEvents", package: kiosk),
            .product(name: "MultitouchA", package: kiosk),
            // The synthetic panels' device descriptions (test tooling, a product for this and Benchmarks/).
            .product(name: "KioskTestSupport", package: kiosk),
        ]),
        // Config text: TOML, the semantic checks, the scene built from it, check-config's output.
        .executableTarget(name: "fuzz-config", dependencies: [
            "FuzzSupport",
            .product(name: "KioskConfig", package: kiosk),
            .product(name: "Scene", package: kiosk),
        ]),
        // MQTT's inputs: command payloads per control kind, topics, broker URLs, view names in discovery JSON.
        .executableTarget(name: "fuzz-mqtt", dependencies: [
            "FuzzSupport",
            .product(name: "MQTTProtocol", package: kiosk),
            .product(name: "KioskConfig", package: kiosk),
            .product(name: "Scene", package: kiosk),
        ]),
        // Arbitrary touch frames and clock moves into the default scene and its gesture engine.
        .executableTarget(name: "fuzz-scene", dependencies: [
            "FuzzSupport",
            .product(name: "KioskConfig", package: kiosk),
            .product(name: "Scene", package: kiosk),
            .product(name: "Gestures", package: kiosk),
        ]),
        // The state file: its parser, the round trip of what it writes, restoring into the default scene.
        .executableTarget(name: "fuzz-state", dependencies: [
            "FuzzSupport",
            .product(name: "KioskState", package: kiosk),
            .product(name: "KioskConfig", package: kiosk),
            .product(name: "Scene", package: kiosk),
        ]),
        // Control socket request lines: the parser, and the reply's JSON with the id echoed.
        .executableTarget(name: "fuzz-control", dependencies: [
            "FuzzSupport",
            .product(name: "ControlProtocol", package: kiosk),
        ]),
    ]
)
