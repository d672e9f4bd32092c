import Foundation
import Gestures
import InputEvents
import KioskCore
import KioskTestSupport
import Testing

/// The suite's VM, waited for before its test cases run (`KernelHarness.AfterItsVM`); they report its errors.
private func theVM() async { _ = try? await UnplugOnRealKernelTests.run.value }

/// A touchscreen taken away mid-drag, on a real kernel: inhibited (the kernel releases what is down
/// and closes that report with SYN_REPORT value 1; the device stays), then destroyed. On every kind
/// of panel the touches come out cancelled, never ended, so a button under the finger does not
/// fire. One VM boot serves every test here (Tests/vm/unplug.sh).
@Suite("Unplugging panels on a real kernel", .enabled(if: KernelHarness.isAvailable, "needs qemu-system-x86, busybox-static, cpio, kmod, evemu-tools"), .afterItsVM(theVM))
struct UnplugOnRealKernelTests {
    /// A finger that comes down at (200, 240) and drags to (275, 240), and never lifts. (Points each
    /// panel's units land on exactly.)
    static func drag(_ device: DeviceDescription) -> EvemuTrace {
        let panel = Fingers(panel: device, clock: VirtualClock(Instant(seconds: 1)))
        let finger = panel.down(Point(x: 200, y: 240))
        for step in 1...3 { panel.move([finger[0]: Point(x: 200 + Double(step) * 25, y: 240)]) }
        return panel.trace
    }

    static let run = Task<KernelHarness.Run, any Error> {
        let script = try String(contentsOfFile: KernelHarness.root.appendingPathComponent("Tests/vm/unplug.sh").path, encoding: .utf8)
        return try await KernelHarness.run(script: script, files: [
            "ft5406.evemu": drag(SyntheticTouchscreen.ft5406).text,
            "protocol-a.evemu": drag(SyntheticTouchscreen.protocolA).text,
            "resistive.evemu": drag(SyntheticTouchscreen.resistive).text,
        ], binaries: [KernelHarness.kioskBinary])
    }

    func section(_ name: String) async throws -> String {
        let run = try await Self.run.value
        #expect(run.status == 0)
        return try #require(run.section("KIOSK-\(name)-BEGIN", "KIOSK-\(name)-END"), "\(run.console)")
    }

    /// The frames `kiosk touches` printed, without their times.
    func frames(_ name: String) async throws -> [String] {
        try await section(name).split(separator: "\n").map { String($0.split(separator: " ", maxSplits: 1).last ?? "") }
    }

    static let dragged = ["began 200.0 240.0", "moved 225.0 240.0", "moved 250.0 240.0", "moved 275.0 240.0"]

    @Test(arguments: ["FT5406", "PROTOCOL-A", "RESISTIVE"])
    func aPanelInhibitedThenDestroyedMidDragCancelsBothTouches(panel: String) async throws {
        let live = try await frames(panel)
        let expected = Self.dragged.map { "1 \($0)" } + ["1 cancelled 275.0 240.0"]
            + Self.dragged.map { "2 \($0)" } + ["2 cancelled 275.0 240.0"]
        #expect(live == expected, "\(panel): \(live)")
        #expect(!live.contains { $0.contains("ended") })
        let log = try await section("\(panel)-LOG")
        #expect(log.contains("detached /dev/input/event"), "\(log)")
        #expect(log.contains("input.unplug_cancelled=2 input.devices_attached=1 input.devices_removed=1"), "\(log)")
    }

    @Test(arguments: ["FT5406", "PROTOCOL-A", "RESISTIVE"])
    func theKernelsReleaseIsRecordedAndReplaysAsTheSameCancel(panel: String) async throws {
        let recorded = try await EvemuTrace.parse(section("\(panel)-RECORDED"), file: "\(panel).evemu")
        // What the inhibit wrote: BTN_TOUCH 0, then the kernel's own SYN_REPORT, value 1.
        let release = try #require(recorded.events.firstIndex { $0.synchronization == .report && $0.value == 1 }, "\(recorded.events)")
        #expect(recorded.events[release - 1].key == .touch && recorded.events[release - 1].value == 0)
        // Replayed, the recording gives what kiosk touches printed live, the cancel included.
        let replayed = try Traces.decodedFrames(recorded)
        let live = try await frames(panel)
        #expect(Array(replayed.prefix(5)) == Array(live.prefix(5)), "\(replayed)")
        #expect(replayed.dropFirst(4).first == "1 cancelled 275.0 240.0")
    }
}
