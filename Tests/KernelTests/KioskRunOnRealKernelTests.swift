import Display
import Foundation
import Geometry
import Gestures
import InputEvents
import KioskConfig
import Render
import Runtime
import Testing

/// `kiosk run` booted end to end under a real kernel: a uinput FT5406 played by evemu, virtio-gpu's
/// DRM, the log on a second serial port. One VM boot serves every test here (Tests/vm/kiosk-run.sh).
@Suite("kiosk run on a real kernel", .enabled(if: KernelHarness.isAvailable, "needs qemu-system-x86, busybox-static, cpio, kmod, evemu-tools"))
struct KioskRunOnRealKernelTests {
    static let configPath = KernelHarness.root.appendingPathComponent("config/kiosk.toml").path
    static let screendumpPath = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-run-screendump-\(UUID().uuidString).ppm").path

    /// The kiosk's config: the default scene, the log on ttyS1 with a stats line a second.
    static let config: String = {
        let scene = (try? String(contentsOfFile: configPath, encoding: .utf8)) ?? ""
        return sceneOnly(scene) + """

            [display]
            font = "DejaVuSans.ttf"
            screenshot_directory = "/var/lib/kiosk"

            [log]
            serial = "/dev/ttyS1"
            level = "info"
            buffer_lines = 4096
            stats_interval = 1

            """
    }()

    /// The same file with a mistake in it, on a line the error must name.
    static let broken = config.replacingOccurrences(of: "stats_interval = 1", with: "stats_interval = 1\nrotation = 45")

    /// The default file without the runtime sections it documents: the test sets its own.
    static func sceneOnly(_ text: String) -> String {
        var out: [Substring] = []
        var skipping = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("[") && !line.hasPrefix("[[") {
                let name = line.dropFirst().prefix { $0 != "]" }
                skipping = ["display", "input", "log", "loop", "loop.stages"].contains(String(name))
            } else if line.hasPrefix("[[") {
                skipping = false
            }
            if !skipping { out.append(line) }
        }
        return out.joined(separator: "\n")
    }

    /// A visit: drag yellow, pinch magenta, tap the button, toggle the switch; then, after the
    /// broken reload, one more tap on the button. Fingers rest before they lift, so the result
    /// does not hang on how fast the VM plays the events.
    static let traces: (visit: EvemuTrace, again: EvemuTrace, whole: EvemuTrace) = {
        var panel = SyntheticTouchscreen(device: SyntheticTouchscreen.ft5406)
        func frame() { panel.wait(1.0 / 60) }
        // Drag yellow from its centre.
        panel.down(0, at: Point(x: 160, y: 190))
        panel.sync()
        for step in 1...20 {
            frame()
            panel.move(0, to: Point(x: 160 + Double(step) * 4, y: 190 + Double(step) * 3))
            panel.sync()
        }
        panel.wait(0.2)
        panel.up(0)
        panel.sync()
        panel.wait(0.5)
        // Pinch magenta open.
        panel.down(1, at: Point(x: 610, y: 190))
        panel.down(2, at: Point(x: 670, y: 190))
        panel.sync()
        for step in 1...15 {
            frame()
            panel.move(1, to: Point(x: 610 - Double(step) * 2, y: 190))
            panel.move(2, to: Point(x: 670 + Double(step) * 2, y: 190))
            panel.sync()
        }
        panel.wait(0.2)
        panel.up(1)
        panel.up(2)
        panel.sync()
        panel.wait(0.5)
        // Tap the button, then the switch.
        for (finger, point) in [(3, Point(x: 130, y: 424)), (4, Point(x: 680, y: 424))] {
            panel.down(finger, at: point)
            panel.sync()
            panel.wait(0.08)
            panel.up(finger)
            panel.sync()
            panel.wait(0.6)
        }
        let split = panel.events.count
        panel.wait(2)
        panel.down(5, at: Point(x: 130, y: 424))
        panel.sync()
        panel.wait(0.08)
        panel.up(5)
        panel.sync()
        let whole = panel.trace
        var visit = whole
        visit.events = Array(whole.events[..<split])
        var again = whole
        again.events = Array(whole.events[split...])
        return (visit, again, whole)
    }()

    static let run: Result<KernelHarness.Run, any Error> = Result(catching: {
        let script = try String(contentsOfFile: KernelHarness.root.appendingPathComponent("Tests/vm/kiosk-run.sh").path, encoding: .utf8)
        return try KernelHarness.run(
            script: script,
            files: ["kiosk.conf": config, "broken.conf": broken,
                    "visit.evemu": traces.visit.text, "again.evemu": traces.again.text],
            binaries: [KernelHarness.kioskBinary, Font.defaultPath],
            screendump: screendumpPath, secondSerialPort: true)
    })

    func finished() throws -> KernelHarness.Run {
        let run = try Self.run.get()
        #expect(run.status == 0, "\(run.console)")
        #expect(!run.console.contains("KIOSK-TIMEOUT"), "\(run.console)")
        return run
    }

    /// The serial log's lines up to the broken reload.
    func startupLines(_ run: KernelHarness.Run) -> [Substring] {
        run.serial2.split(separator: "\n").prefix { !$0.contains("SIGHUP") }
    }

    @Test func theSerialLogNamesTheDisplayAndTheTouchscreenAndShowsNoErrorBeforeTheReload() throws {
        let run = try finished()
        let lines = startupLines(run)
        let start = try #require(lines.first { $0.contains("kiosk starting") }, "serial log:\n\(run.serial2)")
        #expect(start.contains("card0 connector Virtual-1 mode 800x480@"), "\(start)")
        let attached = try #require(lines.first { $0.contains("touchscreen attached") }, "serial log:\n\(run.serial2)")
        #expect(attached.contains("input.device=/dev/input/event"), "\(attached)")
        #expect(!lines.contains { $0.contains(" error ") || $0.contains(" critical ") }, "serial log:\n\(run.serial2)")
    }

    @Test func theStatsLineCountsFramesAndMeasuresLatency() throws {
        let run = try finished()
        let stats = run.serial2.split(separator: "\n").filter { $0.contains(" stats ") }
        #expect(stats.count >= 3, "serial log:\n\(run.serial2)")
        // Latency from the kernel's touch timestamps to the flip: positive, and sane even under TCG.
        let p50s = stats.compactMap { line -> Double? in
            guard let r = line.range(of: "latency.p50.ms=") else { return nil }
            return Double(line[r.upperBound...].prefix { $0 != " " })
        }
        #expect(!p50s.isEmpty, "\(stats)")
        #expect(p50s.allSatisfy { $0 > 0 && $0 < 1000 }, "\(p50s)")
        #expect(stats.contains { $0.contains("latency.max.ms=") && $0.contains("stage.render.ms=") }, "\(stats)")
        #expect(stats.allSatisfy { $0.contains("frames=") && $0.contains("fps=") && $0.contains("overruns=") }, "\(stats)")
        #expect(stats.first?.contains("config.generation=1") == true, "\(stats)")
        #expect(stats.last?.contains("config.generation=2") == true, "the good reload counts: \(stats)")
        #expect(stats.contains { $0.contains("devices=1") }, "\(stats)")
    }

    @Test func aBrokenReloadIsLoggedWithFileAndLineAndTheKioskDrawsOn() throws {
        let run = try finished()
        let lines = run.serial2.split(separator: "\n")
        let failed = try #require(lines.first { $0.contains("config reload failed") }, "serial log:\n\(run.serial2)")
        let line = Self.broken.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0 == "rotation = 45" }.map { $0 + 1 }
        #expect(failed.contains("kiosk.conf:\(line ?? 0): log.rotation: unknown key"), "\(failed)")
        #expect(failed.contains("still running generation 1"), "\(failed)")
        // The tap after it was drawn: the screen shows two taps (the screendump test), and the
        // stats still count frames.
        #expect(run.console.contains("KIOSK-RUN-STATUS 0"), "\(run.console)")
        #expect(lines.contains { $0.contains("screenshot written") }, "serial log:\n\(run.serial2)")
        #expect(run.section("KIOSK-SCREENSHOTS-BEGIN", "KIOSK-SCREENSHOTS-END")?.contains(".png") == true, "\(run.console)")
        #expect(lines.last { $0.contains("stopping on SIGTERM") } != nil, "serial log:\n\(run.serial2)")
    }

    @Test func aGoodReloadAppliesAndThePanelBlanksAndATouchWakesIt() throws {
        let run = try finished()
        let lines = run.serial2.split(separator: "\n")
        #expect(lines.contains { $0.contains("config reloaded") && $0.contains("config.generation=2") }, "serial log:\n\(run.serial2)")
        #expect(lines.contains { $0.contains("display blanked after 1 s without a touch") }, "serial log:\n\(run.serial2)")
        #expect(run.console.contains("KIOSK-DPMS-BLANKED Off"), "\(run.console)")
        #expect(lines.contains { $0.contains("display woken by a touch") }, "serial log:\n\(run.serial2)")
        #expect(run.console.contains("KIOSK-DPMS-WOKEN On"), "\(run.console)")
    }

    @Test func atDebugTheLogCarriesTheDecisionsAndTheWakingTapNeverPressesTheButton() throws {
        let run = try finished()
        let lines = run.serial2.split(separator: "\n")
        #expect(lines.contains { $0.contains(" debug gesture ") && $0.contains("pan@yellow began") }, "serial log:\n\(run.serial2)")
        #expect(lines.contains { $0.contains(" debug gesture ") && $0.contains("pinch@magenta began") }, "serial log:\n\(run.serial2)")
        let presses = lines.indices.filter { lines[$0].contains("primaryActionTriggered") }
        #expect(presses.count == 2, "the visit's tap and the one after the broken reload: \(presses.map { lines[$0] })")
        let woken = try #require(lines.firstIndex { $0.contains("display woken by a touch") }, "serial log:\n\(run.serial2)")
        #expect(presses.allSatisfy { $0 < woken }, "the tap that woke the panel must not press the button")
    }

    @Test func anUnpluggedTouchscreenIsLoggedAndTheKioskRunsOn() throws {
        let run = try finished()
        let lines = run.serial2.split(separator: "\n")
        let removed = try #require(lines.firstIndex { $0.contains("touchscreen removed; its touches were cancelled") }, "serial log:\n\(run.serial2)")
        #expect(lines[removed...].contains { $0.contains("stopping on SIGTERM; display restored") }, "serial log:\n\(run.serial2)")
    }

    @Test func theScreenShowsTheHeadlessReplayOfTheSameTrace() throws {
        _ = try finished()
        let dump = try #require(FileManager.default.contents(atPath: Self.screendumpPath), "no screendump at \(Self.screendumpPath)")
        let screen = try PPMImage(dump)
        #expect(screen.width == 800 && screen.height == 480)

        let configuration = try KioskConfiguration.parse(Self.config, file: "kiosk.conf")
        let replay = try Replay(trace: Self.traces.whole, scene: configuration.scene, traceDecisions: false)
        #expect(replay.scene.views.first { $0.name == "button" }?.taps == 2)
        #expect(replay.scene.views.first { $0.name == "switch" }?.isOn == true)
        let (differing, first) = try screen.differences(from: try replay.finalFrame())
        #expect(differing == 0, "\(differing) pixels differ, first at \(first ?? ""); screendump kept at \(Self.screendumpPath)")
        if differing == 0 { try? FileManager.default.removeItem(atPath: Self.screendumpPath) }
    }
}
