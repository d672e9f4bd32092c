import Foundation
import Geometry
import Gestures
import InputEvents
import Testing
import TouchInput

/// `kiosk devices`, `kiosk touches` and `kiosk record` on a real kernel's evdev, fed by a uinput
/// FT5406 panel. One VM boot serves every test here (Tests/vm/live-input.sh).
@Suite("Live input on a real kernel", .enabled(if: KernelHarness.isAvailable, "needs qemu-system-x86, busybox-static, cpio, kmod, evemu-tools"))
struct LiveInputTests {
    static let played = Traces.pinchTapDrag

    /// Two fingers come down (`floodDown`, played while kiosk reads), then drag for 2000 reports
    /// stamped with one time, so evemu-play sends them at once, and lift (`floodRest`, played
    /// while kiosk is stopped): far more than the kernel's buffer holds for a reader that is not reading.
    static let (floodDown, floodRest): (EvemuTrace, EvemuTrace) = {
        var panel = SyntheticTouchscreen(device: SyntheticTouchscreen.ft5406)
        panel.down(0, at: Point(x: 100, y: 100))
        panel.down(1, at: Point(x: 600, y: 300))
        panel.sync()
        let downCount = panel.trace.events.count
        for step in 1...2000 {
            let k = Double(step % 200)
            panel.move(0, to: Point(x: 100 + k, y: 100 + k / 2))
            panel.move(1, to: Point(x: 600 - k, y: 300 - k / 2))
            panel.sync()
        }
        panel.up(0)
        panel.up(1)
        panel.sync()
        let all = panel.trace
        return (EvemuTrace(device: all.device, events: Array(all.events[..<downCount])),
                EvemuTrace(device: all.device, events: Array(all.events[downCount...])))
    }()

    /// A finger that comes down and drags, and never lifts: its device goes away under it.
    static let drag: EvemuTrace = {
        var panel = SyntheticTouchscreen(device: SyntheticTouchscreen.ft5406)
        panel.down(0, at: Point(x: 200, y: 200))
        panel.sync()
        for step in 1...5 {
            panel.wait(1.0 / 60)
            panel.move(0, to: Point(x: 200 + Double(step) * 10, y: 200))
            panel.sync()
        }
        return panel.trace
    }()

    static let tap: EvemuTrace = {
        var panel = SyntheticTouchscreen(device: SyntheticTouchscreen.ft5406)
        panel.down(0, at: Point(x: 400, y: 300))
        panel.sync()
        panel.wait(0.05)
        panel.up(0)
        panel.sync()
        return panel.trace
    }()

    static let run: Result<KernelHarness.Run, any Error> = Result(catching: {
        let script = try String(contentsOfFile: KernelHarness.root.appendingPathComponent("Tests/vm/live-input.sh").path, encoding: .utf8)
        return try KernelHarness.run(script: script, files: ["trace.evemu": played.text, "flood-down.evemu": floodDown.text, "flood-rest.evemu": floodRest.text,
                                             "drag.evemu": drag.text, "tap.evemu": tap.text],
                                     binaries: [KernelHarness.kioskBinary])
    })

    func section(_ name: String) throws -> String {
        let run = try Self.run.get()
        #expect(run.status == 0)
        return try #require(run.section("KIOSK-\(name)-BEGIN", "KIOSK-\(name)-END"), "\(run.console)")
    }

    @Test func devicesMarksTheTouchscreenAndSaysWhyTheKeyboardWasSkipped() throws {
        let text = try section("DEVICES")
        #expect(text.contains("\"generic ft5x06 (79)\"\n    USED: multitouch protocol B, 10 slots"), "\(text)")
        #expect(text.contains("ABS_MT_SLOT 0..9 (10 slots)"))
        #expect(text.contains("properties: INPUT_PROP_DIRECT"))
        #expect(text.contains("\"AT Translated Set 2 keyboard\"\n    skipped: no touch axes"))
    }

    @Test func touchesDeliversExactlyTheFramesTheTraceDecoderGives() throws {
        let expected = try Traces.decodedFrames(Self.played)
        let live = try section("TOUCHES").split(separator: "\n").map { line in
            String(line.split(separator: " ", maxSplits: 1).last ?? "")
        }
        #expect(live == expected)
        #expect(expected.contains("3 began 130.0 424.0") && expected.contains("3 ended 130.0 424.0"), "the same-report tap survives")
    }

    @Test func recordWritesWhatEvemuPlayPlayed() throws {
        let recorded = try EvemuTrace.parse(try section("RECORDED"), file: "recorded.evemu")
        #expect(recorded.device.name == Self.played.device.name)
        #expect(recorded.device.axes == Self.played.device.axes)
        #expect(Traces.rawEvents(recorded) == Traces.rawEvents(Self.played))
        #expect(recorded.events.first?.time == .zero)
        #expect(try section("RECORD-LOG").contains("\(Self.played.events.count) events from /dev/input/event"))
    }

    @Test func aKernelBufferOverflowIsResynchronisedAndLeavesNoTouchDown() throws {
        let log = try section("FLOOD-LOG")
        #expect(log.contains("resynchronised"), "the kernel dropped events: \(log)")
        let frames = try section("FLOOD").split(separator: "\n").map { String($0.split(separator: " ", maxSplits: 1).last ?? "") }
        #expect(frames.first == "1 began 100.0 100.0; 2 began 600.0 300.0", "seen down before the reader stopped")
        // After the gap both end, where the kernel last had them: nothing is left down.
        #expect(frames.last?.hasPrefix("1 ended") == true && frames.last?.contains("; 2 ended") == true, "\(frames.suffix(3))")
        #expect(frames.count < 100, "the flood was dropped, not delivered: \(frames.count) frames")
    }

    @Test func aTouchscreenPluggedInLaterIsTakenAndOneRemovedMidDragCancelsItsTouch() throws {
        let log = try section("HOTPLUG-LOG").split(separator: "\n").map(String.init)
        let changes = log.filter { $0.contains("attached") || $0.contains("detached") }
        #expect(changes.count == 3, "\(log)")
        #expect(changes.first?.contains("attached /dev/input/event") == true && changes.first?.contains("multitouch protocol B") == true)
        #expect(changes.dropFirst().first?.contains("detached") == true)
        #expect(changes.last?.contains("attached") == true)
        let frames = try section("HOTPLUG").split(separator: "\n").map { String($0.split(separator: " ", maxSplits: 1).last ?? "") }
        #expect(frames.first == "1 began 200.0 200.0")
        // Removed mid-drag: the kernel releases BTN_TOUCH but not the slot, and the touch is
        // cancelled where it last was, never ended (which would fire a button under the finger).
        #expect(frames.contains("1 cancelled 250.0 200.0"), "\(frames)")
        #expect(!frames.contains { $0.hasPrefix("1 ended") })
        // The new device's tap is a new touch.
        #expect(frames.suffix(2) == ["2 began 400.0 300.0", "2 ended 400.0 300.0"], "\(frames)")
    }
}
