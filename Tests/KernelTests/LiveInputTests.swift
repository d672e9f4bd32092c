import Foundation
import Gestures
import InputEvents
import KioskCore
import KioskTestSupport
import Render
import Testing
import TouchInput

/// The suite's VM, waited for before its test cases run (`KernelHarness.AfterItsVM`); they report its errors.
private func theVM() async { _ = try? await LiveInputTests.run.value }

/// `kiosk devices`, `kiosk touches` and `kiosk record` on a real kernel's evdev, fed by a uinput
/// FT5406 panel. One VM boot serves every test here (Tests/vm/live-input.sh).
@Suite("Live input on a real kernel", .enabled(if: KernelHarness.isAvailable, "needs qemu-system-x86, busybox-static, cpio, kmod, evemu-tools"), .afterItsVM(theVM))
struct LiveInputTests {
    static let played = Traces.pinchTapDrag

    /// Two fingers come down (`floodDown`, played while kiosk reads), then drag for 2000 reports
    /// stamped with one time, so evemu-play sends them at once, then the first lifts and the second
    /// goes to (700, 400) and stays (`floodRest`, played while kiosk is stopped): far more than the
    /// kernel's buffer holds for a reader that is not reading. The second lifts later (`floodUp`).
    static let (floodDown, floodRest, floodUp): (EvemuTrace, EvemuTrace, EvemuTrace) = {
        let panel = Fingers(panel: SyntheticTouchscreen.ft5406, clock: VirtualClock(Instant(seconds: 1)))
        let f = panel.down(Point(x: 100, y: 100), Point(x: 600, y: 300))
        let downCount = panel.trace.events.count
        // Reports as fast as the panel can write them: no time between them.
        for step in 1...2000 {
            let k = Double(step % 200)
            panel.move([f[0]: Point(x: 100 + k, y: 100 + k / 2), f[1]: Point(x: 600 - k, y: 300 - k / 2)], after: 0)
        }
        panel.report([f[0]: .up, f[1]: .move(Point(x: 700, y: 400))])
        let restCount = panel.trace.events.count
        panel.up([f[1]], after: 0.1)
        let all = panel.trace
        return (EvemuTrace(device: all.device, events: Array(all.events[..<downCount])),
                EvemuTrace(device: all.device, events: Array(all.events[downCount..<restCount])),
                EvemuTrace(device: all.device, events: Array(all.events[restCount...])))
    }()

    /// A finger that comes down and drags, and never lifts: its device goes away under it.
    static let drag: EvemuTrace = {
        let panel = Fingers(panel: SyntheticTouchscreen.ft5406, clock: VirtualClock(Instant(seconds: 1)))
        let finger = panel.down(Point(x: 200, y: 200))
        for step in 1...5 { panel.move([finger[0]: Point(x: 200 + Double(step) * 10, y: 200)]) }
        return panel.trace
    }()

    static let tap: EvemuTrace = {
        let panel = Fingers(panel: SyntheticTouchscreen.ft5406, clock: VirtualClock(Instant(seconds: 1)))
        panel.up(panel.down(Point(x: 400, y: 300)), after: 0.05)
        return panel.trace
    }()

    /// The repository's config with `[input] device` set, and the font the VM has beside kiosk (a
    /// config naming a font that is not there is refused, and the VM has no /usr/share/fonts).
    static func config(device: String) throws -> String {
        let text = try String(contentsOfFile: KernelHarness.root.appendingPathComponent("config/kiosk.toml").path, encoding: .utf8)
        let line = #"# device = "/dev/input/event2""#
        let font = #"font = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf""#
        precondition(text.contains(line) && text.contains(font), "config/kiosk.toml no longer has the commented device line and the font line")
        return text.replacingOccurrences(of: line, with: "device = \"\(device)\" #")
            .replacingOccurrences(of: font, with: #"font = "DejaVuSans.ttf""#)
    }

    /// A tap somewhere else: the kernel passes on only values that changed.
    static let tapElsewhere: EvemuTrace = {
        let panel = Fingers(panel: SyntheticTouchscreen.ft5406, clock: VirtualClock(Instant(seconds: 1)))
        panel.up(panel.down(Point(x: 200, y: 120)), after: 0.05)
        return panel.trace
    }()

    static let run = Task<KernelHarness.Run, any Error> {
        let script = try String(contentsOfFile: KernelHarness.root.appendingPathComponent("Tests/vm/live-input.sh").path, encoding: .utf8)
        return try await KernelHarness.run(script: script, files: [
            "trace.evemu": played.text, "flood-down.evemu": floodDown.text, "flood-rest.evemu": floodRest.text,
            "flood-up.evemu": floodUp.text, "drag.evemu": drag.text, "tap.evemu": tap.text, "tap2.evemu": tapElsewhere.text,
            "named.toml": try config(device: "generic ft5x06 (79)"), "missing.toml": try config(device: "Goodix Capacitive TouchScreen"),
        ], binaries: [KernelHarness.kioskBinary, Font.defaultPath])
    }

    func section(_ name: String) async throws -> String {
        let run = try await Self.run.value
        #expect(run.status == 0)
        return try #require(run.section("KIOSK-\(name)-BEGIN", "KIOSK-\(name)-END"), "\(run.console)")
    }

    @Test func devicesMarksTheTouchscreenAndSaysWhyTheKeyboardWasSkipped() async throws {
        let text = try await section("DEVICES")
        #expect(text.contains("\"generic ft5x06 (79)\"\n    USED: multitouch protocol B, 10 slots"), "\(text)")
        #expect(text.contains("ABS_MT_SLOT 0..9 (10 slots)"))
        #expect(text.contains("properties: INPUT_PROP_DIRECT"))
        #expect(text.contains("\"AT Translated Set 2 keyboard\"\n    skipped: no touch axes"))
    }

    @Test func devicesTakesTheConfigsDeviceAndSaysWhenItIsNotThere() async throws {
        let named = try await section("DEVICES-NAMED")
        #expect(named.hasPrefix("config named.toml: [input] device = \"generic ft5x06 (79)\"\n"), "\(named)")
        #expect(named.contains("\"generic ft5x06 (79)\"\n    USED: multitouch protocol B, 10 slots"), "\(named)")
        #expect(!named.contains("kiosk would use no device"))
        let missing = try await section("DEVICES-MISSING")
        #expect(!missing.contains("USED"), "\(missing)")
        #expect(missing.contains("\"generic ft5x06 (79)\"\n    also a touchscreen"), "\(missing)")
        #expect(missing.hasSuffix("kiosk would use no device: \"Goodix Capacitive TouchScreen\" cannot be used: no device is named \"Goodix Capacitive TouchScreen\"\n"), "\(missing)")
    }

    @Test func aDeviceNamedByItsByIDLinkIsTaken() async throws {
        let text = try await section("DEVICES-LINK")
        #expect(text.contains("\"generic ft5x06 (79)\"\n    USED: multitouch protocol B, 10 slots"), "\(text)")
        // kiosk record was given the link; it names the node it leads to.
        let recordLog = try await section("RECORD-LOG")
        #expect(recordLog.contains("recording /dev/input/event"))
        // kiosk touches was given the device's name.
        let touchesLog = try await section("TOUCHES-LOG")
        #expect(touchesLog.contains("listening to /dev/input/event"))
    }

    @Test func touchesDeliversExactlyTheFramesTheTraceDecoderGives() async throws {
        let expected = try Traces.decodedFrames(Self.played)
        let live = try await section("TOUCHES").split(separator: "\n").map { line in
            String(line.split(separator: " ", maxSplits: 1).last ?? "")
        }
        #expect(live == expected)
        #expect(expected.contains("3 began 130.0 424.0") && expected.contains("3 ended 130.0 424.0"), "the same-report tap survives")
    }

    @Test func recordWritesWhatEvemuPlayPlayed() async throws {
        let recorded = try await EvemuTrace.parse(section("RECORDED"), file: "recorded.evemu")
        #expect(recorded.device.name == Self.played.device.name)
        #expect(recorded.device.axes == Self.played.device.axes)
        #expect(Traces.rawEvents(recorded) == Traces.rawEvents(Self.played))
        #expect(recorded.events.first?.time == .zero)
        let recordLog = try await section("RECORD-LOG")
        #expect(recordLog.contains("\(Self.played.events.count) events from /dev/input/event"))
    }

    /// kiosk's header, less its banner and events: what evemu-describe prints.
    func header(_ recording: String) throws -> String {
        let banner = "################################\n#      Waiting for events      #\n"
        let end = try #require(recording.range(of: banner), "\(recording)")
        return String(recording[..<end.lowerBound])
    }

    @Test func recordsHeaderIsEvemuDescribesByteForByte() async throws {
        let kiosk = try await header(section("RECORDED"))
        let evemu = try await section("DESCRIBE")
        #expect(kiosk == evemu)
        #expect(evemu.hasPrefix("# EVEMU 1.3\n# Kernel: 6."), "\(evemu.prefix(200))")
        #expect(evemu.contains("\nB: 15 00 00 00 00 00 00 00 00\nB: 15 00 00 00 00 00 00 00 00\n"), "force feedback's mask is two lines")
        // evemu-device reads kiosk's header back into the same device.
        let described = try await section("REPLAY-DESCRIBE")
        #expect(described == evemu)
    }

    @Test func kiosksRecordingPlayedBackByEvemuGivesTheSameEvents() async throws {
        let recorded = try await EvemuTrace.parse(section("RECORDED"), file: "recorded.evemu")
        let replayed = try await EvemuTrace.parse(section("REPLAYED"), file: "replayed.evemu")
        #expect(replayed.device.axes == recorded.device.axes)
        #expect(Traces.rawEvents(replayed) == Traces.rawEvents(recorded))
        #expect(!replayed.events.isEmpty)
    }

    @Test func aKernelBufferOverflowIsResynchronisedAndLeavesNoTouchDown() async throws {
        let log = try await section("FLOOD-LOG")
        #expect(log.contains("resynchronised"), "the kernel dropped events: \(log)")
        #expect(log.contains("input.resyncs=1"), "\(log)")
        let frames = try await section("FLOOD").split(separator: "\n").map { String($0.split(separator: " ", maxSplits: 1).last ?? "") }
        #expect(frames.first == "1 began 100.0 100.0; 2 began 600.0 300.0", "seen down before the reader stopped")
        // After the gap the first finger ends, and the second, still down, jumps to where it is
        // now. libevdev ends the touches that lifted in a report of its own, then moves the others.
        let resynced = try #require(frames.firstIndex { $0.hasPrefix("1 ended") }, "\(frames.suffix(4))")
        #expect(frames[resynced] == "1 ended 100.0 100.0; 2 stationary 600.0 300.0", "\(frames.suffix(4))")
        #expect(frames.dropFirst(resynced + 1) == ["2 moved 700.0 400.0", "2 ended 700.0 400.0"], "nothing is left down: \(frames.suffix(4))")
        #expect(frames.count < 100, "the flood was dropped, not delivered: \(frames.count) frames")
    }

    @Test func aRecordingMarksTheDropAndReplaysAsKioskSawItLive() async throws {
        let recorded = try await EvemuTrace.parse(section("FLOOD-RECORDED"), file: "flood.evemu")
        let drop = try #require(recorded.events.firstIndex { $0.synchronization == .dropped }, "no SYN_DROPPED marker")
        #expect(recorded.events[drop + 1].synchronization == .report, "the marker is a report of its own")
        let floodLog = try await section("FLOOD-RECORD-LOG")
        #expect(floodLog.contains("dropped events 1 times (resynchronised, marked SYN_DROPPED)"))
        let live = try await section("FLOOD").split(separator: "\n").map { String($0.split(separator: " ", maxSplits: 1).last ?? "") }
        #expect(try Traces.decodedFrames(recorded) == live)
    }

    @Test func whileKioskHoldsThePanelNoOtherReaderSeesItsTouches() async throws {
        let tap = ["1 began 400.0 300.0", "1 ended 400.0 300.0"]
        func frames(_ name: String) async throws -> [String] {
            try await section(name).split(separator: "\n").map { String($0.split(separator: " ", maxSplits: 1).last ?? "") }
        }
        // Grabbed: kiosk sees the tap; evemu-record, reading since before, sees nothing.
        let grabbed = try await frames("GRAB")
        #expect(grabbed == tap)
        let other = try await section("GRAB-OTHER")
        #expect(other.contains("#      Waiting for events      #"), "\(other)")
        #expect(!other.contains("\nE: "), "another reader saw grabbed events: \(other)")
        let refused = try await section("GRAB-REFUSED")
        #expect(refused.contains("error: this device is grabbed and I cannot record events"))
        // Not grabbed: both see it.
        let free = try await frames("FREE")
        #expect(free == ["1 began 200.0 120.0", "1 ended 200.0 120.0"])
        let freeOther = try EvemuTrace.parse(try await section("FREE-OTHER"), file: "free.evemu")
        #expect(Traces.rawEvents(freeOther) == Traces.rawEvents(Self.tapElsewhere))
    }

    @Test func aTouchscreenPluggedInLaterIsTakenAndOneRemovedMidDragCancelsItsTouch() async throws {
        let log = try await section("HOTPLUG-LOG").split(separator: "\n").map(String.init)
        let changes = log.filter { $0.contains(": attached ") || $0.contains(": detached ") }
        #expect(changes.count == 4, "\(log)")
        #expect(changes.first?.contains("attached /dev/input/event") == true && changes.first?.contains("multitouch protocol B") == true)
        #expect(changes.dropFirst().first?.contains("detached") == true)
        #expect(changes.dropFirst(2).first?.contains("attached") == true)
        #expect(log.last?.hasSuffix("input.unplug_cancelled=1 input.devices_attached=2 input.devices_removed=2") == true, "\(log)")
        // Waiting is said at the start (the VM's keyboard is no touchscreen, and says why), not
        // after each unplug; it is not a problem.
        let why = log.filter { $0.contains("waiting:") }
        #expect(why == ["kiosk touches: waiting: no touchscreen in /dev/input yet"], "\(log)")
        #expect(log.contains { $0.contains("skipped /dev/input/event0 (\"AT Translated Set 2 keyboard\"): no touch axes") }, "\(log)")
        #expect(!log.contains { $0.contains("no touchscreen taken:") }, "\(log)")
        let frames = try await section("HOTPLUG").split(separator: "\n").map { String($0.split(separator: " ", maxSplits: 1).last ?? "") }
        #expect(frames.first == "1 began 200.0 200.0")
        // Removed mid-drag: the kernel releases BTN_TOUCH but not the slot, and the touch is
        // cancelled where it last was, never ended (which would fire a button under the finger).
        #expect(frames.contains("1 cancelled 250.0 200.0"), "\(frames)")
        #expect(!frames.contains { $0.hasPrefix("1 ended") })
        // The new device's tap is a new touch.
        #expect(frames.suffix(2) == ["2 began 400.0 300.0", "2 ended 400.0 300.0"], "\(frames)")
    }
}
