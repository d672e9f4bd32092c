import Foundation
import Gestures
import InputEvents
import KioskCore
import Testing

/// The suite's VM, waited for before its test cases run (`KernelHarness.AfterItsVM`); they report its errors.
private func theVM() async { _ = try? await EvemuOnRealKernelTests.run.value }

/// Our evemu traces against the real kernel input layer: a uinput device made from our header by
/// evemu-device, our events played by evemu-play, and what evdev delivers recorded by evemu-record.
@Suite("evemu on a real kernel", .enabled(if: KernelHarness.isAvailable, "needs qemu-system-x86, busybox-static, cpio, kmod, evemu-tools"),
       .afterItsVM(theVM))
struct EvemuOnRealKernelTests {
    static let run = Task<KernelHarness.Run, any Error> {
        let roundTrip = try String(contentsOfFile: KernelHarness.root.appendingPathComponent("Tests/vm/evemu-roundtrip.sh").path, encoding: .utf8)
        return try await KernelHarness.run(script: roundTrip, files: ["trace.evemu": Traces.pinchTapDrag.text])
    }

    @Test func theKernelDeliversExactlyTheTouchesWeWrote() async throws {
        let written = Traces.pinchTapDrag
        let run = try await Self.run.value
        #expect(run.status == 0, "\(run.console)")
        let text = try #require(run.section("KIOSK-RECORDED-BEGIN", "KIOSK-RECORDED-END"), "\(run.console)")
        let recorded = try EvemuTrace.parse(text, file: "recorded.evemu")

        // evemu-device rebuilt the device from our header: the same name, axes and properties.
        #expect(recorded.device.name == written.device.name)
        #expect(recorded.device.axes == written.device.axes)
        #expect(recorded.device.properties == written.device.properties)
        // The kernel passed our events through unchanged: nothing filtered, nothing added.
        #expect(Traces.rawEvents(recorded) == Traces.rawEvents(written))
        // And they decode to the same frames, the same-report tap included.
        let expected = try Traces.decodedFrames(written)
        #expect(try Traces.decodedFrames(recorded) == expected)
        #expect(expected.contains("3 began 130.0 424.0"))
    }
}
