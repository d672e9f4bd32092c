import Foundation
import Gestures
import InputEvents
import KioskCore
import KioskTestSupport
import Render
import Testing

/// The suite's VM, waited for before its test cases run (`KernelHarness.AfterItsVM`); they report its errors.
private func theVM() async { _ = try? await DisplayLostOnRealKernelTests.run.value }

/// `kiosk run` losing DRM master under a real kernel and getting it back (Tests/vm/display-lost.sh):
/// a small C tool (Tests/vm/master-thief.c) takes master away the way logind does on a VT switch,
/// by dropping it on kiosk's own file, and holds it until the script lets it go.
@Suite("kiosk run losing the display on a real kernel",
       .enabled(if: KernelHarness.isAvailable && KernelHarness.hasCCompiler, "needs qemu-system-x86, busybox-static, cpio, kmod, evemu-tools, a C compiler"), .afterItsVM(theVM))
struct DisplayLostOnRealKernelTests {
    static let screendumpPath = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-lost-\(UUID().uuidString).ppm").path

    static let config = KioskRunOnRealKernelTests.sceneOnly(
        (try? String(contentsOfFile: KioskRunOnRealKernelTests.configPath, encoding: .utf8)) ?? "") + """

        [display]
        font = "DejaVuSans.ttf"

        [log]
        serial = "none"
        stats_interval = 1

        """

    /// `taps` taps on the button, a second apart: the VM plays one tap twice while kiosk has no
    /// display; the host replays both in one file.
    static func taps(_ taps: Int) -> EvemuTrace {
        let panel = Fingers(panel: SyntheticTouchscreen.ft5406, clock: VirtualClock(Instant(seconds: 1)))
        for n in 0..<taps {
            if n > 0 { panel.wait(1) }
            panel.up(panel.down(Point(x: 130, y: 424)), after: 0.08)
        }
        return panel.trace
    }

    static let run = Task<KernelHarness.Run, any Error> {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-thief-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = try String(contentsOfFile: KernelHarness.root.appendingPathComponent("Tests/vm/display-lost.sh").path, encoding: .utf8)
        let thief = try await KernelHarness.buildC("Tests/vm/master-thief.c", flags: "$(pkg-config --cflags libdrm)", into: folder, as: "master-thief")
        return try await KernelHarness.run(script: script, files: ["kiosk.conf": config, "tap.evemu": taps(1).text],
                                     binaries: [KernelHarness.kioskBinary, Font.defaultPath, thief],
                                     screendump: screendumpPath)
    }

    func finished() async throws -> (run: KernelHarness.Run, log: [Substring]) {
        let run = try await Self.run.value
        #expect(run.status == 0, "\(run.console)")
        #expect(!run.console.contains("KIOSK-TIMEOUT"), "\(run.console)")
        #expect(run.console.contains("KIOSK-THIEF-EXIT 0"), "\(run.section("KIOSK-THIEF-BEGIN", "KIOSK-THIEF-END") ?? run.console)")
        let log = try #require(run.section("KIOSK-LOG-BEGIN", "KIOSK-LOG-END"), "\(run.console)").split(separator: "\n")
        return (run, log)
    }

    @Test func aRefusedPageFlipIsLoggedTheRetriesAreRefusedWhileMasterIsHeldThenTheDisplayComesBack() async throws {
        let (run, log) = try await finished()
        let lost = try #require(log.firstIndex { $0.contains("display lost") }, "\(log)")
        #expect(log[lost].contains(" error "), "\(log[lost])")
        #expect(log[lost].contains("Permission denied") || log[lost].contains("EACCES"), "the kernel refused the flip: \(log[lost])")
        let back = try #require(log.firstIndex { $0.contains("display back; drawing a whole frame") }, "\(log)")
        #expect(back > lost)
        // A retry fell while the thief held master: the kernel refused it as held by another.
        let stillDown = try #require(log[lost..<back].first { $0.contains("display still down") }, "\(log[lost..<back])")
        #expect(stillDown.contains("EBUSY") && stillDown.contains("another process holds DRM master"), "\(stillDown)")
        // The second tap, played once the display was lost, reached the button: input went on.
        #expect(log[lost..<back].contains { $0.contains("primaryActionTriggered") }, "\(log[lost..<back])")
        #expect(run.console.contains("KIOSK-EXIT 0"), "\(run.console)")
        #expect(log.last?.contains("stopping on SIGTERM; display restored") == true, "\(log.suffix(3))")
    }

    /// What is on screen after the display came back is the whole scene as it is now, both taps
    /// included: `kiosk replay` of the same taps and config draws the same picture.
    @Test func afterItComesBackTheScreenShowsWhatKioskReplayDraws() async throws {
        _ = try await finished()
        let screen = try PPMImage(try #require(FileManager.default.contents(atPath: Self.screendumpPath), "no screendump"))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-lost-replay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(atPath: Font.defaultPath, toPath: folder.appendingPathComponent("DejaVuSans.ttf").path)
        try Self.config.write(to: folder.appendingPathComponent("kiosk.conf"), atomically: true, encoding: .utf8)
        try Self.taps(2).text.write(to: folder.appendingPathComponent("tap.evemu"), atomically: true, encoding: .utf8)
        let replay = try await KernelHarness.kiosk(["replay", "tap.evemu", "--config", "kiosk.conf", "--screenshot", "replay.png",
                                              "--state", "state.json"], in: folder)
        try #require(replay.status == 0, "kiosk replay: \(replay.stderr)")
        let state = try String(contentsOf: folder.appendingPathComponent("state.json"), encoding: .utf8)
        #expect(state.contains("\"taps\": 2,"), "the button tapped twice: \(state)")
        let drawn = try PixelBuffer(contentsOfPNG: folder.appendingPathComponent("replay.png").path)
        let (differing, first) = try screen.differences(from: drawn)
        #expect(differing == 0, "\(differing) pixels differ, first at \(first ?? ""); screendump kept at \(Self.screendumpPath)")
        if differing == 0 { try? FileManager.default.removeItem(atPath: Self.screendumpPath) }
    }
}
