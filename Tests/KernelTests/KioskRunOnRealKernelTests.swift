import Foundation
import Gestures
import InputEvents
import KioskCore
import KioskTestSupport
import Render
import Testing

/// The suite's VM, waited for before its test cases run (`KernelHarness.AfterItsVM`); they report its errors.
private func theVM() async { _ = try? await KioskRunOnRealKernelTests.run.value }

/// `kiosk run` booted end to end under a real kernel: a uinput FT5406 played by evemu, virtio-gpu's
/// DRM, the log on a second serial port. One VM boot serves every test here (Tests/vm/kiosk-run.sh):
/// a first kiosk run that ends on SIGTERM, a second that ends on SIGINT, a third on a broken config.
@Suite("kiosk run on a real kernel", .enabled(if: KernelHarness.isAvailable, "needs qemu-system-x86, busybox-static, cpio, kmod, evemu-tools"), .afterItsVM(theVM))
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
        let panel = Fingers(panel: SyntheticTouchscreen.ft5406, clock: VirtualClock(Instant(seconds: 1)))
        // Drag yellow from its centre.
        let drag = panel.down(Point(x: 160, y: 190))
        for step in 1...20 { panel.move([drag[0]: Point(x: 160 + Double(step) * 4, y: 190 + Double(step) * 3)]) }
        panel.up(drag, after: 0.2)
        panel.wait(0.5)
        // Pinch magenta open.
        let pinch = panel.down(Point(x: 610, y: 190), Point(x: 670, y: 190))
        for step in 1...15 {
            panel.move([pinch[0]: Point(x: 610 - Double(step) * 2, y: 190), pinch[1]: Point(x: 670 + Double(step) * 2, y: 190)])
        }
        panel.up(pinch, after: 0.2)
        panel.wait(0.5)
        // Tap the button, then the switch.
        for point in [Point(x: 130, y: 424), Point(x: 680, y: 424)] {
            panel.up(panel.down(point), after: 0.08)
            panel.wait(0.6)
        }
        let split = panel.events.count
        panel.wait(2)
        panel.up(panel.down(Point(x: 130, y: 424)), after: 0.08)
        let whole = panel.trace
        var visit = whole
        visit.events = Array(whole.events[..<split])
        var again = whole
        again.events = Array(whole.events[split...])
        return (visit, again, whole)
    }()

    static let run = Task<KernelHarness.Run, any Error> {
        let script = try String(contentsOfFile: KernelHarness.root.appendingPathComponent("Tests/vm/kiosk-run.sh").path, encoding: .utf8)
        return try await KernelHarness.run(
            script: script,
            files: ["kiosk.conf": config, "broken.conf": broken,
                    "visit.evemu": traces.visit.text, "again.evemu": traces.again.text],
            binaries: [KernelHarness.kioskBinary, Font.defaultPath],
            screendump: screendumpPath, secondSerialPort: true)
    }

    func finished() async throws -> KernelHarness.Run {
        let run = try await Self.run.value
        #expect(run.status == 0, "\(run.console)")
        #expect(!run.console.contains("KIOSK-TIMEOUT"), "\(run.console)")
        return run
    }

    /// The serial log's lines up to the broken reload.
    func startupLines(_ run: KernelHarness.Run) -> [Substring] {
        run.serial2.split(separator: "\n").prefix { !$0.contains("SIGHUP") }
    }

    /// The serial log cut into the kiosks that wrote it, each from its first line ("kiosk starting",
    /// or the line of one that could not start) to the next one's.
    func kiosks(_ run: KernelHarness.Run) -> [[Substring]] {
        var runs: [[Substring]] = []
        for line in run.serial2.split(separator: "\n") {
            if line.contains("kiosk starting") || line.contains("kiosk cannot start") || runs.isEmpty {
                runs.append([line])
            } else {
                runs[runs.count - 1].append(line)
            }
        }
        return runs
    }

    /// The screendump the script named `name` (nil: the one after the second tap).
    func screendump(_ name: String?) throws -> PPMImage {
        let path = name.map { Self.screendumpPath.replacingOccurrences(of: ".ppm", with: "-\($0).ppm") } ?? Self.screendumpPath
        return try PPMImage(try #require(FileManager.default.contents(atPath: path), "no screendump at \(path)"))
    }

    @Test func theSerialLogNamesTheDisplayAndTheTouchscreenAndShowsNoErrorBeforeTheReload() async throws {
        let run = try await finished()
        let lines = startupLines(run)
        let start = try #require(lines.first { $0.contains("kiosk starting") }, "serial log:\n\(run.serial2)")
        #expect(start.contains("card0 connector Virtual-1 mode 800x480@"), "\(start)")
        let attached = try #require(lines.first { $0.contains("touchscreen attached") }, "serial log:\n\(run.serial2)")
        #expect(attached.contains("input.device=/dev/input/event"), "\(attached)")
        #expect(!lines.contains { $0.contains(" error ") || $0.contains(" critical ") }, "serial log:\n\(run.serial2)")
    }

    @Test func theStatsLineCountsFramesAndMeasuresLatency() async throws {
        let run = try await finished()
        let stats = try #require(kiosks(run).first, "serial log:\n\(run.serial2)").filter { $0.contains(" stats ") }
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

    @Test func aBrokenReloadIsLoggedWithFileAndLineAndTheKioskDrawsOn() async throws {
        let run = try await finished()
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

    @Test func aGoodReloadAppliesAndThePanelBlanksAndATouchWakesIt() async throws {
        let run = try await finished()
        let lines = run.serial2.split(separator: "\n")
        #expect(lines.contains { $0.contains("config reloaded") && $0.contains("config.generation=2") }, "serial log:\n\(run.serial2)")
        #expect(lines.contains { $0.contains("display blanked after 1 s without a touch") }, "serial log:\n\(run.serial2)")
        #expect(run.console.contains("KIOSK-DPMS-BLANKED Off"), "\(run.console)")
        #expect(lines.contains { $0.contains("display woken by a touch") }, "serial log:\n\(run.serial2)")
        #expect(run.console.contains("KIOSK-DPMS-WOKEN On"), "\(run.console)")
    }

    @Test func atDebugTheLogCarriesTheDecisionsAndTheWakingTapNeverPressesTheButton() async throws {
        let run = try await finished()
        let lines = run.serial2.split(separator: "\n")
        #expect(lines.contains { $0.contains(" debug gesture ") && $0.contains("pan@yellow began") }, "serial log:\n\(run.serial2)")
        #expect(lines.contains { $0.contains(" debug gesture ") && $0.contains("pinch@magenta began") }, "serial log:\n\(run.serial2)")
        let presses = lines.indices.filter { lines[$0].contains("primaryActionTriggered") }
        #expect(presses.count == 2, "the visit's tap and the one after the broken reload: \(presses.map { lines[$0] })")
        let woken = try #require(lines.firstIndex { $0.contains("display woken by a touch") }, "serial log:\n\(run.serial2)")
        #expect(presses.allSatisfy { $0 < woken }, "the tap that woke the panel must not press the button")
    }

    @Test func anUnpluggedTouchscreenIsLoggedAndTheKioskRunsOn() async throws {
        let run = try await finished()
        let lines = run.serial2.split(separator: "\n")
        let removed = try #require(lines.firstIndex { $0.contains("touchscreen removed; its touches were cancelled") }, "serial log:\n\(run.serial2)")
        #expect(lines[removed...].contains { $0.contains("stopping on SIGTERM; display restored") }, "serial log:\n\(run.serial2)")
    }

    /// The screendump equals what `kiosk replay --screenshot` draws on this machine for the same
    /// trace (the visit and the tap after the broken reload, one file) and the same config: the
    /// command an integrator runs on a laptop with a trace recorded on the kiosk. Tolerance: no
    /// pixel more than 2 levels off on any channel (`PPMImage.differences`).
    @Test func theScreenShowsWhatKioskReplayDrawsOnThisMachineForTheSameTraceAndConfig() async throws {
        _ = try await finished()
        let screen = try screendump(nil)
        #expect(screen.width == 800 && screen.height == 480)

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-run-replay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // The config names its font as the VM had it, beside the config.
        try FileManager.default.copyItem(atPath: Font.defaultPath, toPath: folder.appendingPathComponent("DejaVuSans.ttf").path)
        try Self.config.write(to: folder.appendingPathComponent("kiosk.conf"), atomically: true, encoding: .utf8)
        try Self.traces.whole.text.write(to: folder.appendingPathComponent("trace.evemu"), atomically: true, encoding: .utf8)
        let replay = try await KernelHarness.kiosk(["replay", "trace.evemu", "--config", "kiosk.conf", "--screenshot", "replay.png",
                                              "--state", "state.json"], in: folder)
        try #require(replay.status == 0, "kiosk replay: \(replay.stderr)")
        let state = try String(contentsOf: folder.appendingPathComponent("state.json"), encoding: .utf8)
        #expect(state.contains("\"name\": \"button\"") && state.contains("\"taps\": 2,"), "the button tapped twice: \(state)")
        #expect(state.contains("\"kind\": \"switch\"") && state.contains("\"on\": true"), "the switch toggled on: \(state)")
        let drawn = try PixelBuffer(contentsOfPNG: folder.appendingPathComponent("replay.png").path)
        let (differing, first) = try screen.differences(from: drawn)
        #expect(differing == 0, "\(differing) pixels differ, first at \(first ?? ""); screendump kept at \(Self.screendumpPath)")
        if differing == 0 { try? FileManager.default.removeItem(atPath: Self.screendumpPath) }
    }

    /// Once the visit has been played and the scene has settled, three stats intervals with
    /// nothing moving: no frame drawn, no page flip (counted by the kernel, not by kiosk), and
    /// near-zero CPU.
    ///
    /// The bounds: CPU at most 20% of the idle time. The only work is the three stats lines, about
    /// 10 ms each in this debug build under TCG (measured: 30 ms in 2.9 s, 1%, the VM alone; 140 ms
    /// in 2.7 s, 5%, with another VM beside it on the 2-core host); the margin is for a loaded host,
    /// which stretches the VM's time. A loop that spun, or drew and flipped at the emulator's rate,
    /// would take most of the CPU. Wake-ups at most two per stats line (its timer,
    /// and the serial line asking to be written again; measured: one each): a loop paced by a
    /// frame timer or by page flips would wake hundreds of times.
    @Test func anIdleKioskDrawsNothingFlipsNoPageAndUsesNoCPU() async throws {
        let run = try await finished()
        let visit = try #require(Self.fields(after: "KIOSK-VISIT", in: run.console), "\(run.console)")
        // The counter sees kiosk's flips: the visit flipped pages.
        #expect((visit["flips"] ?? 0) > 0, "\(visit)")

        let idle = try #require(Self.fields(after: "KIOSK-IDLE", in: run.console), "\(run.console)")
        let stats = try #require(run.section("KIOSK-IDLE-STATS-BEGIN", "KIOSK-IDLE-STATS-END"), "\(run.console)")
            .split(separator: "\n")
        #expect(stats.count == 3, "\(stats)")
        #expect(stats.allSatisfy { $0.contains(" frames=0 ") && $0.contains(" latency=none ") }, "\(stats)")
        #expect(idle["flips"] == 0, "page flips while idle: \(idle)")
        let span = try #require(Self.idleSeconds(run.console), "\(run.console)")
        #expect(span >= 2, "three stats intervals of a second: \(span) s")
        let cpu = Double(idle["cpu.ticks"] ?? -1) / Double(idle["hz"] ?? 100)
        #expect(cpu >= 0 && cpu <= 0.2 * span, "kiosk used \(cpu) s of CPU in \(span) s idle: \(idle)")
        let wakeups = idle["wakeups"] ?? -1
        #expect(wakeups >= 0 && wakeups <= 2 * stats.count, "kiosk woke \(wakeups) times in \(span) s idle: \(idle)")
    }

    /// SIGTERM (the first kiosk) and SIGINT (the second) end kiosk run with status 0, the
    /// stopping line last on the serial console, and the screen given back to the console as it
    /// was before kiosk started.
    @Test func sigtermAndSigintExitCleanlyLogLastAndGiveTheConsoleBack() async throws {
        let run = try await finished()
        #expect(run.console.contains("KIOSK-RUN-STATUS 0"), "\(run.console)")
        #expect(run.console.contains("KIOSK-RUN2-STATUS 0"), "\(run.console)")
        let kiosks = kiosks(run)
        try #require(kiosks.count == 3, "three kiosks in the serial log:\n\(run.serial2)")
        #expect(kiosks[0].last?.contains("stopping on SIGTERM; display restored") == true, "\(kiosks[0].suffix(3))")
        #expect(kiosks[1].last?.contains("stopping on SIGINT; display restored") == true, "\(kiosks[1].suffix(3))")
        let err2 = run.section("KIOSK-RUN2-ERR-BEGIN", "KIOSK-RUN2-ERR-END") ?? ""
        #expect(err2.split(separator: "\n").last?.contains("stopping on SIGINT") == true, "\(err2)")

        let console = try screendump("console")
        #expect(Self.consoleText(in: console) > 100, "the console shows its line of text before kiosk")
        #expect(Self.kioskBackground(in: console) == 0)
        let during = try screendump("during-int")
        #expect(Self.kioskBackground(in: during) > during.width * during.height / 2, "the second kiosk showed its frame")
        for name in ["after-term", "after-int"] {
            let after = try screendump(name)
            #expect(after.width == console.width && after.height == console.height)
            let differing = Self.differingPixels(after, console)
            #expect(differing == 0, "\(name): \(differing) pixels differ from the console before kiosk")
        }
        for name in ["console", "during-int", "after-term", "after-int"] {
            try? FileManager.default.removeItem(atPath: Self.screendumpPath.replacingOccurrences(of: ".ppm", with: "-\(name).ppm"))
        }
    }

    /// A kiosk started on a file that does not load says why on the serial console too, with
    /// file:line, and exits with status 2: an integrator with only the cable sees it.
    @Test func aConfigThatDoesNotLoadAtStartIsReportedOnTheSerialConsole() async throws {
        let run = try await finished()
        #expect(run.console.contains("KIOSK-RUN3-STATUS 2"), "\(run.console)")
        let line = Self.broken.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0 == "rotation = 45" }.map { $0 + 1 }
        let last = try #require(kiosks(run).last, "serial log:\n\(run.serial2)")
        #expect(last.contains { $0.contains("kiosk cannot start") && $0.contains("broken.conf:\(line ?? 0): log.rotation: unknown key") },
                "serial log:\n\(run.serial2)")
    }

    /// `KEY=N` fields of the console line that starts with `marker`.
    static func fields(after marker: String, in console: String) -> [String: Int]? {
        guard let line = console.split(separator: "\n").first(where: { $0.hasPrefix(marker + " ") }) else { return nil }
        var fields: [String: Int] = [:]
        for pair in line.split(separator: " ").dropFirst() {
            let kv = pair.split(separator: "=", maxSplits: 1)
            if kv.count == 2, let n = Int(kv[1]) { fields[String(kv[0])] = n }
        }
        return fields
    }

    /// The idle span's length from the KIOSK-IDLE line's `seconds=START-END` (uptime).
    static func idleSeconds(_ console: String) -> Double? {
        guard let line = console.split(separator: "\n").first(where: { $0.hasPrefix("KIOSK-IDLE ") }),
              let r = line.range(of: "seconds=") else { return nil }
        let ends = line[r.upperBound...].prefix { $0 != " " }.split(separator: "-").compactMap { Double($0) }
        return ends.count == 2 ? ends[1] - ends[0] : nil
    }

    /// Pixels of the kiosk scene's background colour (#eef0f3).
    static func kioskBackground(in image: PPMImage) -> Int {
        var count = 0
        for y in 0..<image.height {
            for x in 0..<image.width where image.rgb(x: x, y: y) == (0xee, 0xf0, 0xf3) { count += 1 }
        }
        return count
    }

    /// Pixels that are not black: the console's text.
    static func consoleText(in image: PPMImage) -> Int {
        var count = 0
        for y in 0..<image.height {
            for x in 0..<image.width where image.rgb(x: x, y: y) != (0, 0, 0) { count += 1 }
        }
        return count
    }

    static func differingPixels(_ a: PPMImage, _ b: PPMImage) -> Int {
        var count = 0
        for y in 0..<min(a.height, b.height) {
            for x in 0..<min(a.width, b.width) where a.rgb(x: x, y: y) != b.rgb(x: x, y: y) { count += 1 }
        }
        return count
    }
}
