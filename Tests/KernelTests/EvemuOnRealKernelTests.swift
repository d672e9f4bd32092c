import Foundation
import Geometry
import Gestures
import InputEvents
import Testing

/// Our evemu traces against the real kernel input layer: a uinput device made from our header by
/// evemu-device, our events played by evemu-play, and what evdev delivers recorded by evemu-record.
@Suite("evemu on a real kernel", .enabled(if: KernelHarness.isAvailable, "needs qemu-system-x86, busybox-static, cpio, kmod, evemu-tools"))
struct EvemuOnRealKernelTests {
    /// A pinch, a tap whose press and release share one report, and a single-finger drag.
    func script() -> SyntheticTouchscreen {
        var panel = SyntheticTouchscreen(device: SyntheticTouchscreen.ft5406)
        panel.down(0, at: Point(x: 370, y: 190))
        panel.down(1, at: Point(x: 430, y: 190))
        panel.sync()
        for step in 1...12 {
            panel.wait(1.0 / 60)
            panel.move(0, to: Point(x: 370 - Double(step) * 3, y: 190))
            panel.move(1, to: Point(x: 430 + Double(step) * 3, y: 190))
            panel.sync()
        }
        panel.wait(1.0 / 60)
        panel.up(0)
        panel.up(1)
        panel.sync()
        panel.wait(0.1)
        panel.down(2, at: Point(x: 130, y: 424))
        panel.up(2)
        panel.sync()
        panel.wait(0.1)
        panel.down(3, at: Point(x: 160, y: 190))
        panel.sync()
        for step in 1...10 {
            panel.wait(1.0 / 60)
            panel.move(3, to: Point(x: 160 + Double(step) * 5, y: 190 + Double(step) * 4))
            panel.sync()
        }
        panel.wait(1.0 / 60)
        panel.up(3)
        panel.sync()
        return panel
    }

    /// The frames a trace decodes to, without their times (a replay keeps its own clock).
    func frames(_ trace: EvemuTrace) throws -> [String] {
        var decoder = try TouchDecoder(device: trace.device, screen: Size(width: 800, height: 480), positionAxes: nil)
        var out: [String] = []
        func add(_ f: TouchFrame) { out.append(f.touches.map { "\($0.id.rawValue) \($0.phase) \($0.location)" }.joined(separator: "; ")) }
        for event in trace.events {
            if let f = decoder.feed(event) { add(f) }
            while let f = decoder.nextPendingFrame() { add(f) }
        }
        return out
    }

    @Test func theKernelDeliversExactlyTheTouchesWeWrote() throws {
        let written = script().trace
        let roundTrip = try String(contentsOfFile: KernelHarness.root.appendingPathComponent("Tests/vm/evemu-roundtrip.sh").path, encoding: .utf8)
        let run = try KernelHarness.run(script: roundTrip, files: ["trace.evemu": written.text])
        #expect(run.status == 0, "\(run.console)")
        let text = try #require(run.section("KIOSK-RECORDED-BEGIN", "KIOSK-RECORDED-END"), "\(run.console)")
        let recorded = try EvemuTrace.parse(text, file: "recorded.evemu")

        // evemu-device rebuilt the device from our header: the same name, axes and properties.
        #expect(recorded.device.name == written.device.name)
        #expect(recorded.device.axes == written.device.axes)
        #expect(recorded.device.properties == written.device.properties)
        // The kernel passed our events through unchanged: nothing filtered, nothing added.
        let raw = { (t: EvemuTrace) in t.events.map { "\($0.type.rawValue) \($0.code.rawValue) \($0.value)" } }
        #expect(raw(recorded) == raw(written))
        // And they decode to the same frames, the same-report tap included.
        let expected = try frames(written)
        #expect(try frames(recorded) == expected)
        #expect(expected.contains { $0.hasSuffix("began (130.0, 424.0)") })
    }
}
