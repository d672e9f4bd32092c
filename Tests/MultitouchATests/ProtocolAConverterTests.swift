import InputEvents
import KioskCore
import KioskTestSupport
import MultitouchA
import Testing

/// Protocol A reports through libmtdev and the decoder, on the synthetic 800x480 protocol A panel
/// (0...799 x 0...479: one unit, one pixel).
@Suite("Converting protocol A touches")
struct ProtocolAConverterTests {
    @Test func twoFingersDownMovingOneLiftingAndBothLifting() throws {
        var k = EvdevScript()
        k.contact(100, 200)
        k.contact(500, 300)
        k.touchButton(true)
        k.report()
        k.contact(110, 205)
        k.contact(490, 310)
        k.report()
        // The first finger lifts: the report lists the second alone, which moved on.
        k.contact(480, 320)
        k.report()
        k.emptyContact()
        k.touchButton(false)
        k.report()
        let (frames, decoder) = try decode(k.events)
        #expect(frames.map(summary) == [
            ["1 began 100.0,200.0", "2 began 500.0,300.0"],
            ["1 moved 110.0,205.0", "2 moved 490.0,310.0"],
            ["1 ended 110.0,205.0", "2 moved 480.0,320.0"],
            ["2 ended 480.0,320.0"],
        ])
        #expect(frames.map(\.time) == [Instant(seconds: 5), Instant(seconds: 5.01), Instant(seconds: 5.02), Instant(seconds: 5.03)])
        #expect(decoder.activeTouchCount == 0)
        #expect(decoder.counters.ignoredSlots == 0 && decoder.counters.stuckTouchesCancelled == 0)
    }

    @Test func aReportBecomesSlotsAndTrackingIDs() throws {
        var k = EvdevScript()
        k.contact(100, 200)
        k.contact(500, 300)
        k.touchButton(true)
        k.report()
        let converter = try ProtocolAConverter(device: SyntheticTouchscreen.protocolA)
        // The report's other events first, then each slot's changes, stamped with the report's time.
        #expect(converter.convert(k.events).map(named) == [
            "BTN_TOUCH 1",
            "ABS_MT_POSITION_X 100", "ABS_MT_POSITION_Y 200", "ABS_MT_TRACKING_ID 0",
            "ABS_MT_SLOT 1", "ABS_MT_POSITION_X 500", "ABS_MT_POSITION_Y 300", "ABS_MT_TRACKING_ID 1",
            "SYN_REPORT 0",
        ])
    }

    @Test func aReleaseSaidOnlyByTheTouchButtonEndsEveryTouch() throws {
        // lvgl#9829: the panel's last report holds BTN_TOUCH 0 and nothing else, no SYN_MT_REPORT.
        var k = EvdevScript()
        k.contact(300, 100)
        k.contact(420, 260)
        k.touchButton(true)
        k.report()
        k.contact(310, 110)
        k.contact(410, 250)
        k.report()
        let lift = k.events.count
        k.touchButton(false)
        k.report()
        let converter = try ProtocolAConverter(device: SyntheticTouchscreen.protocolA)
        _ = converter.convert(k.events[..<lift])
        #expect(converter.convert(k.events[lift...]).map(named) == [
            "BTN_TOUCH 0", "ABS_MT_SLOT 0", "ABS_MT_TRACKING_ID -1", "ABS_MT_SLOT 1", "ABS_MT_TRACKING_ID -1", "SYN_REPORT 0",
        ])
        let (frames, decoder) = try decode(k.events)
        #expect(frames.map(summary) == [
            ["1 began 300.0,100.0", "2 began 420.0,260.0"],
            ["1 moved 310.0,110.0", "2 moved 410.0,250.0"],
            ["1 ended 310.0,110.0", "2 ended 410.0,250.0"],
        ])
        // Ended where they lifted, not cancelled as stuck: each contact's own lift reached the decoder.
        #expect(decoder.activeTouchCount == 0)
        #expect(decoder.counters.stuckTouchesCancelled == 0)
    }

    @Test func theKernelsReleaseOfAnUnpluggedPanelCancelsEveryTouch() throws {
        // Unplugged, the kernel sends BTN_TOUCH 0 and closes the report with SYN_REPORT value 1
        // (input_disconnect_device). mtdev makes lifts of it; the value still says they were taken away.
        let panel = Fingers(panel: SyntheticTouchscreen.protocolA, clock: VirtualClock(Instant(seconds: 1)))
        let f = panel.down(Point(x: 300, y: 100), Point(x: 420, y: 260))
        panel.move([f[0]: Point(x: 310, y: 110)], after: 0.01)
        let lift = panel.events.count
        panel.unplug()
        #expect(panel.events[lift...].map(named) == ["BTN_TOUCH 0", "SYN_REPORT 1"])
        let converter = try ProtocolAConverter(device: SyntheticTouchscreen.protocolA)
        _ = converter.convert(panel.events[..<lift])
        #expect(converter.convert(panel.events[lift...]).map(named) == [
            "BTN_TOUCH 0", "ABS_MT_TRACKING_ID -1", "ABS_MT_SLOT 1", "ABS_MT_TRACKING_ID -1", "SYN_REPORT 1",
        ])
        let (frames, decoder) = try decode(panel.events)
        #expect(frames.map(summary).last == ["1 cancelled 310.0,110.0", "2 cancelled 420.0,260.0"])
        #expect(decoder.counters.releaseCancelledTouches == 2)
        #expect(decoder.activeTouchCount == 0)
        // The same trace converted whole, as `kiosk replay` does, cancels them too.
        let converted = try panel.trace.convertedToProtocolB()
        #expect(try decodeProtocolB(converted).map(summary).last == ["1 cancelled 310.0,110.0", "2 cancelled 420.0,260.0"])
    }

    @Test func contactsListedInAnotherOrderKeepTheirTouches() throws {
        var k = EvdevScript()
        k.contact(100, 200)
        k.contact(500, 300)
        k.report()
        k.contact(505, 300)
        k.contact(105, 200)
        k.report()
        let (frames, _) = try decode(k.events)
        #expect(frames.map(summary) == [
            ["1 began 100.0,200.0", "2 began 500.0,300.0"],
            ["1 moved 105.0,200.0", "2 moved 505.0,300.0"],
        ])
    }

    @Test func aDevicesOwnTrackingIDsDecideWhichContactIsWhich() throws {
        var device = SyntheticTouchscreen.protocolA
        device.setAxis(.multitouchTrackingID, AxisInfo(minimum: 0, maximum: 255))
        var k = EvdevScript()
        k.contact(100, 200, id: 7)
        k.contact(500, 300, id: 3)
        k.report()
        k.contact(500, 300, id: 3)
        k.report()
        // A new id where contact 7 was: a new finger, though it is as near as can be.
        k.contact(100, 200, id: 8)
        k.contact(500, 300, id: 3)
        k.report()
        let (frames, _) = try decode(k.events, device: device)
        #expect(frames.map(summary) == [
            ["1 began 100.0,200.0", "2 began 500.0,300.0"],
            ["1 ended 100.0,200.0", "2 stationary 500.0,300.0"],
            ["3 began 100.0,200.0", "2 stationary 500.0,300.0"],
        ])
        let converter = try ProtocolAConverter(device: device)
        #expect(converter.convert(k.events).filter { $0.axis == .multitouchTrackingID }.map(\.value) == [7, 3, -1, 8])
        #expect(converter.protocolB.axes[.multitouchTrackingID] == AxisInfo(minimum: 0, maximum: 255))
    }

    @Test func aReportThatChangesNothingGivesNothing() throws {
        var k = EvdevScript()
        k.contact(100, 200)
        k.touchButton(true)
        k.report()
        let repeated = k.events.count
        k.contact(100, 200)
        k.report()
        let converter = try ProtocolAConverter(device: SyntheticTouchscreen.protocolA)
        #expect(converter.convert(k.events[..<repeated]).count == 5)
        #expect(converter.convert(k.events[repeated...]).isEmpty)
    }

    @Test(arguments: [(10, 10), (11, 11), (16, 11)])
    func elevenContactsFillAsManySlotsAsThereAreAndTheRestAreDroppedAndCounted(slots: Int, delivered: Int) throws {
        var k = EvdevScript()
        for i in 0..<11 { k.contact(Int32(40 + i * 70), 300) }
        k.touchButton(true)
        k.report()
        k.emptyContact()
        k.touchButton(false)
        k.report()
        let (frames, decoder) = try decode(k.events, slots: slots)
        #expect(frames.map(summary) == [
            (0..<delivered).map { "\($0 + 1) began \(40 + $0 * 70).0,300.0" },
            (0..<delivered).map { "\($0 + 1) ended \(40 + $0 * 70).0,300.0" },
        ])
        // The eleventh contact's slot is named twice: when it begins and when it ends.
        #expect(decoder.counters.ignoredSlots == (delivered < 11 ? 2 : 0))
        #expect(decoder.activeTouchCount == 0)
    }

    @Test func timesGoThroughUnchangedBeforeZeroToo() throws {
        var k = EvdevScript(clock: VirtualClock(Instant(microseconds: -1_250_000)))
        k.contact(100, 200)
        k.report()
        let converter = try ProtocolAConverter(device: SyntheticTouchscreen.protocolA)
        #expect(converter.convert(k.events).map(\.time) == Array(repeating: Instant(microseconds: -1_250_000), count: 4))
    }

    @Test func theConvertedDeviceIsTheSameDeviceWithSlotsAndTrackingIDs() throws {
        let converter = try ProtocolAConverter(device: SyntheticTouchscreen.protocolA)
        var expected = SyntheticTouchscreen.protocolA
        expected.setAxis(.multitouchSlot, AxisInfo(minimum: 0, maximum: 9))
        expected.setAxis(.multitouchTrackingID, AxisInfo(minimum: 0, maximum: 65535))
        #expect(converter.protocolB == expected)
        #expect(converter.slotCount == 10)
        #expect(converter.protocolB.isMultitouchB && !converter.protocolB.isMultitouchA)
        #expect(try ProtocolAConverter(device: SyntheticTouchscreen.protocolA, slots: 4).protocolB.axes[.multitouchSlot]
            == AxisInfo(minimum: 0, maximum: 3))
    }

    @Test func aDeviceThatIsNotProtocolAIsRefusedNamingWhatItHas() {
        #expect(throws: ProtocolAConverterError.notProtocolA(device: "ADS7846 Touchscreen", axes: [.x, .y, .pressure])) {
            try ProtocolAConverter(device: SyntheticTouchscreen.resistive)
        }
        #expect(throws: ProtocolAConverterError.self) { try ProtocolAConverter(device: SyntheticTouchscreen.ft5406) }
        #expect(throws: ProtocolAConverterError.noSlots(device: "Protocol A Touchscreen")) {
            try ProtocolAConverter(device: SyntheticTouchscreen.protocolA, slots: 0)
        }
        #expect(ProtocolAConverterError.notProtocolA(device: "ADS7846 Touchscreen", axes: [.x, .y, .pressure]).description
            == "device 'ADS7846 Touchscreen' is not multitouch protocol A (ABS_MT_POSITION_X/Y without ABS_MT_SLOT); it has: ABS_X, ABS_Y, ABS_PRESSURE")
    }
}
