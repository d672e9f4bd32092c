import InputEvents
import KioskCore
import KioskTestSupport
import Testing

/// The kernel's own release of a device that goes away (unplugged, reset or inhibited): the keys
/// that were down go up, then `SYN_REPORT` with value 1. Every touch it takes away is cancelled,
/// never ended, whatever kind of panel, so a button under the finger does not fire.
@Suite("Touches taken away by the kernel")
struct KernelReleaseTests {
    /// A finger down at (200, 240) that drags right to (275, 240), and is still down. (Points
    /// the resistive panel's 0...4095 units land on exactly.)
    func drag(on device: DeviceDescription) -> Fingers {
        let panel = Fingers(panel: device, clock: VirtualClock(Instant(seconds: 1)))
        let finger = panel.down(Point(x: 200, y: 240))[0]
        for step in 1...3 { panel.move([finger: Point(x: 200 + Double(step) * 25, y: 240)], after: 1.0 / 60) }
        panel.wait(1.0 / 60)
        return panel
    }

    func frames(_ screen: Fingers) throws -> (frames: [[String]], decoder: TouchDecoder) {
        let (frames, decoder) = try decode(screen.trace)
        return (frames.map(summary), decoder)
    }

    @Test func anUnpluggedResistivePanelCancelsItsTouch() throws {
        let panel = drag(on: SyntheticTouchscreen.resistive)
        panel.unplug()
        #expect(panel.events.suffix(2).map(named) == ["BTN_TOUCH 0", "SYN_REPORT 1"])
        let (frames, decoder) = try frames(panel)
        #expect(frames.last == ["1 cancelled 275.0,240.0"])
        #expect(!frames.joined().contains { $0.contains("ended") })
        #expect(decoder.counters.releaseCancelledTouches == 1)
        #expect(decoder.counters.stuckTouchesCancelled == 0)
        #expect(decoder.activeTouchCount == 0)
    }

    @Test func theSameReleaseFromADriverEndsTheTouch() throws {
        // BTN_TOUCH 0 closed by a driver's own SYN_REPORT (value 0) is a lift.
        let panel = drag(on: SyntheticTouchscreen.resistive)
        panel.up(after: 0)
        #expect(panel.events.last.map(named) == "SYN_REPORT 0")
        let (frames, decoder) = try frames(panel)
        #expect(frames.last == ["1 ended 275.0,240.0"])
        #expect(decoder.counters.releaseCancelledTouches == 0)
    }

    @Test func anUnpluggedResistivePanelWithAPressureThresholdCancelsItsTouch() throws {
        let panel = drag(on: SyntheticTouchscreen.resistive)
        panel.unplug()
        var decoder = try TouchDecoder(device: panel.device, screen: InputEventsTests.panel,
                                       filters: TouchFilters(minimumPressure: 10))
        let frames = decode(panel.events, with: &decoder).map(summary)
        #expect(frames.first == ["1 began 200.0,240.0"])
        #expect(frames.last == ["1 cancelled 275.0,240.0"])
        #expect(decoder.counters.releaseCancelledTouches == 1)
    }

    @Test func anUnpluggedProtocolBPanelCancelsItsTouchesByBothRules() throws {
        // Unplugged, the kernel releases BTN_TOUCH, not the slots: the stuck-touch rule alone would
        // cancel them; the report's value 1 says the same.
        let panel = drag(on: SyntheticTouchscreen.ft5406)
        panel.unplug()
        #expect(panel.events.suffix(2).map(named) == ["BTN_TOUCH 0", "SYN_REPORT 1"])
        let (frames, decoder) = try frames(panel)
        #expect(frames.last == ["1 cancelled 275.0,240.0"])
        #expect(decoder.counters.stuckTouchesCancelled == 1)
        #expect(decoder.counters.releaseCancelledTouches == 1)
    }

    @Test func anInhibitedProtocolBPanelCancelsTouchesWhoseSlotsWereReleased() throws {
        // Inhibited, the kernel lifts the slots too (input_mt_release_slots): without the report's
        // value, those would read as lifts.
        let panel = drag(on: SyntheticTouchscreen.ft5406)
        panel.down(Point(x: 600, y: 300))
        panel.wait(1.0 / 60)
        panel.inhibit()
        #expect(panel.events.suffix(5).map(named) == ["ABS_MT_TRACKING_ID -1", "ABS_MT_SLOT 1", "ABS_MT_TRACKING_ID -1", "BTN_TOUCH 0", "SYN_REPORT 1"])
        let (frames, decoder) = try frames(panel)
        #expect(frames.last == ["1 cancelled 275.0,240.0", "2 cancelled 600.0,300.0"])
        #expect(decoder.counters.releaseCancelledTouches == 2)
        #expect(decoder.counters.stuckTouchesCancelled == 0)
        #expect(decoder.activeTouchCount == 0)
    }

    @Test func aReleaseReportWithNothingDownGivesNoFrame() throws {
        let panel = Fingers(panel: SyntheticTouchscreen.ft5406, clock: VirtualClock(Instant(seconds: 1)))
        panel.inhibit()
        #expect(panel.events.map(named) == ["SYN_REPORT 1"])
        let (frames, decoder) = try frames(panel)
        #expect(frames.isEmpty)
        #expect(decoder.counters.releaseCancelledTouches == 0)
    }

    @Test func aTouchThatBeganInTheReleaseReportIsCancelledInItsSecondFrame() throws {
        // Not something the kernel sends, but the rule holds for every touch the report ends.
        var k = EvdevScript()
        k.trackingID(3)
        k.position(300, 100)
        k.lift()
        k.touchButton(false)
        k.report(value: 1)
        let (frames, decoder) = try decodeScript(k)
        #expect(frames.map(summary) == [["1 began 300.0,100.0"], ["1 cancelled 300.0,100.0"]])
        #expect(decoder.counters.releaseCancelledTouches == 1)
    }

    @Test func aRecordedReleaseReplaysAsTheSameCancel() throws {
        // Written as evemu-record writes it and read back: the value survives, and so does the cancel.
        let panel = drag(on: SyntheticTouchscreen.resistive)
        panel.unplug()
        let text = panel.trace.text
        #expect(text.contains(" 0000 0000 0001\t# ------------ SYN_REPORT (1) ----------"), "\(text.suffix(300))")
        let replayed = try EvemuTrace.parse(text, file: "unplug.evemu")
        let (frames, _) = try decode(replayed)
        #expect(frames.last.map(summary) == ["1 cancelled 275.0,240.0"])
    }
}
