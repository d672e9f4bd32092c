import InputEvents
import KioskCore
import KioskTestSupport
import MultitouchA
import Testing

/// What the converter keeps from libmtdev, which trusts its input: each case here crashed or hung
/// it before (`kiosk replay` of the same reports is in SceneTests' HostileTraceTests). A failure
/// here can be the test process dying: that is the bug showing.
@Suite("Converting protocol A touches, within libmtdev's limits")
struct ConverterLimitsTests {
    /// `count` contacts in one report, each with the device's tracking id `ids + i` when given.
    func report(_ count: Int, ids: Int32? = nil, into k: inout EvdevScript) {
        for i in 0..<count { k.contact(Int32(10 * i), Int32(5 * i), id: ids.map { $0 + Int32(i) }) }
        k.report()
    }

    /// The tracking ids the converted events give contacts (lifts aside).
    func newTrackingIDs(_ events: [InputEvent]) -> Int {
        events.count(where: { $0.axis == .multitouchTrackingID && $0.value >= 0 })
    }

    @Test func thirtyOneContactsInAReportAllGetThrough() throws {
        var k = EvdevScript()
        report(31, into: &k)
        let converter = try ProtocolAConverter(device: SyntheticTouchscreen.protocolA)
        #expect(newTrackingIDs(converter.convert(k.events)) == 31)
        #expect(converter.counters == ProtocolAConverter.Counters())
    }

    @Test(arguments: [32, 33, 100])
    func contactsBeyondThirtyOneAreDroppedAndCounted(count: Int) throws {
        var k = EvdevScript()
        report(count, into: &k)
        report(count, into: &k)
        let converter = try ProtocolAConverter(device: SyntheticTouchscreen.protocolA)
        #expect(converter.contactLimit == 31)
        let out = converter.convert(k.events)
        #expect(newTrackingIDs(out) == 31, "the first 31, which stay put in the second report")
        #expect(converter.counters.droppedContacts == 2 * (count - 31))
        #expect(converter.counters.invalidEvents == 0 && converter.counters.droppedEvents == 0)
        // The counts reach the decoder's reckoning, and so the input counters.
        #expect(converter.counters.total == 2 * (count - 31))
    }

    @Test func aPanelWithItsOwnTrackingIDsGetsFifteenContactsAReport() throws {
        // Fifteen new contacts after fifteen others take 30 of libmtdev's 31 usable slots.
        var device = SyntheticTouchscreen.protocolA
        device.setAxis(.multitouchTrackingID, AxisInfo(minimum: 0, maximum: 65535))
        var k = EvdevScript()
        report(16, ids: 0, into: &k)
        report(16, ids: 100, into: &k)
        report(16, ids: 200, into: &k)
        let converter = try ProtocolAConverter(device: device)
        #expect(converter.contactLimit == 15)
        let out = converter.convert(k.events)
        #expect(newTrackingIDs(out) == 45)
        #expect(converter.counters.droppedContacts == 3)
    }

    @Test(arguments: [0x3f, 0x40, 0xff, 0xffff] as [UInt16])
    func anAbsoluteCodeNoAxisHasIsDroppedNotPassedToLibmtdev(code: UInt16) throws {
        var k = EvdevScript()
        k.contact(100, 200)
        k.report()
        var events = k.events
        events.insert(InputEvent(time: k.now, type: .absolute, code: EventCode(rawValue: code), value: 1), at: 0)
        let converter = try ProtocolAConverter(device: SyntheticTouchscreen.protocolA)
        let out = converter.convert(events)
        let invalid = code > 0x3f
        #expect(converter.counters.invalidEvents == (invalid ? 1 : 0))
        #expect(out.contains { $0.code.rawValue == code && $0.type == .absolute } == !invalid)
        #expect(newTrackingIDs(out) == 1, "the contact itself gets through")
    }

    @Test func aSlotOnAPanelWithoutSlotsIsDropped() throws {
        // mtdev would pass ABS_MT_SLOT on, and the decoder would write the next contact to that slot, or
        // nowhere: mtdev, thinking slot 0 still selected, would not select it again.
        var k = EvdevScript()
        k.add(AbsoluteAxis.multitouchSlot, 77)
        k.contact(100, 200)
        k.report()
        let (frames, _) = try decode(k.events)
        #expect(frames.map(summary) == [["1 began 100.0,200.0"]])
    }

    @Test func aReportOfMoreEventsThanLibmtdevQueuesKeepsTheFirst256() throws {
        var k = EvdevScript()
        for _ in 0..<300 { k.touchButton(true) }
        k.contact(100, 200)
        k.report()
        let converter = try ProtocolAConverter(device: SyntheticTouchscreen.protocolA)
        let out = converter.convert(k.events)
        #expect(converter.counters.droppedEvents == 300 + 3 - ProtocolAConverter.eventLimit)
        #expect(out.count(where: { $0.key == .touch }) == ProtocolAConverter.eventLimit)
        #expect(out.last == .report(at: k.events.last!.time))
        // The next report starts afresh.
        var next = EvdevScript(clock: k.clock)
        next.contact(120, 200)
        next.report()
        #expect(newTrackingIDs(converter.convert(next.events)) == 1)
    }
}
