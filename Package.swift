// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "kiosk",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "kiosk", targets: ["kiosk"]),
        .library(name: "KioskCore", targets: ["KioskCore"]),
        .library(name: "Gestures", targets: ["Gestures"]),
        .library(name: "Scene", targets: ["Scene"]),
        .library(name: "KioskConfig", targets: ["KioskConfig"]),
        .library(name: "InputEvents", targets: ["InputEvents"]),
        .library(name: "MultitouchA", targets: ["MultitouchA"]),
        .library(name: "TouchInput", targets: ["TouchInput"]),
        .library(name: "Runtime", targets: ["Runtime"]),
        .library(name: "Render", targets: ["Render"]),
        .library(name: "Display", targets: ["Display"]),
        .library(name: "KioskLog", targets: ["KioskLog"]),
        .library(name: "Control", targets: ["Control"]),
        .library(name: "MQTTProtocol", targets: ["MQTTProtocol"]),
        .library(name: "ControlProtocol", targets: ["ControlProtocol"]),
        .library(name: "KioskState", targets: ["KioskState"]),
        // Test tooling, not the kiosk: a product only so that the benchmarks package can feed synthetic panels.
        .library(name: "KioskTestSupport", targets: ["KioskTestSupport"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
    ],
    targets: [
        // kiosk's version, written at build time by the plugin below from VERSION and `git describe`
        // (Tools/version.sh); docs/building.md ("Libraries, and why") says why a plugin.
        .target(name: "KioskVersion", plugins: ["KioskVersionPlugin"]),
        .plugin(name: "KioskVersionPlugin", capability: .buildTool()),
        // Pure Swift, the bottom of the graph: the vocabulary every module shares. Geometry, `Instant`,
        // touches and `TouchFrame`, `PixelFormat` and the plain `PixelBuffer`. Imports nothing of ours.
        .target(name: "KioskCore"),
        // Pure Swift: recognizers, the coordinator, velocity tracking. Only the core below it.
        .target(name: "Gestures", dependencies: ["KioskCore"]),
        // The kernel's input ABI header (linux/input-event-codes.h); constants only, nothing to link.
        .systemLibrary(name: "CLinuxInput", path: "Sources/CLinuxInput"),
        // Typed evdev codes, the evemu trace format, and the evdev-to-TouchFrame decoder.
        .target(name: "InputEvents", dependencies: ["CLinuxInput", "KioskCore"]),
        // libevdev (apt libevdev-dev): the only module that reads input devices imports it.
        .systemLibrary(name: "CEvdev", path: "Sources/CEvdev", pkgConfig: "libevdev", providers: [.apt(["libevdev-dev"])]),
        // libmtdev (apt libmtdev-dev): multitouch protocol A to protocol B; only MultitouchA imports it.
        .systemLibrary(name: "CMtdev", path: "Sources/CMtdev", pkgConfig: "mtdev", providers: [.apt(["libmtdev-dev"])]),
        // Protocol A touchscreens (no slots) converted to protocol B through libmtdev, live and in traces.
        .target(name: "MultitouchA", dependencies: ["CMtdev", "InputEvents", "KioskCore"]),
        // signalfd, timerfd, inotify: the Linux interfaces a poll loop needs beyond Glibc's module.
        .systemLibrary(name: "CLinuxSystem", path: "Sources/CLinuxSystem"),
        // Live touchscreens: discovery, reading with resync, recording.
        .target(name: "TouchInput", dependencies: ["CEvdev", "CLinuxSystem", "InputEvents", "MultitouchA", "KioskCore"]),
        // Pure Swift: view tree, hit testing, controls, the kiosk scene.
        .target(name: "Scene", dependencies: ["Gestures", "KioskCore"]),
        // The kiosk config file (TOML): parsing and validation with file:line errors.
        .target(name: "KioskConfig", dependencies: [
            "Scene", "Gestures", "KioskCore", "MQTTProtocol",
            .product(name: "TOMLKit", package: "TOMLKit"),
        ]),
        // cairo, its FreeType backend and FreeType itself; the only module that imports them.
        .systemLibrary(name: "CCairo", path: "Sources/CCairo", pkgConfig: "cairo-ft",
                       providers: [.apt(["libcairo2-dev", "libfreetype-dev"])]),
        // Drawing the scene with cairo into a shadow buffer, with damage tracking and PNG output.
        .target(name: "Render", dependencies: ["CCairo", "Scene", "KioskCore"]),
        // libdrm (apt libdrm-dev): the only module that talks to DRM/KMS imports it.
        .systemLibrary(name: "CDRM", path: "Sources/CDRM", pkgConfig: "libdrm", providers: [.apt(["libdrm-dev"])]),
        // The panel: card, connector, mode, dumb buffers, page flips, restore; and a headless target.
        .target(name: "Display", dependencies: ["CDRM", "KioskCore"]),
        // The serial console log: kiosk's `Logger` and its handler over non-blocking, bounded sinks (serial line, stderr).
        .target(name: "KioskLog", dependencies: ["KioskCore"]),
        // The state file: what users and programs set at run time, kept across restarts and power
        // cuts (its document parsed with Foundation's JSONDecoder, fuzzed alone), and its store.
        .target(name: "KioskState", dependencies: ["Scene", "KioskCore", "KioskLog"]),
        // The kiosk loop (live and on a virtual clock for replay), its stats, signals and reload.
        .target(name: "Runtime", dependencies: [
            "Render", "Display", "TouchInput", "Scene", "Gestures", "InputEvents", "KioskConfig", "KioskLog", "KioskState",
            "CLinuxSystem", "KioskCore", "KioskVersion",
            "MultitouchA",
            .product(name: "Histogram", package: "hdrhistogram-swift"),
        ]),
        // The control socket's requests and replies as text: pure Swift (Foundation's JSONDecoder), fuzzed alone.
        .target(name: "ControlProtocol", dependencies: ["KioskCore"]),
        // The control socket: JSON Lines over a Unix socket, served from the loop's poll (issue 13).
        .target(name: "Control", dependencies: [
            "ControlProtocol", "Runtime", "Scene", "Gestures", "KioskConfig", "KioskLog", "KioskCore",
        ]),
        // libmosquitto (apt libmosquitto-dev): the MQTT client; only the MQTT module imports it.
        .systemLibrary(name: "CMosquitto", path: "Sources/CMosquitto", pkgConfig: "libmosquitto", providers: [.apt(["libmosquitto-dev"])]),
        // glibc's asynchronous name lookup (getaddrinfo_a needs _GNU_SOURCE, kept inside this C file).
        .target(name: "CNameLookup", path: "Sources/CNameLookup"),
        // Pure Swift: kiosk's MQTT topics, command payloads and Home Assistant's discovery messages.
        .target(name: "MQTTProtocol", dependencies: ["Scene", "KioskCore"]),
        // `[mqtt]`: the controls on a broker, driven from the loop's poll (a LoopExtension).
        .target(name: "MQTT", dependencies: [
            "CMosquitto", "CNameLookup", "MQTTProtocol", "Runtime", "KioskConfig", "KioskLog", "Scene", "KioskCore", "KioskVersion",
        ]),
        .executableTarget(name: "kiosk", dependencies: [
            "Control", "Runtime", "MQTT", "MQTTProtocol", "Display", "Render", "KioskConfig", "KioskLog", "KioskState", "TouchInput",
            "InputEvents", "Gestures", "KioskCore", "KioskVersion",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .testTarget(name: "GesturesTests", dependencies: ["Gestures", "KioskCore", "KioskTestSupport"]),
        .testTarget(name: "InputEventsTests", dependencies: ["InputEvents", "KioskCore", "KioskTestSupport"],
                    resources: [.copy("Fixtures")]),
        // Runs inside Debian's kernel under qemu (Tests/vm): real uinput, evdev and DRM.
        .testTarget(name: "KernelTests", dependencies: ["kiosk", "TouchInput", "MultitouchA", "InputEvents", "Gestures", "KioskCore",
                                                       "Display", "Render", "Runtime", "KioskConfig", "KioskTestSupport"]),
        .testTarget(name: "DisplayTests", dependencies: ["Display", "Render", "KioskCore", "KioskTestSupport"]),
        .testTarget(name: "TouchInputTests", dependencies: ["TouchInput", "InputEvents", "KioskCore", "KioskTestSupport"]),
        .testTarget(name: "MultitouchATests", dependencies: ["MultitouchA", "InputEvents", "KioskCore", "KioskTestSupport"]),
        .testTarget(name: "KioskLogTests", dependencies: ["KioskLog", "KioskCore", "KioskTestSupport"]),
        .testTarget(name: "RuntimeTests", dependencies: ["Runtime", "Control", "MQTT", "ControlProtocol", "KioskLog", "KioskConfig", "KioskState", "Scene", "Gestures", "KioskCore",
                                                        "InputEvents", "Render", "Display", "KioskTestSupport"]),
        // What every test target shares: the touch script and the synthetic touchscreens under it (the
        // events a kernel driver would write), the tests' virtual clock, running the built kiosk, a
        // pseudo-terminal for a serial port, comparing pixel buffers.
        .target(name: "KioskTestSupport", dependencies: ["InputEvents", "CLinuxInput", "Gestures", "Scene", "KioskConfig", "KioskLog", "KioskCore"], path: "Tests/Support"),
        // Every test of the built `kiosk` executable as a user or an integrator meets it: run, replay,
        // check-config, show; deploy/; its files, signals and exit statuses.
        .testTarget(name: "CommandTests", dependencies: ["kiosk", "Render", "Runtime", "KioskConfig", "KioskState", "Scene", "InputEvents", "KioskCore",
                                                        "KioskLog", "KioskVersion", "KioskTestSupport"]),
        // The state file's document, its durable writes and the coalescing store, on real files.
        .testTarget(name: "KioskStateTests", dependencies: ["KioskState", "KioskConfig", "Scene", "KioskLog", "KioskCore", "KioskTestSupport"]),
        .testTarget(name: "KioskConfigTests", dependencies: ["kiosk", "KioskConfig", "Scene", "Gestures", "KioskCore", "KioskTestSupport"]),
        .testTarget(name: "RenderTests", dependencies: ["KioskTestSupport", "Render", "Runtime", "InputEvents", "Scene", "Gestures",
                                                       "KioskCore", "KioskConfig"],
                    exclude: ["Golden"]),
        // Against a real Mosquitto broker (apt mosquitto mosquitto-clients) started by the tests.
        .testTarget(name: "MQTTTests", dependencies: ["MQTT", "MQTTProtocol", "KioskConfig", "Scene", "KioskCore", "kiosk", "Control",
                                                     "Runtime", "Render", "Display", "KioskLog", "KioskTestSupport"]),
        // ARCHITECTURE.md's names checked against the tree (files, and the symbols it places in them).
        .testTarget(name: "DocumentationTests", dependencies: ["KioskTestSupport"]),
        // The small libraries on their own: the system-call funnel, whole files, JSON numbers; the socket's requests.
        .testTarget(name: "KioskCoreTests", dependencies: ["KioskCore"]),
        .testTarget(name: "ControlProtocolTests", dependencies: ["ControlProtocol", "KioskCore"]),
        .testTarget(name: "SceneTests", dependencies: ["kiosk", "KioskTestSupport", "Scene", "Gestures", "KioskCore", "KioskConfig", "Runtime", "InputEvents"]),
    ]
)

// KIOSK_TEST_TARGETS=A,B,... (Tests/arm64/check.sh's aarch64 test run, issue 22): only those test
// targets and what they import, so that a cross build compiles no more than the tests it runs.
// A test target's dependency on the kiosk executable is dropped: its command tests then run the
// kiosk that the runner finds beside it (check.sh puts the aarch64 release build there).
if let only = Context.environment["KIOSK_TEST_TARGETS"] {
    let tests = Set(only.split(separator: ",").map(String.init))
    func name(_ dependency: Target.Dependency) -> String? {
        switch dependency {
        case .targetItem(let name, _), .byNameItem(let name, _): return name
        default: return nil
        }
    }
    var keep = Set<String>(), todo = Array(tests)
    while let next = todo.popLast() {
        guard keep.insert(next).inserted, let target = package.targets.first(where: { $0.name == next }) else { continue }
        if tests.contains(next) { target.dependencies.removeAll { name($0) == "kiosk" } }
        todo += target.dependencies.compactMap { name($0) }
        for case .plugin(let plugin, nil) in target.plugins ?? [] { todo.append(plugin) }
    }
    package.targets.removeAll { !keep.contains($0.name) }
    package.products = []
}
