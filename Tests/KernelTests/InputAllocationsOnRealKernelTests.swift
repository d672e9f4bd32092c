import Foundation
import Gestures
import InputEvents
import KioskCore
import KioskTestSupport
import Render
import Testing

/// The suite's VM, waited for before its test cases run (`KernelHarness.AfterItsVM`); they report its errors.
private func theVM() async { _ = try? await InputAllocationsOnRealKernelTests.run.value }

/// The live input path allocates nothing per report, measured in a release build of `kiosk run`
/// on a real kernel (Tests/vm/input-allocations.sh): a malloc counter (Tests/vm/malloc-count.c)
/// preloaded into kiosk, a finger held on the button and moved a pixel back and forth, so each
/// report goes through the read (libevdev), decoding, calibration, the TouchFrame and the
/// gestures, and nothing is drawn. (A debug build allocates about 200 times a report here.)
@Suite("kiosk run's input path on a real kernel, allocations counted",
       .enabled(if: KernelHarness.isAvailable && KernelHarness.hasCCompiler, "needs qemu-system-x86, busybox-static, cpio, kmod, evemu-tools, a C compiler"), .afterItsVM(theVM))
struct InputAllocationsOnRealKernelTests {
    /// No stats line and a budget no stage overruns under TCG: no log line (which allocates its
    /// text) comes between the counts.
    static let config = KioskRunOnRealKernelTests.sceneOnly(
        (try? String(contentsOfFile: KioskRunOnRealKernelTests.configPath, encoding: .utf8)) ?? "") + """

        [display]
        font = "DejaVuSans.ttf"

        [log]
        serial = "none"
        stats_interval = 0

        [loop]
        frame_budget = 1000

        """

    /// A finger put down on the button, `wiggles` reports of it moving a pixel and back, its lift.
    static let traces: (down: EvemuTrace, wiggle200: EvemuTrace, wiggle400: EvemuTrace, up: EvemuTrace) = {
        let panel = Fingers(panel: SyntheticTouchscreen.ft5406, clock: VirtualClock(Instant(seconds: 1)))
        let at = Point(x: 130, y: 424)
        let finger = panel.down(at)[0]
        let downEnd = panel.events.count
        func wiggle(_ n: Int) {
            for i in 0..<n { panel.move([finger: Point(x: at.x + Double(i % 2 == 0 ? 1 : 0), y: at.y)]) }
        }
        wiggle(200)
        let firstEnd = panel.events.count
        wiggle(400)
        let secondEnd = panel.events.count
        panel.up([finger])
        let whole = panel.trace
        func slice(_ r: Range<Int>) -> EvemuTrace {
            var t = whole
            t.events = Array(whole.events[r])
            return t
        }
        return (slice(0..<downEnd), slice(downEnd..<firstEnd), slice(firstEnd..<secondEnd), slice(secondEnd..<whole.events.count))
    }()

    static let run = Task<KernelHarness.Run, any Error> {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-mallocs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let counter = try await KernelHarness.buildC("Tests/vm/malloc-count.c", flags: "-shared -fPIC", into: folder, as: "malloc-count.so")
        let script = try String(contentsOfFile: KernelHarness.root.appendingPathComponent("Tests/vm/input-allocations.sh").path, encoding: .utf8)
        return try await KernelHarness.run(
            script: script,
            files: ["kiosk.conf": config, "down.evemu": traces.down.text, "wiggle200.evemu": traces.wiggle200.text,
                    "wiggle400.evemu": traces.wiggle400.text, "up.evemu": traces.up.text]
                ,
            binaries: [try await KernelHarness.releaseKioskBinary.value, Font.defaultPath, counter])
    }

    @Test func reportsReadDecodedAndHandedToTheGesturesAllocateNothing() async throws {
        let run = try await Self.run.value
        #expect(run.status == 0, "\(run.console)")
        #expect(!run.console.contains("KIOSK-TIMEOUT"), "\(run.console)")
        #expect(run.console.contains("KIOSK-EXIT 0"), "\(run.console)")
        let line = try #require(run.console.split(separator: "\n").first { $0.hasPrefix("KIOSK-COUNTS") }, "\(run.console)")
        let counts = line.split(separator: " ").dropFirst().compactMap { Int($0) }
        try #require(counts.count == 3, "\(line)")
        let first = counts[1] - counts[0], second = counts[2] - counts[1]
        // The counter counts: kiosk allocated while starting and drawing its first frames.
        #expect(counts[0] > 1000, "\(counts)")
        // 200 more reports, 0 more allocations; and none in the 200 or 400 themselves.
        #expect(second - first == 0, "200 more reports made \(second - first) more allocations (\(counts))")
        #expect(first == 0 && second == 0, "allocations while reports came: \(first) for 200, \(second) for 400 (\(counts))")
    }
}
