import Foundation
import InputEvents
import KioskCore
import Render
import Testing

extension KernelHarness {
    /// Whether the systemd VM can be made here: root (debootstrap, chroot) and debootstrap besides
    /// the kernel tests' tools; under CI it must.
    static let canBootSystemd: Bool = ProcessInfo.processInfo.environment["CI"] != nil
        || (isAvailable && getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/sbin/debootstrap"))
}

/// The suite's VM, waited for before its test cases run (`KernelHarness.AfterItsVM`); they report its errors.
private func theVM() async { _ = try? await KioskServiceOnRealKernelTests.run.value }

/// kiosk as an integrator deploys it: a Debian 12 userland with systemd as PID 1 booted on
/// Debian's kernel under qemu (virtio-gpu, uinput), kiosk installed by `deploy/install.sh --root`,
/// `kiosk.service` started at boot as the `kiosk` user inside the unit's sandbox. One boot serves
/// every test here (Tests/vm/service-in-vm.sh runs Tests/vm/kiosk-service.sh inside).
///
/// It needs root (debootstrap, chroot) besides the other kernel tests' tools; without them it is
/// skipped, except under CI, where it must run.
@Suite("kiosk.service under systemd on a real kernel", .enabled(if: KernelHarness.canBootSystemd,
                                                                 "needs root, debootstrap and the kernel tests' tools"), .afterItsVM(theVM))
struct KioskServiceOnRealKernelTests {
    static let screendumpPath = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-service-\(UUID().uuidString).ppm").path

    /// The shipped config as installed, with the log on the VM's second serial port (a Pi's is
    /// /dev/serial0, which the VM lacks) and a stats line a second (the script waits on them).
    static let config: String = {
        let shipped = (try? String(contentsOfFile: KernelHarness.root.appendingPathComponent("config/kiosk.toml").path, encoding: .utf8)) ?? ""
        return shipped.replacingOccurrences(of: "\nserial = \"/dev/serial0\"", with: "\nserial = \"/dev/ttyS1\"   ")
            .replacingOccurrences(of: "\nstats_interval = 60", with: "\nstats_interval = 1 ")
    }()
    /// A mistake on a line the error must name.
    static let broken = config.replacingOccurrences(of: "\nstats_interval = 1 ", with: "\nrotation = 45\nstats_interval = 1 ")
    /// The day theme's background changed: a reload that applies shows it.
    static let changedBackground = (0x33, 0x66, 0x99)
    static let changed = config.replacingOccurrences(of: "background = \"#eef0f3\"", with: "background = \"#336699\"")
    /// A point of the canvas that no view covers before or after the visit.
    static let backgroundPoint = (x: 790, y: 10)

    /// The touches: drag yellow, pinch magenta, tap the button, toggle the switch, tap the button again.
    static var trace: EvemuTrace { KioskRunOnRealKernelTests.traces.whole }

    static let run = Task<KernelHarness.Run, any Error> {
        let kiosk = try await KernelHarness.releaseKioskBinary.value
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-service-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var files: [String] = []
        for (name, text) in ["kiosk.conf": config, "broken.conf": broken, "changed.conf": changed, "trace.evemu": trace.text].sorted(by: { $0.key < $1.key }) {
            let path = dir.appendingPathComponent(name).path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            if name != "kiosk.conf" { files.append(path) }
        }
        let serial2 = dir.appendingPathComponent("serial2.log").path
        let vm = try await KernelHarness.inPlace(first: true) {
            try await KernelHarness.shell(KernelHarness.root.appendingPathComponent("Tests/vm/service-in-vm.sh").path,
                                          ["--config", dir.appendingPathComponent("kiosk.conf").path, kiosk,
                                           KernelHarness.root.appendingPathComponent("Tests/vm/kiosk-service.sh").path] + files,
                                          environment: ["KIOSK_VM_SCREENDUMP": screendumpPath, "KIOSK_VM_SERIAL2": serial2, "KIOSK_VM_DISPLAY_SIZE": "1"])
        }
        return KernelHarness.Run(status: vm.status, console: vm.output, serial2: KernelHarness.text(of: serial2))
    }

    func finished() async throws -> KernelHarness.Run {
        let run = try await Self.run.value
        #expect(run.status == 0, "\(run.console)")
        #expect(!run.console.contains("KIOSK-TIMEOUT"), "\(run.console)")
        return run
    }

    func section(_ name: String, _ run: KernelHarness.Run) throws -> String {
        try #require(run.section("KIOSK-\(name)-BEGIN", "KIOSK-\(name)-END"), "no section \(name) in:\n\(run.console)")
    }

    /// `KEY=VALUE` lines of a section (systemctl show's output).
    func properties(_ name: String, _ run: KernelHarness.Run) throws -> [String: String] {
        var properties: [String: String] = [:]
        for line in try section(name, run).split(separator: "\n") {
            let kv = line.split(separator: "=", maxSplits: 1)
            if kv.count == 2 { properties[String(kv[0])] = String(kv[1]) }
        }
        return properties
    }

    /// The seconds on the console line that starts with `marker` (`seconds=N`).
    func seconds(_ marker: String, _ run: KernelHarness.Run) throws -> Double {
        let line = try #require(run.console.split(separator: "\n").first { $0.hasPrefix(marker + " ") }, "no \(marker) in:\n\(run.console)")
        let field = try #require(line.split(separator: " ").first { $0.hasPrefix("seconds=") }, "\(line)")
        return try #require(Double(field.dropFirst("seconds=".count)), "\(line)")
    }

    func screendump(_ name: String) throws -> PPMImage {
        let path = Self.screendumpPath.replacingOccurrences(of: ".ppm", with: "-\(name).ppm")
        return try PPMImage(try #require(FileManager.default.contents(atPath: path), "no screendump at \(path)"))
    }

    /// `kiosk replay` on this machine: what the config draws after `trace`.
    func replay(_ trace: EvemuTrace, config: String) async throws -> PixelBuffer {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-service-replay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try config.write(to: folder.appendingPathComponent("kiosk.conf"), atomically: true, encoding: .utf8)
        try trace.text.write(to: folder.appendingPathComponent("trace.evemu"), atomically: true, encoding: .utf8)
        let replay = try await KernelHarness.kiosk(["replay", "trace.evemu", "--config", "kiosk.conf", "--screenshot", "replay.png"], in: folder)
        try #require(replay.status == 0, "kiosk replay: \(replay.stderr)")
        return try PixelBuffer(contentsOfPNG: folder.appendingPathComponent("replay.png").path)
    }

    @Test func theServiceComesUpAtBootAsTheKioskUserInItsSandboxAndSaysReadyWithItsDisplay() async throws {
        let run = try await finished()
        #expect(run.console.contains("KIOSK-VM-READY state=running"), "the boot finished with no unit failed:\n\(run.console)")
        let state = try properties("STATE-BOOT", run)
        #expect(state["ActiveState"] == "active" && state["SubState"] == "running", "\(state)")
        #expect(state["NRestarts"] == "0", "\(state)")
        // READY=1 comes with this status, sent once the first frame is on the screen.
        #expect(state["StatusText"]?.hasPrefix("generation 1; card0 connector Virtual-1 mode 800x480@") == true, "\(state)")

        let process = try section("PROCESS", run)
        for line in ["User: kiosk", "Groups: dialout input kiosk video", "NoNewPrivs:\t1", "Seccomp:\t2",
                     "CapEff:\t0000000000000000", "CapBnd:\t0000000000000000", "Network: private", "Interfaces: lo"] {
            #expect(process.contains(line + "\n"), "\(line) in:\n\(process)")
        }
        // The device allow-list, as the kernel applies it to the unit's processes.
        let devices = try section("DEVICES", run)
        for device in ["/dev/dri/card0", "/dev/input/event0", "/dev/ttyS1", "/dev/null"] {
            #expect(devices.contains("\(device) open\n"), "\(devices)")
        }
        for device in ["/dev/mem", "/dev/uinput", "/dev/kmsg", "/dev/vcs"] {
            #expect(devices.contains("\(device) denied\n"), "\(devices)")
        }
    }

    /// The screen after the touches (played through uinput by evemu, read by the service) equals
    /// what `kiosk replay --screenshot` draws on this machine for the same trace and config.
    @Test func theScreenShowsWhatKioskReplayDrawsForTheSameTouches() async throws {
        _ = try await finished()
        let screen = try screendump("touched")
        #expect(screen.width == 800 && screen.height == 480)
        let drawn = try await replay(Self.trace, config: Self.config)
        let (differing, first) = try screen.differences(from: drawn)
        #expect(differing == 0, "\(differing) pixels differ, first at \(first ?? "")")
        // Before any touch: the scene as the config lays it out.
        var untouched = Self.trace
        untouched.events = []
        let (differingAtBoot, firstAtBoot) = try await screendump("boot").differences(from: replay(untouched, config: Self.config))
        #expect(differingAtBoot == 0, "at boot \(differingAtBoot) pixels differ, first at \(firstAtBoot ?? "")")
    }

    @Test func reloadRefusesABrokenConfigAndAppliesAChangedOne() async throws {
        let run = try await finished()
        let lines = run.serial2.split(separator: "\n")
        let line = Self.broken.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0 == "rotation = 45" }.map { $0 + 1 } ?? 0
        #expect(lines.contains { $0.contains("config reload failed: /etc/kiosk/kiosk.conf:\(line): log.rotation: unknown key") }, "serial log:\n\(run.serial2)")
        let boot = try properties("STATE-BOOT", run), reloaded = try properties("STATE-RELOADED", run)
        #expect(reloaded["MainPID"] == boot["MainPID"], "the same kiosk: \(boot) \(reloaded)")
        #expect(reloaded["StatusText"]?.hasPrefix("generation 2; ") == true, "\(reloaded)")
        let (x, y) = Self.backgroundPoint
        let before = try screendump("touched").rgb(x: x, y: y), after = try screendump("reloaded").rgb(x: x, y: y)
        #expect(before == (0xee, 0xf0, 0xf3), "\(before)")
        #expect(after == (UInt8(Self.changedBackground.0), UInt8(Self.changedBackground.1), UInt8(Self.changedBackground.2)), "\(after)")
    }

    /// systemd's own lines about the unit, in order.
    func systemdLines(_ run: KernelHarness.Run) throws -> [Substring] {
        try section("SYSTEMD", run).split(separator: "\n")
    }

    /// `RestartSec=2s`; the margin is for starting kiosk under TCG on a loaded machine (measured: 5
    /// to 6 s from the signal to active).
    /// The control socket as installed: in the unit's RuntimeDirectory, mode 0660, the kiosk
    /// user's and group's; `kiosk control` sets the slider through it and reads the state back.
    @Test func theControlSocketIsInTheRuntimeDirectoryForTheKioskGroup() async throws {
        let run = try await finished()
        let text = try section("CONTROL", run)
        #expect(text.contains("socket 660 kiosk kiosk"), "\(text)")
        #expect(text.contains("set ok"), "\(text)")
        #expect(text.contains(#""name":"slider""#) && text.contains(#""value":0.25"#), "\(text)")
    }

    /// `systemctl restart kiosk` after that set: the slider is where it was set, restored from the
    /// state file in the unit's StateDirectory, which is the kiosk user's alone (UMask=0077).
    @Test func aRestartKeepsTheSliderWhereItWasSet() async throws {
        let run = try await finished()
        let text = try section("RESTART", run)
        #expect(!text.contains("KIOSK-TIMEOUT"), "\(text)")
        #expect(text.contains(#""name":"slider""#) && text.contains(#""value":0.25"#), "\(text)")
        #expect(text.contains("state file 600 kiosk kiosk"), "\(text)")
    }

    /// The display as a light under the unit, on a stand-in for the backlight class (Debian's
    /// kernel under QEMU has no backlight device; Tests/vm/kiosk-service.sh says how it stands in):
    /// the kiosk user, through the video group and the unit's ReadWritePaths=, writes brightness
    /// and bl_power.
    @Test func theBacklightIsWrittenThroughTheUnitsSandbox() async throws {
        let run = try await finished()
        let text = try section("BACKLIGHT", run)
        #expect(!text.contains("KIOSK-TIMEOUT"), "\(text)")
        #expect(text.contains("backlight found"), "\(text)")
        #expect(text.contains("brightness set 102"), "\(text)")
        #expect(text.contains("off bl_power 4"), "\(text)")
        #expect(text.contains(#""on":false"#) && text.contains(#""brightness":0.4"#), "\(text)")
        #expect(text.contains("woken bl_power 0"), "\(text)")
        #expect(!text.contains("not set") && !text.contains("not switched"), "\(text)")
    }

    @Test func aKilledKioskIsRestarted() async throws {
        let run = try await finished()
        let lines = try systemdLines(run)
        #expect(lines.contains { $0.contains("Main process exited, code=killed, status=9/KILL") }, "\(lines)")
        #expect(lines.contains { $0.contains("Scheduled restart job, restart counter is at 1.") }, "\(lines)")
        let took = try seconds("KIOSK-SIGKILL", run)
        #expect(took >= 2 && took <= 2 + 15, "restarted \(took) s after SIGKILL")
    }

    /// A stopped kiosk feeds no watchdog: after `WatchdogSec=10s` systemd kills it and, after
    /// `RestartSec=2s`, starts another (measured: 14.6 to 16.2 s from SIGSTOP to active).
    @Test func aHungLoopIsKilledByTheWatchdogAndRestarted() async throws {
        let run = try await finished()
        let lines = try systemdLines(run)
        let timeout = try #require(lines.firstIndex { $0.contains("Watchdog timeout (limit 10s)!") }, "\(lines)")
        #expect(lines[timeout...].contains { $0.contains("Failed with result 'watchdog'") }, "\(lines)")
        #expect(lines[timeout...].contains { $0.contains("Scheduled restart job, restart counter is at 2.") }, "\(lines)")
        let took = try seconds("KIOSK-SIGSTOP", run)
        #expect(took >= 10 && took <= 10 + 2 + 10, "restarted \(took) s after SIGSTOP")
        let end = try properties("STATE-END", run)
        #expect(end["ActiveState"] == "active" && end["NRestarts"] == "2", "\(end)")
        // A kiosk restarted by the watchdog leaves nothing in its state directory (no core) but
        // its state file (no stray temporary file either).
        #expect(try section("STATE-DIRECTORY", run).trimmingCharacters(in: .whitespacesAndNewlines) == "state.json")
    }

    /// The service's user and config, run without one of its groups: kiosk names that group, and
    /// only that one.
    @Test(arguments: [("input", "group 'input'"), ("video", "group video"), ("dialout", "group dialout")])
    func aUserWithoutAGroupIsToldWhichOne(missing: String, words: String) async throws {
        let run = try await finished()
        let text = try section("WITHOUT-\(missing)", run)
        #expect(text.contains(words), "kiosk run without \(missing):\n\(text)")
        for other in ["input", "video", "dialout"] where other != missing {
            #expect(!text.contains("group \(other)") && !text.contains("group '\(other)'"), "kiosk run without \(missing):\n\(text)")
        }
        // Without video there is no display: kiosk cannot start, and says so on its way out.
        if missing == "video" {
            #expect(run.console.contains("KIOSK-WITHOUT-video status=1"), "\(run.console)")
            #expect(text.contains("critical kiosk cannot start"), "\(text)")
            // The card is there; only the permission is missing, and the message says so first.
            #expect(text.contains("the DRM card could not be opened: card0: cannot open /dev/dri/card0: Permission denied"), "\(text)")
            #expect(!text.contains("no connected display"), "\(text)")
        }
    }

    /// Every line of kiosk's in the journal sits at its level's syslog priority, so
    /// `journalctl -p err -u kiosk` shows its errors and no more.
    @Test func theJournalHoldsEachLineAtItsLevelsPriority() async throws {
        let run = try await finished()
        let priorities = ["critical": 2, "error": 3, "warning": 4, "notice": 5, "info": 6, "debug": 7, "trace": 7]
        var seen: [Int: Int] = [:]
        for priority in 0...7 {
            for line in try section("JOURNAL-\(priority)", run).split(separator: "\n") {
                // The crash handler's own line (the watchdog's SIGABRT) is written at crit.
                let level = line.hasPrefix("kiosk: crashed on signal ") ? "critical"
                    : line.split(separator: "]", maxSplits: 1).last?.split(separator: " ").first.map(String.init) ?? ""
                #expect(priorities[level] == priority, "at priority \(priority): \(line)")
                seen[priority, default: 0] += 1
            }
        }
        let critical = try section("JOURNAL-2", run)
        #expect(critical.contains("kiosk: crashed on signal 6; display restored"), "the watchdog's SIGABRT: \(critical)")
        let errors = try section("JOURNAL-3", run)
        #expect(errors.contains("config reload failed"), "\(errors)")
        let info = try section("JOURNAL-6", run)
        #expect(info.contains("kiosk starting") && info.contains("config reloaded"), "\(info)")
        #expect((seen[4] ?? 0) > 0, "warnings: \(seen)")
    }

    /// The serial line (ttyS1) carries the same log: every kiosk that started, the reloads.
    @Test func theSerialLineCarriesTheLogOfEveryKioskThatRan() async throws {
        let run = try await finished()
        let lines = run.serial2.split(separator: "\n")
        // At boot, after SIGKILL, after the watchdog; then the three run by hand.
        #expect(lines.filter { $0.contains(" info kiosk starting ") }.count >= 3, "serial log:\n\(run.serial2)")
        for text in ["touchscreen attached", "config reload failed", "config reloaded", " stats "] {
            #expect(lines.contains { $0.contains(text) }, "\(text) in the serial log:\n\(run.serial2)")
        }
    }

    /// The level of a journal line (`[time] level message ...`, as `-o cat` prints it).
    func level(_ line: Substring) -> String {
        line.split(separator: "]", maxSplits: 1).last?.split(separator: " ").first.map(String.init) ?? ""
    }

    /// kiosk started at boot with only the VM's keyboard in /dev/input: its journal holds no error
    /// and, besides the stage overruns (a start under TCG is slow), a warning that it waits, and on
    /// this first boot of a fresh install the state file's absence (docs/state.md). Nor does it
    /// say that display hotplug is not watched.
    @Test func atBootWithOnlyAKeyboardTheJournalHoldsOneWarningThatKioskWaitsAndNoError() async throws {
        let run = try await finished()
        let lines = try section("ONLY-KEYBOARD", run).split(separator: "\n")
        #expect(lines.allSatisfy { level($0) == "warning" }, "kiosk's lines at warning or above with only a keyboard:\n\(lines.joined(separator: "\n"))")
        let warnings = lines.filter { !$0.contains("stage overran its budget") }
        #expect(warnings.count == 2, "kiosk's warnings with only a keyboard:\n\(warnings.joined(separator: "\n"))")
        #expect(warnings.contains { $0.contains("no touchscreen yet; waiting for one to be plugged in") }, "\(warnings)")
        #expect(warnings.contains { $0.contains("state file missing; starting from the config's values") && $0.contains("/var/lib/kiosk/state.json") },
                "\(warnings)")
    }

    /// Under the unit (RestrictAddressFamilies with AF_NETLINK, PrivateNetwork, PrivateUsers) the
    /// kernel's hotplug uevents reach kiosk: no kiosk that ran says hotplug is not watched, and a
    /// display unplugged while idle (a real uevent: the host resized virtio-gpu's head) is logged
    /// from the event itself; plugged in again, kiosk draws a whole frame, with what changed while
    /// it was away (the installed config reloaded: its own background again).
    @Test func underTheUnitADisplayUnpluggedAndPluggedInAgainIsNoticedAndRedrawn() async throws {
        let run = try await finished()
        for priority in 0...7 {
            let text = try section("JOURNAL-\(priority)", run)
            #expect(!text.contains("display hotplug not watched"), "at priority \(priority): \(text)")
        }
        #expect(run.console.contains("KIOSK-UNPLUGGED disconnected"), "\(run.console)")
        #expect(run.console.contains("KIOSK-PLUGGED connected"), "\(run.console)")
        let log = try section("LOG", run).split(separator: "\n")
        let unplugged = try #require(log.firstIndex { $0.contains("display unplugged") }, "\(log)")
        #expect(level(log[unplugged]) == "warning" && log[unplugged].contains("display.connector=Virtual-1"), "\(log[unplugged])")
        let reloaded = try #require(log.lastIndex { $0.contains("config reloaded") }, "\(log)")
        let plugged = try #require(log.firstIndex { $0.contains("display plugged in") }, "\(log)")
        let back = try #require(log.firstIndex { $0.contains("display back; drawing a whole frame") }, "\(log)")
        #expect(unplugged < reloaded && reloaded < plugged && plugged < back, "\(log)")
        #expect(log[plugged].contains("display.modes=") && log[plugged].contains("800x480"), "\(log[plugged])")
        #expect(!log.contains { $0.contains("display lost") }, "noticed by the hotplug event, not by a failed flip: \(log)")
        // Nothing drawn while unplugged, the reload's frame included; a whole frame once back.
        #expect(log[unplugged..<plugged].filter { $0.contains(" stats ") }.allSatisfy { $0.contains(" frames=0 ") }, "\(log[unplugged..<plugged])")
        let replugged = try screendump("replugged")
        let (x, y) = Self.backgroundPoint
        #expect(replugged.rgb(x: x, y: y) == (0xee, 0xf0, 0xf3), "\(replugged.rgb(x: x, y: y))")
        let drawn = try await replay(Self.trace, config: Self.config)
        let (differing, first) = try replugged.differences(from: drawn)
        #expect(differing == 0, "after the display came back \(differing) pixels differ from the replay, first at \(first ?? "")")
    }

    /// `systemd-analyze security kiosk` in the VM: docs/deploying.md's figure, at most.
    @Test func theUnitsExposureIsAsLowAsTheDocsSay() async throws {
        let run = try await finished()
        let security = try section("SECURITY", run)
        let overall = try #require(security.split(separator: "\n").first { $0.contains("Overall exposure level for kiosk.service:") }, "\(security)")
        // "→ Overall exposure level for kiosk.service: 0.4 SAFE 😀" (":-}" without UTF-8).
        let figure = overall.components(separatedBy: "kiosk.service:").last?.split(separator: " ").first.flatMap { Double($0) }
        #expect(figure.map { $0 <= 0.4 } == true, "\(overall)")
        for setting in ["PrivateUsers=", "ProtectProc=", "ProcSubset=", "IPAddressDeny=", "RemoveIPC=", "PrivateMounts="] {
            #expect(!security.contains("✗ \(setting)"), "\(setting) not set: \(security)")
        }
    }
}
