import InputEvents
import KioskCore
import KioskTestSupport
import Testing

@Suite("Writing evemu traces")
struct EvemuWriterTests {
    /// A two-finger trace with a tap inside one report, negative and large values, on the FT5406.
    static func synthesizedTrace() -> EvemuTrace {
        let fingers = Fingers(panel: SyntheticTouchscreen.ft5406, clock: VirtualClock(Instant(seconds: 1)))
        let held = fingers.down(Point(x: 100, y: 100))
        fingers.wait(0.016)
        fingers.tapInOneReport(at: Point(x: 700, y: 400))
        fingers.up(held, after: 0.016)
        var trace = fingers.trace
        trace.ledStates = [EventCode(rawValue: 1): 1]
        return trace
    }

    @Test func writingThenReadingGivesTheSameTrace() throws {
        let trace = Self.synthesizedTrace()
        #expect(try EvemuTrace.parse(trace.text, file: "round.evemu") == trace)
    }

    @Test(arguments: Recording.allCases)
    func writingThenReadingARecordingGivesItBack(recording: Recording) throws {
        var trace = try recording.trace()
        // The writer always declares 1.3: it writes the resolution, which evemu reads from 1.2 on.
        trace.formatVersion = .current
        #expect(try EvemuTrace.parse(trace.text, file: "round.evemu") == trace)
    }

    /// `trace` as it reads back: evemu writes EV_SYN's mask as SYN_REPORT, SYN_CONFIG and
    /// SYN_DROPPED whatever the device holds.
    func readBack(_ trace: EvemuTrace) -> EvemuTrace {
        var expected = trace
        for code in [SynchronizationCode.report, .config, .dropped] { expected.device.enable(code) }
        return expected
    }

    @Test func anEmptyTraceRoundTrips() throws {
        let trace = EvemuTrace(device: DeviceDescription(name: "Nothing"))
        #expect(try EvemuTrace.parse(trace.text, file: "empty.evemu") == readBack(trace))
        #expect(trace.text.contains("I: 0000 0000 0000 0000\nP: 00 00 00 00 00 00 00 00\nB: 00 0b 00 00 00 00 00 00 00\nB: 01 00"))
    }

    @Test func negativeAndExtremeValuesRoundTrip() throws {
        var device = DeviceDescription(name: "Extremes")
        device.setAxis(.pressure, AxisInfo(minimum: Int32.min, maximum: Int32.max, fuzz: -1, flat: 7, resolution: 3))
        device.enable(EventCode(rawValue: 0x2ff), of: .key)
        let events = [
            InputEvent(time: Instant(microseconds: 0), AbsoluteAxis.pressure, Int32.min),
            InputEvent(time: Instant(microseconds: 999_999), AbsoluteAxis.pressure, Int32.max),
            InputEvent(time: Instant(microseconds: -1_500_000), AbsoluteAxis.pressure, -1),
            InputEvent(time: Instant(microseconds: 4_000_000_000_000_000), type: EventType(rawValue: 0x1f),
                       code: EventCode(rawValue: 0xffff), value: 0),
        ]
        let trace = EvemuTrace(device: device, events: events)
        #expect(try EvemuTrace.parse(trace.text, file: "extremes.evemu") == readBack(trace))
    }

    @Test func writesTheHeaderLinesEvemuRecordWrote() throws {
        let original = try Recording.ep0430m09.text()
        let written = try Recording.ep0430m09.trace().text
        func header(_ text: String) -> [Substring] {
            text.split(separator: "\n").filter { line in ["N:", "I:", "P:", "B:", "A:"].contains { line.hasPrefix($0) } }
        }
        // Force feedback's mask is two lines, as FF_MAX makes it.
        #expect(header(written).filter { $0.hasPrefix("B: 15") }.count == 2)
        #expect(header(written) == header(original))
        #expect(written.hasPrefix("# EVEMU 1.3\n"))
    }

    @Test func writesEventLinesExactlyAsEvemuRecordDid() throws {
        let original = try Recording.ep0430m09.text()
        let written = try Recording.ep0430m09.trace().text
        let events = { (text: String) in text.split(separator: "\n").filter { $0.hasPrefix("E:") } }
        #expect(events(written) == events(original))
        #expect(events(written).first == "E: 0.000001 0003 002f 0000\t# EV_ABS / ABS_MT_SLOT          0")
    }

    @Test func describesTheDeviceInCommentsForPeople() {
        let text = EvemuTrace(device: SyntheticTouchscreen.ft5406).text
        #expect(text.contains("# Input device name: \"generic ft5x06 (79)\"\n"))
        #expect(text.contains("# Input device ID: bus 0x18 vendor 0000 product 0000 version 0000\n"))
        #expect(text.contains("#     Event code 47 (ABS_MT_SLOT)\n#       Value        0\n#       Min          0\n#       Max          9\n"))
        #expect(text.contains("#   Property  type 1 (INPUT_PROP_DIRECT)\n"))
        #expect(text.contains("P: 02 00 00 00 00 00 00 00\nB: 00 0b 00 00 00 00 00 00 00\n"))
        #expect(text.contains("A: 39 0 65535 0 0 0\n"))
    }
}
