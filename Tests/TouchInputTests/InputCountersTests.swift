import InputEvents
import KioskCore
import KioskTestSupport
import Testing
import TouchInput

/// What the stats line reports of live input: each kind of trouble met and survived, counted.
/// (Resyncs, attaching and removing need a real device: KernelTests' `kiosk touches` runs.)
@Suite("Input counters")
struct InputCountersTests {
    /// The counters after `events` went through a live decoder for `device`.
    func counters(_ events: [InputEvent], device: DeviceDescription = SyntheticTouchscreen.ft5406) throws -> InputCounters {
        let decoder = try TouchscreenDecoder(device: device, screen: Size(width: 800, height: 480))
        for event in events { decoder.feed(event) { _ in } }
        return InputCounters(decoding: decoder.counters)
    }

    func event<Code: TypedEventCode>(_ code: Code, _ value: Int32) -> InputEvent {
        InputEvent(time: Instant(seconds: 1), code, value)
    }

    var report: InputEvent { .report(at: Instant(seconds: 1)) }

    @Test func aCleanTouchCountsNothing() throws {
        let panel = Fingers(panel: SyntheticTouchscreen.ft5406, clock: VirtualClock(Instant(seconds: 1)))
        panel.up(panel.down(Point(x: 100, y: 100)), after: 0)
        #expect(try counters(panel.events) == InputCounters())
    }

    @Test func moreFingersThanSlotsAreSlotOverflows() throws {
        let c = try counters([
            event(AbsoluteAxis.multitouchSlot, 10), event(AbsoluteAxis.multitouchTrackingID, 5),
            event(AbsoluteAxis.multitouchSlot, 11), event(AbsoluteAxis.multitouchTrackingID, 6), report,
        ])
        #expect(c.slotOverflows == 2)
        #expect(c.outOfRangeValues == 0)
    }

    @Test func coordinatesOutsideTheAxisRangeAreCounted() throws {
        let c = try counters([
            event(AbsoluteAxis.multitouchTrackingID, 1), event(AbsoluteAxis.multitouchPositionX, 900),
            event(AbsoluteAxis.multitouchPositionY, -3), report,
        ])
        #expect(c.outOfRangeValues == 2)
    }

    @Test func aTrackingIDReplacedWithoutALiftIsCounted() throws {
        let c = try counters([
            event(AbsoluteAxis.multitouchTrackingID, 1), report, event(AbsoluteAxis.multitouchTrackingID, 2), report,
        ])
        #expect(c.reusedTrackingIDs == 1)
    }

    @Test func releasesWithoutAPressAreCountedForEveryKind() throws {
        let lift = try counters([event(AbsoluteAxis.multitouchTrackingID, -1), report])
        #expect(lift.releasesWithoutPress == 1)
        let button = try counters([event(KeyCode.touch, 0), report], device: SyntheticTouchscreen.resistive)
        #expect(button.releasesWithoutPress == 1)
        // A protocol A panel's empty report: mtdev makes no lift of it, so nothing was released.
        let protocolA = try counters([event(SynchronizationCode.multitouchReport, 0), event(KeyCode.touch, 0), report],
                                     device: SyntheticTouchscreen.protocolA)
        #expect(protocolA.releasesWithoutPress == 0)
    }

    @Test func touchesTakenAwayByAnUnplugAreCounted() throws {
        let panel = Fingers(panel: SyntheticTouchscreen.resistive, clock: VirtualClock(Instant(seconds: 1)))
        panel.down(Point(x: 100, y: 100))
        panel.unplug()
        #expect(try counters(panel.events, device: panel.device).unplugCancelledTouches == 1)
    }

    @Test func eventsThrownAwayUnreadAreCountedOnEveryKindOfPanel() throws {
        let impossible = InputEvent(time: Instant(seconds: 1), type: .absolute, code: EventCode(rawValue: 0xff), value: 1)
        #expect(try counters([impossible, report]).rejectedEvents == 1)
        #expect(try counters([impossible, report], device: SyntheticTouchscreen.resistive).rejectedEvents == 1)
        // Protocol A: dropped before libmtdev, with the 32nd and 33rd contacts of one report.
        var contacts: [InputEvent] = []
        for i in 0..<33 {
            contacts += [event(AbsoluteAxis.multitouchPositionX, Int32(i)), event(AbsoluteAxis.multitouchPositionY, Int32(i)),
                         event(SynchronizationCode.multitouchReport, 0)]
        }
        #expect(try counters([impossible] + contacts + [report], device: SyntheticTouchscreen.protocolA).rejectedEvents == 3)
        var sum = InputCounters()
        sum.rejectedEvents = 2
        #expect((sum + sum).rejectedEvents == 4)
    }

    @Test func theFieldsAreDottedKeysForTheStatsLine() {
        var c = InputCounters()
        c.resyncs = 1
        c.slotOverflows = 2
        c.outOfRangeValues = 3
        c.reusedTrackingIDs = 4
        c.releasesWithoutPress = 5
        c.rejectedEvents = 6
        c.shortTouchesDropped = 7
        c.largeTouchesDropped = 8
        c.ignoredRegionTouches = 9
        c.unplugCancelledTouches = 10
        c.devicesAttached = 11
        c.devicesRemoved = 12
        let fields = c.fields()
        #expect(fields.map(\.key) == [
            "input.resyncs", "input.slot_overflows", "input.out_of_range", "input.tracking_id_reuse",
            "input.releases_without_press", "input.rejected_events",
            "input.filtered_short", "input.filtered_large", "input.filtered_region", "input.unplug_cancelled", "input.devices_attached",
            "input.devices_removed",
        ])
        #expect(fields.map(\.value) == Array(1...12))
        // The filters' counts are carried by + too: a run's totals add up across devices.
        #expect((c + c).ignoredRegionTouches == 18 && (c + c).shortTouchesDropped == 14 && (c + c).largeTouchesDropped == 16)
        #expect(InputCounters(decoding: TouchDecoder.Counters(), resyncs: 3).resyncs == 3)
    }
}
