import InputEvents
import KioskCore
import KioskTestSupport
import MultitouchA
import Testing

/// Whole traces: a protocol A panel and an FT5406 touched the same way give the same touches.
@Suite("Protocol A traces")
struct ProtocolBTraceTests {
    /// A pinch, one finger of it lifting first, a tap and a drag, at 60 reports a second.
    static func touch(_ panel: Fingers) {
        let pinch = panel.down(Point(x: 370, y: 190), Point(x: 430, y: 190))
        for step in 1...8 {
            panel.move([pinch[0]: Point(x: 370 - Double(step) * 5, y: 190 + Double(step)),
                        pinch[1]: Point(x: 430 + Double(step) * 5, y: 190 - Double(step))], after: 1.0 / 60)
        }
        panel.up([pinch[0]], after: 1.0 / 60)
        panel.move([pinch[1]: Point(x: 480, y: 200)], after: 1.0 / 60)
        panel.up([pinch[1]], after: 1.0 / 60)
        panel.wait(0.1)
        panel.up(panel.down(Point(x: 130, y: 424)), after: 0.05)
        panel.wait(0.1)
        let drag = panel.down(Point(x: 160, y: 190))
        for step in 1...6 {
            panel.move([drag[0]: Point(x: 160 + Double(step) * 7, y: 190 + Double(step) * 4)], after: 1.0 / 60)
        }
        panel.up(drag, after: 1.0 / 60)
    }

    @Test(arguments: [SyntheticTouchscreen.ProtocolARelease.emptyContact, .touchButtonOnly])
    func aProtocolATraceGivesTheFramesOfItsProtocolBTwin(release: SyntheticTouchscreen.ProtocolARelease) throws {
        let a = Fingers(panel: SyntheticTouchscreen.protocolA, clock: VirtualClock(Instant(seconds: 1)), protocolARelease: release)
        Self.touch(a)
        let b = Fingers(panel: SyntheticTouchscreen.ft5406, clock: VirtualClock(Instant(seconds: 1)))
        Self.touch(b)
        // Through the text format, as a recording would come.
        let recorded = try EvemuTrace.parse(a.trace.text, file: "protocol-a.evemu")
        #expect(recorded.device.isMultitouchA)
        let converted = try recorded.convertedToProtocolB()
        let frames = try decodeProtocolB(converted)
        let twin = try decodeProtocolB(b.trace)
        #expect(frames.map(summary) == twin.map(summary))
        #expect(frames.map(\.time) == twin.map(\.time))
        #expect(frames.count == 22)
        #expect(frames.last.map(summary) == ["4 ended 202.0,214.0"])
    }

    @Test func theConvertedTraceHasTheConvertedDeviceAndNoProtocolAEvents() throws {
        let a = Fingers(panel: SyntheticTouchscreen.protocolA, clock: VirtualClock(Instant(seconds: 1)))
        Self.touch(a)
        let converted = try a.trace.convertedToProtocolB()
        // Outside #expect: Swift 6.0's Testing expands it into a closure that cannot throw.
        let expected = try ProtocolAConverter(device: SyntheticTouchscreen.protocolA).protocolB
        #expect(converted.device == expected)
        #expect(a.trace.events.contains { $0.synchronization == .multitouchReport })
        #expect(!converted.events.contains { $0.synchronization == .multitouchReport })
        #expect(converted.events.contains { $0.axis == .multitouchSlot })
        #expect(converted.events.filter { $0.synchronization == .report }.count == a.trace.events.filter { $0.synchronization == .report }.count)
    }

    @Test func aTraceThatIsNotProtocolAStaysAsItIs() throws {
        let b = Fingers(panel: SyntheticTouchscreen.ft5406, clock: VirtualClock(Instant(seconds: 1)))
        Self.touch(b)
        #expect(try b.trace.convertedToProtocolB() == b.trace)
        let resistive = Fingers(panel: SyntheticTouchscreen.resistive, clock: VirtualClock(Instant(seconds: 1)))
        resistive.down(Point(x: 10, y: 10))
        #expect(try resistive.trace.convertedToProtocolB() == resistive.trace)
    }
}
