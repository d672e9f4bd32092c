import Foundation
import Gestures
import InputEvents
import KioskCore
import Render
import Testing

/// The suite's VM, waited for before its test cases run (`KernelHarness.AfterItsVM`); they report its errors.
private func theVM() async { _ = try? await DisplayHotplugOnRealKernelTests.run.value }

/// `kiosk run` on a real kernel with no touchscreen at first, then a display unplugged and plugged
/// in again while kiosk is idle (Tests/vm/display-hotplug.sh). The unplug is the connector forced
/// off through sysfs; the kernel's own DRM hotplug uevent is raised by resizing virtio-gpu's head
/// from the host (QEMU's VNC server, Tests/vm/display-size.py), the path a real HDMI unplug takes.
@Suite("kiosk run waiting for a panel and losing its display on a real kernel",
       .enabled(if: KernelHarness.isAvailable, "needs qemu-system-x86, busybox-static, cpio, kmod, evemu-tools"), .afterItsVM(theVM))
struct DisplayHotplugOnRealKernelTests {
    static let screendumpPath = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-hotplug-\(UUID().uuidString).ppm").path

    static let run = Task<KernelHarness.Run, any Error> {
        let script = try String(contentsOfFile: KernelHarness.root.appendingPathComponent("Tests/vm/display-hotplug.sh").path, encoding: .utf8)
        return try await KernelHarness.run(script: script, files: ["kiosk.conf": DisplayLostOnRealKernelTests.config,
                                                            "tap.evemu": DisplayLostOnRealKernelTests.taps(1).text],
                                     binaries: [KernelHarness.kioskBinary, Font.defaultPath],
                                     screendump: screendumpPath, resizableDisplay: true)
    }

    func finished() async throws -> (run: KernelHarness.Run, log: [Substring]) {
        let run = try await Self.run.value
        #expect(run.status == 0, "\(run.console)")
        #expect(!run.console.contains("KIOSK-TIMEOUT"), "\(run.console)")
        let log = try #require(run.section("KIOSK-LOG-BEGIN", "KIOSK-LOG-END"), "\(run.console)").split(separator: "\n")
        return (run, log)
    }

    /// Only a keyboard at start: one warning that kiosk waits, the keyboard at debug, no error;
    /// then the panel is taken when it appears.
    @Test func withOnlyAKeyboardKioskWaitsWithOneWarningAndNoErrorThenTakesThePanel() async throws {
        let (run, log) = try await finished()
        #expect(run.section("KIOSK-INPUT-BEGIN", "KIOSK-INPUT-END")?.contains("event") == true, "the VM's keyboard is there")
        let waiting = log.filter { $0.contains("no touchscreen yet; waiting for one to be plugged in") }
        #expect(waiting.count == 1, "\(log)")
        #expect(waiting.first?.contains(" warning ") == true && waiting.first?.contains("input.waiting=\"no touchscreen in /dev/input yet\"") == true,
                "\(waiting)")
        let skipped = log.filter { $0.contains("input device skipped: not a touchscreen") }
        #expect(skipped.contains { $0.contains(" debug ") && $0.contains("AT Translated Set 2 keyboard") && $0.contains("no touch axes") }, "\(log)")
        #expect(!log.contains { $0.contains(" error ") || $0.contains(" critical ") }, "\(log)")
        let attached = try #require(log.firstIndex { $0.contains("touchscreen attached") }, "\(log)")
        #expect(attached > log.firstIndex { $0.contains("no touchscreen yet") }!)
    }

    /// Unplugged while idle, kiosk says so from the hotplug event itself, not at a page flip;
    /// plugged in again, it says so and draws a whole frame at once.
    @Test func anUnpluggedDisplayIsLoggedAtOnceAndWhenItIsBackAWholeFrameIsDrawn() async throws {
        let (run, log) = try await finished()
        #expect(run.console.contains("KIOSK-UNPLUGGED disconnected"), "\(run.console)")
        #expect(run.console.contains("KIOSK-PLUGGED connected"), "\(run.console)")
        let unplugged = try #require(log.firstIndex { $0.contains("display unplugged") }, "\(log)")
        #expect(log[unplugged].contains(" warning ") && log[unplugged].contains("display.connector=Virtual-1"), "\(log[unplugged])")
        #expect(!log.contains { $0.contains("display lost") }, "noticed by the hotplug event, not by a failed flip: \(log)")
        let tap = try #require(log.firstIndex { $0.contains("primaryActionTriggered") }, "\(log)")
        let plugged = try #require(log.firstIndex { $0.contains("display plugged in") }, "\(log)")
        let back = try #require(log.firstIndex { $0.contains("display back; drawing a whole frame") }, "\(log)")
        #expect(unplugged < tap && tap < plugged && plugged < back, "\(log)")
        #expect(log[plugged].contains("display.modes=") && log[plugged].contains("800x480"), "\(log[plugged])")
        // Nothing was drawn while unplugged: the stats between say frames=0.
        #expect(log[unplugged..<plugged].filter { $0.contains(" stats ") }.allSatisfy { $0.contains(" frames=0 ") }, "\(log[unplugged..<plugged])")
        #expect(run.console.contains("KIOSK-EXIT 0"), "\(run.console)")
    }

    /// The frame drawn on the way back is the whole scene with the tap made while unplugged:
    /// `kiosk replay` of the same tap and config draws the same picture.
    @Test func theDisplayBackShowsWhatKioskReplayDraws() async throws {
        _ = try await finished()
        let screen = try PPMImage(try #require(FileManager.default.contents(atPath: Self.screendumpPath), "no screendump"))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-hotplug-replay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(atPath: Font.defaultPath, toPath: folder.appendingPathComponent("DejaVuSans.ttf").path)
        try DisplayLostOnRealKernelTests.config.write(to: folder.appendingPathComponent("kiosk.conf"), atomically: true, encoding: .utf8)
        try DisplayLostOnRealKernelTests.taps(1).text.write(to: folder.appendingPathComponent("tap.evemu"), atomically: true, encoding: .utf8)
        let replay = try await KernelHarness.kiosk(["replay", "tap.evemu", "--config", "kiosk.conf", "--screenshot", "replay.png",
                                              "--state", "state.json"], in: folder)
        try #require(replay.status == 0, "kiosk replay: \(replay.stderr)")
        let state = try String(contentsOf: folder.appendingPathComponent("state.json"), encoding: .utf8)
        #expect(state.contains("\"taps\": 1,"), "the button tapped once: \(state)")
        let drawn = try PixelBuffer(contentsOfPNG: folder.appendingPathComponent("replay.png").path)
        #expect(screen.width == 800 && screen.height == 480)
        let (differing, first) = try screen.differences(from: drawn)
        #expect(differing == 0, "\(differing) pixels differ, first at \(first ?? ""); screendump kept at \(Self.screendumpPath)")
        if differing == 0 { try? FileManager.default.removeItem(atPath: Self.screendumpPath) }
    }
}
