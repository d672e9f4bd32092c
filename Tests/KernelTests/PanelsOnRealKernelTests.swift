import Foundation
import Gestures
import InputEvents
import KioskCore
import KioskTestSupport
import Testing

/// The suite's VM, waited for before its test cases run (`KernelHarness.AfterItsVM`); they report its errors.
private func theVM() async { _ = try? await PanelsOnRealKernelTests.run.value }

/// `kiosk devices`, `kiosk touches` and `kiosk record` on a real kernel's evdev, fed by uinput
/// panels the FT5406 suite does not cover: a multitouch protocol A panel read through libmtdev,
/// eleven fingers on a ten-slot FT5406, and a resistive single-touch panel. One VM boot serves
/// every test here (Tests/vm/protocol-a.sh).
@Suite("Protocol A and other panels on a real kernel", .enabled(if: KernelHarness.isAvailable, "needs qemu-system-x86, busybox-static, cpio, kmod, evemu-tools"), .afterItsVM(theVM))
struct PanelsOnRealKernelTests {
    /// On a protocol A panel (no slots, no tracking ids): a two-finger pinch whose release is only
    /// `BTN_TOUCH 0` (lvgl#9829), a drag released with the documented empty contact, and eleven
    /// fingers at once, one more than the ten slots they are converted to.
    static let protocolA: EvemuTrace = {
        let panel = Fingers(panel: SyntheticTouchscreen.protocolA, clock: VirtualClock(Instant(seconds: 1)))
        let pinch = Traces.pinchOpen(panel)
        panel.protocolARelease = .touchButtonOnly
        panel.up(pinch, after: 0)
        panel.wait(0.1)
        panel.protocolARelease = .emptyContact
        let drag = panel.down(Point(x: 160, y: 190))
        for step in 1...8 { panel.move([drag[0]: Point(x: 160 + Double(step) * 6, y: 190 + Double(step) * 5)]) }
        panel.up(drag)
        panel.wait(0.1)
        let eleven = panel.report(down: (0..<11).map { Point(x: 40 + Double($0) * 70, y: 300) })
        panel.move(Dictionary(uniqueKeysWithValues: eleven.enumerated().map { ($1, Point(x: 40 + Double($0) * 70, y: 310)) }))
        panel.up(eleven)
        return panel.trace
    }()

    /// Eleven fingers on the FT5406's ten slots, the eleventh in slot 10, as a driver that does not
    /// check the slot count would send them: down together, moved, lifted.
    static let elevenFingers: EvemuTrace = {
        var events: [InputEvent] = []
        var now = Instant(seconds: 1)
        func add<Code: TypedEventCode>(_ code: Code, _ value: Int32) { events.append(InputEvent(time: now, code, value)) }
        func report() {
            events.append(.report(at: now))
            now = now.adding(seconds: 1.0 / 60)
        }
        func x(_ finger: Int) -> Int32 { Int32(40 + finger * 70) }
        for finger in 0..<10 {
            if finger > 0 { add(AbsoluteAxis.multitouchSlot, Int32(finger)) }
            add(AbsoluteAxis.multitouchTrackingID, Int32(finger))
            add(AbsoluteAxis.multitouchPositionX, x(finger))
            add(AbsoluteAxis.multitouchPositionY, 300)
        }
        add(KeyCode.touch, 1)
        add(AbsoluteAxis.x, x(0))
        add(AbsoluteAxis.y, 300)
        report()
        add(AbsoluteAxis.multitouchSlot, 10)
        add(AbsoluteAxis.multitouchTrackingID, 10)
        add(AbsoluteAxis.multitouchPositionX, x(10))
        add(AbsoluteAxis.multitouchPositionY, 300)
        report()
        for finger in 0...10 {
            add(AbsoluteAxis.multitouchSlot, Int32(finger))
            add(AbsoluteAxis.multitouchPositionY, 310)
        }
        add(AbsoluteAxis.y, 310)
        report()
        for finger in 0...10 {
            add(AbsoluteAxis.multitouchSlot, Int32(finger))
            add(AbsoluteAxis.multitouchTrackingID, -1)
        }
        add(KeyCode.touch, 0)
        report()
        return EvemuTrace(device: SyntheticTouchscreen.ft5406, events: events)
    }()

    /// A drag on a resistive ADS7846 panel, 0..4095 on both axes.
    static let resistiveDrag: EvemuTrace = {
        let panel = Fingers(panel: SyntheticTouchscreen.resistive, clock: VirtualClock(Instant(seconds: 1)))
        let finger = panel.down(Point(x: 100, y: 400))
        for step in 1...12 { panel.move([finger[0]: Point(x: 100 + Double(step) * 50, y: 400 - Double(step) * 25)]) }
        panel.up(finger)
        return panel.trace
    }()

    static let run = Task<KernelHarness.Run, any Error> {
        let script = try String(contentsOfFile: KernelHarness.root.appendingPathComponent("Tests/vm/protocol-a.sh").path, encoding: .utf8)
        return try await KernelHarness.run(script: script, files: ["protocol-a.evemu": protocolA.text, "eleven.evemu": elevenFingers.text,
                                                             "resistive.evemu": resistiveDrag.text],
                                     binaries: [KernelHarness.kioskBinary])
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

    @Test func devicesTakesTheProtocolAPanelThroughMtdev() async throws {
        let text = try await section("PROTOCOL-A-DEVICES")
        #expect(text.contains("\"Protocol A Touchscreen\"\n    USED: multitouch protocol A, through mtdev as protocol B with 10 slots"), "\(text)")
        let entry = try #require(text.components(separatedBy: "/dev/input/").first { $0.contains("Protocol A Touchscreen") })
        #expect(entry.contains("ABS_MT_POSITION_X 0..799") && !entry.contains("ABS_MT_SLOT"), "\(entry)")
    }

    @Test func protocolATouchesAreExactlyTheConverterAndDecoderFrames() async throws {
        let expected = try Traces.decode(Self.protocolA)
        let live = try await frames("PROTOCOL-A")
        #expect(live == expected.frames)
        // The pinch ends at its lvgl#9829 release (BTN_TOUCH 0 alone): nothing stays down.
        #expect(expected.frames.contains("1 ended 330.0 200.0; 2 ended 470.0 180.0"), "\(expected.frames)")
        #expect(expected.frames.contains("3 ended 208.0 230.0"))
        // Of eleven fingers, ten are delivered; the eleventh lands beyond the ten slots and is dropped.
        #expect(expected.frames.suffix(3).first?.components(separatedBy: "; ").count == 10)
        #expect(expected.frames.last == (4...13).map { "\($0) ended \(40 + ($0 - 4) * 70).0 310.0" }.joined(separator: "; "))
        #expect(expected.decoder.counters.ignoredSlots > 0)
        #expect(expected.decoder.activeTouchCount == 0)
        let log = try await section("PROTOCOL-A-LOG")
        #expect(log.contains("more fingers than the 10 slots"), "\(log)")
        #expect(log.contains("kiosk touches exit status 0"), "\(log)")
    }

    @Test func recordKeepsTheProtocolAEventsAsThePanelSentThem() async throws {
        let recorded = try await EvemuTrace.parse(section("PROTOCOL-A-RECORDED"), file: "recorded.evemu")
        #expect(recorded.device.isMultitouchA)
        #expect(recorded.device.axes == Self.protocolA.device.axes)
        #expect(Traces.rawEvents(recorded) == Traces.rawEvents(Self.protocolA))
        #expect(recorded.events.contains { $0.synchronization == .multitouchReport })
    }

    @Test func elevenFingersOnTenSlotsCrashNothingAndTheKernelNeverPassesSlotTen() async throws {
        // The decoder alone, given the eleventh finger in slot 10, drops it and counts it.
        let offline = try Traces.decode(Self.elevenFingers)
        #expect(offline.frames.first == (1...10).map { "\($0) began \(40 + ($0 - 1) * 70).0 300.0" }.joined(separator: "; "))
        #expect(offline.frames.count == 3)
        #expect(offline.decoder.counters.ignoredSlots == 3)
        #expect(offline.decoder.activeTouchCount == 0)

        // The kernel never lets slot 10 through: it ignores ABS_MT_SLOT 10 and applies the values
        // after it to slot 9, where libevdev drops the second tracking id. So the tenth touch
        // jumps to the eleventh finger's place, and no eleventh touch appears.
        let recorded = try await EvemuTrace.parse(section("ELEVEN-RECORDED"), file: "eleven.evemu")
        let slots = recorded.events.filter { $0.axis == .multitouchSlot }.map(\.value)
        #expect(!slots.isEmpty && slots.allSatisfy { $0 < 10 }, "\(slots)")
        #expect(recorded.events.filter { $0.axis == .multitouchTrackingID }.map(\.value).sorted() == Array(repeating: -1, count: 10) + Array(0...9))
        // kiosk touches delivered exactly what the decoder makes of what the kernel passed on,
        // nothing is left down, and it ended normally.
        let live = try await frames("ELEVEN")
        let decoded = try Traces.decodedFrames(recorded)
        #expect(live == decoded)
        #expect(live.first == offline.frames.first)
        #expect(live.last?.components(separatedBy: "; ").allSatisfy { $0.contains(" ended ") } == true, "\(live)")
        #expect(live.last?.hasSuffix("; 10 ended 740.0 310.0") == true, "\(live)")
        #expect(!live.contains { $0.components(separatedBy: "; ").contains { $0.hasPrefix("11 ") } }, "\(live)")
        // The nine fingers the kernel left alone are delivered down, moved and lifted as they went.
        for finger in 1...9 {
            let x = 40 + (finger - 1) * 70
            #expect(live.contains { $0.contains("\(finger) moved \(x).0 310.0") }, "\(live)")
            #expect(live.last?.contains("\(finger) ended \(x).0 310.0") == true, "\(live)")
        }
        let elevenLog = try await section("ELEVEN-LOG")
        #expect(elevenLog.contains("kiosk touches exit status 0"))
    }

    @Test func aResistiveDragIsExactlyTheDecoderFrames() async throws {
        let expected = try Traces.decodedFrames(Self.resistiveDrag)
        let seen = try await frames("RESISTIVE")
        #expect(seen == expected)
        #expect(expected.count == 14)
        #expect(expected.first?.hasPrefix("1 began") == true && expected.last?.hasPrefix("1 ended") == true)
        let devices = try await section("RESISTIVE-DEVICES")
        #expect(devices.contains("\"ADS7846 Touchscreen\"\n    USED: single touch"))
    }
}
