import Foundation
import InputEvents
import KioskCore
import KioskTestSupport
import Render
import Testing

/// The suite's VM, waited for before its test cases run (`KernelHarness.AfterItsVM`); they report its errors.
private func theVM() async { _ = try? await PacingOnRealKernelTests.run.value }

/// `kiosk run` on virtio-gpu, a driver without vblank interrupts (Tests/vm/pacing.sh): it is never
/// paced to vblanks it cannot know, and says so once.
@Suite("kiosk run's vblank pacing on a real kernel",
       .enabled(if: KernelHarness.isAvailable, "needs qemu-system-x86, busybox-static, cpio, kmod, evemu-tools"), .afterItsVM(theVM))
struct PacingOnRealKernelTests {
    static let config = KioskRunOnRealKernelTests.sceneOnly(
        (try? String(contentsOfFile: KioskRunOnRealKernelTests.configPath, encoding: .utf8)) ?? "") + """

        [display]
        font = "DejaVuSans.ttf"

        [log]
        serial = "none"
        stats_interval = 1

        """

    /// A finger dragging the yellow square for two seconds, a report at exactly 60 Hz.
    static var drag: EvemuTrace {
        let fingers = Fingers(panel: SyntheticTouchscreen.ft5406)
        let finger = fingers.down(Point(x: 160, y: 190))
        for k in 1...120 { fingers.move([finger[0]: Point(x: 160 + Double(k) * 3, y: 190)]) }
        fingers.up(finger, after: 0)
        return fingers.trace
    }

    static let run = Task<KernelHarness.Run, any Error> {
        let script = try String(contentsOfFile: KernelHarness.root.appendingPathComponent("Tests/vm/pacing.sh").path, encoding: .utf8)
        return try await KernelHarness.run(script: script, files: ["kiosk.conf": config, "drag.evemu": drag.text],
                                           binaries: [KernelHarness.kioskBinary, Font.defaultPath])
    }

    @Test func onVirtioGPUKioskSaysOnceThatTheVBlanksAreUnknownAndDrawsAtOnce() async throws {
        let run = try await Self.run.value
        #expect(run.status == 0, "\(run.console)")
        #expect(!run.console.contains("KIOSK-TIMEOUT"), "\(run.console)")
        #expect(run.console.contains("KIOSK-EXIT 0"), "\(run.console)")
        let log = try #require(run.section("KIOSK-LOG-BEGIN", "KIOSK-LOG-END"), "\(run.console)").split(separator: "\n")
        let unknown = log.filter { $0.contains("display: vblank timing unknown, drawing at once") }
        #expect(unknown.count == 1, "\(log)")
        #expect(unknown.first?.contains("drmWaitVBlank") == true, "\(unknown)")
        // Said at startup, before the first touch.
        let said = try #require(log.firstIndex { $0.contains("vblank timing unknown") })
        let attached = try #require(log.firstIndex { $0.contains("touchscreen attached") })
        #expect(said < attached, "\(log)")
        #expect(!log.contains { $0.contains("paced to vblanks") }, "\(log)")
        // The drag was drawn: a hundred flips 16.7 ms apart did not make a grid of them, and the
        // loop never waited for a vblank that does not come (it would draw one frame and stop).
        // Over 100 frames on a quiet machine; 15 to 46 seen with the machine at load 12 to 18,
        // when TCG plays the trace and draws at a fraction of its speed.
        let frames = log.filter { $0.contains(" stats ") }.compactMap { line -> Int? in
            guard let r = line.range(of: " frames=") else { return nil }
            return Int(line[r.upperBound...].prefix { $0.isNumber })
        }
        #expect(frames.reduce(0, +) > 12, "\(log.filter { $0.contains(" stats ") })")
    }
}
