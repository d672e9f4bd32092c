import InputEvents
import KioskCore
import KioskTestSupport
import MultitouchA
import Testing

/// Whole traces: a protocol A panel and an FT5406 touched the same way give the same touches.
@Suite("Protocol A traces")
struct ProtocolBTraceTests {
    /// A pinch, one finger of it lifting first, a tap and a drag, at 60 reports a second.
    static func touch(_ panel: inout SyntheticTouchscreen) {
        panel.down(0, at: Point(x: 370, y: 190))
        panel.down(1, at: Point(x: 430, y: 190))
        panel.sync()
        for step in 1...8 {
            panel.wait(1.0 / 60)
            panel.move(0, to: Point(x: 370 - Double(step) * 5, y: 190 + Double(step)))
            panel.move(1, to: Point(x: 430 + Double(step) * 5, y: 190 - Double(step)))
            panel.sync()
        }
        panel.wait(1.0 / 60)
        panel.up(0)
        panel.sync()
        panel.wait(1.0 / 60)
        panel.move(1, to: Point(x: 480, y: 200))
        panel.sync()
        panel.wait(1.0 / 60)
        panel.up(1)
        panel.sync()
        panel.wait(0.1)
        panel.down(2, at: Point(x: 130, y: 424))
        panel.sync()
        panel.wait(0.05)
        panel.up(2)
        panel.sync()
        panel.wait(0.1)
        panel.down(3, at: Point(x: 160, y: 190))
        panel.sync()
        for step in 1...6 {
            panel.wait(1.0 / 60)
            panel.move(3, to: Point(x: 160 + Double(step) * 7, y: 190 + Double(step) * 4))
            panel.sync()
        }
        panel.wait(1.0 / 60)
        panel.up(3)
        panel.sync()
    }

    @Test(arguments: [SyntheticTouchscreen.ProtocolARelease.emptyContact, .touchButtonOnly])
    func aProtocolATraceGivesTheFramesOfItsProtocolBTwin(release: SyntheticTouchscreen.ProtocolARelease) throws {
        var a = SyntheticTouchscreen(device: SyntheticTouchscreen.protocolA)
        a.protocolARelease = release
        Self.touch(&a)
        var b = SyntheticTouchscreen(device: SyntheticTouchscreen.ft5406)
        Self.touch(&b)
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
        var a = SyntheticTouchscreen(device: SyntheticTouchscreen.protocolA)
        Self.touch(&a)
        let converted = try a.trace.convertedToProtocolB()
        #expect(converted.device == (try ProtocolAConverter(device: SyntheticTouchscreen.protocolA)).protocolB)
        #expect(a.trace.events.contains { $0.synchronization == .multitouchReport })
        #expect(!converted.events.contains { $0.synchronization == .multitouchReport })
        #expect(converted.events.contains { $0.axis == .multitouchSlot })
        #expect(converted.events.filter { $0.synchronization == .report }.count == a.trace.events.filter { $0.synchronization == .report }.count)
    }

    @Test func aTraceThatIsNotProtocolAStaysAsItIs() throws {
        var b = SyntheticTouchscreen(device: SyntheticTouchscreen.ft5406)
        Self.touch(&b)
        #expect(try b.trace.convertedToProtocolB() == b.trace)
        var resistive = SyntheticTouchscreen(device: SyntheticTouchscreen.resistive)
        resistive.down(0, at: Point(x: 10, y: 10))
        resistive.sync()
        #expect(try resistive.trace.convertedToProtocolB() == resistive.trace)
    }
}
