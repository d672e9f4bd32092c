import InputEvents
import KioskCore
import Testing

@Suite("Reading evemu traces")
struct EvemuParserTests {
    @Test func readsTheProtocolBRecordingsHeader() throws {
        let trace = try Recording.ep0430m09.trace()
        let device = trace.device
        #expect(trace.formatVersion == EvemuFormatVersion(major: 1, minor: 3))
        #expect(device.name == "EP0430M09")
        #expect(device.bus == 0x18)
        #expect(device.isDirect)
        #expect(device.isMultitouchB)
        #expect(device.supports(KeyCode.touch))
        #expect(device.axes[.multitouchSlot] == AxisInfo(minimum: 0, maximum: 4))
        #expect(device.axes[.multitouchPositionX] == AxisInfo(minimum: 0, maximum: 1279))
        #expect(device.axes[.multitouchPositionY] == AxisInfo(minimum: 0, maximum: 767))
        #expect(device.axes[.multitouchTrackingID] == AxisInfo(minimum: 0, maximum: 65535))
        #expect(device.axisList == [.x, .y, .multitouchSlot, .multitouchPositionX, .multitouchPositionY, .multitouchTrackingID])
        #expect(device.supportedTypes == [.synchronization, .key, .absolute])
    }

    @Test func readsTheProtocolBRecordingsEventsWithTheirComments() throws {
        let trace = try Recording.ep0430m09.trace()
        #expect(trace.events.count == 695)
        #expect(trace.events.first == InputEvent(time: Instant(microseconds: 1), AbsoluteAxis.multitouchSlot, 0))
        #expect(trace.events[1] == InputEvent(time: Instant(microseconds: 1), AbsoluteAxis.multitouchTrackingID, 13))
        #expect(trace.events.last == .report(at: Instant(microseconds: 754_659)))
        // "E: 0.732503 0003 0039 -001": evemu pads negative values too.
        #expect(trace.events.contains(InputEvent(time: Instant(microseconds: 732_503), AbsoluteAxis.multitouchTrackingID, -1)))
    }

    @Test func readsTheEGalaxHeaderInTheOlderFormat() throws {
        let trace = try Recording.egalax.trace()
        let device = trace.device
        #expect(trace.formatVersion == EvemuFormatVersion(major: 1, minor: 2))
        #expect(device.name == "eGalax Inc. USB TouchController")
        #expect([device.bus, device.vendor, device.product, device.version] == [0x03, 0x0eef, 0x0001, 0x0210])
        #expect(device.properties.isEmpty)
        #expect(!device.isDirect)
        #expect(device.isSingleTouch)
        #expect(!device.isMultitouchB)
        #expect(device.supports(KeyCode.left) && device.supports(KeyCode.right) && device.supports(KeyCode.toolPen))
        #expect(device.supports(EventCode(rawValue: 4), of: .miscellaneous))  // MSC_SCAN
        #expect(device.axes[.x] == AxisInfo(minimum: 42, maximum: 1981))
        #expect(device.axes[.z] == AxisInfo(minimum: 30, maximum: 4040))
        #expect(device.axes[.rx] == AxisInfo(minimum: 60, maximum: 4035))
    }

    @Test func keepsTheRecordingsAbsoluteTimestamps() throws {
        let trace = try Recording.egalax.trace()
        #expect(trace.events.count == 1200)
        // "E: 1330523780.970485 0004 0004 852034", the first event.
        #expect(trace.events.first == InputEvent(
            time: Instant(microseconds: 1_330_523_780_970_485), type: .miscellaneous,
            code: EventCode(rawValue: 4), value: 852_034))
    }

    @Test(arguments: ["# EVEMU 1.3\n", "# EVEMU 1.1\n", "# EVEMU 1.2\n", ""])
    func acceptsAxisLinesWithAndWithoutResolution(versionLine: String) throws {
        let text = versionLine + """
            N: Panel
            I: 0018 0000 0000 0000
            A: 00 0 799 1 2 10
            A: 01 0 479 3 4

            """
        let device = try EvemuTrace.parse(text, file: "axes.evemu").device
        #expect(device.axes[.x] == AxisInfo(minimum: 0, maximum: 799, fuzz: 1, flat: 2, resolution: 10))
        #expect(device.axes[.y] == AxisInfo(minimum: 0, maximum: 479, fuzz: 3, flat: 4, resolution: 0))
    }

    @Test func acceptsLEDAndSwitchStates() throws {
        let text = "N: Keyboard\nI: 0003 046d c31c 0110\nL: 01 1\nS: 00 1\n"
        let trace = try EvemuTrace.parse(text, file: "kbd.evemu")
        #expect(trace.ledStates == [EventCode(rawValue: 1): 1])
        #expect(trace.switchStates == [EventCode(rawValue: 0): 1])
    }

    @Test func readsPropertyAndMaskBytesSpreadOverSeveralLines() throws {
        let text = """
            N: Wide
            I: 0000 0000 0000 0000
            P: 00 00 00 00 00 00 00 00
            B: 01 00 00 00 00 00 00 00 00
            B: 01 00 04 00 00 00 00 00 00
            B: 03 03 00 00 00 00 00 00 00

            """
        let device = try EvemuTrace.parse(text, file: "wide.evemu").device
        // The second line holds codes 64...127: its byte 1, bit 2 is code 64 + 8 + 2.
        #expect(device.supportedCodes[.key] == [EventCode(rawValue: 64 + 10)])
        #expect(device.supportedCodes[.absolute] == [AbsoluteAxis.x.code, AbsoluteAxis.y.code])
        #expect(device.supportedCodes[.relative] == nil)
    }

    @Test func aHeaderWithoutEventsIsAValidTrace() throws {
        let trace = try EvemuTrace.parse("# EVEMU 1.3\nN: Quiet\nI: 0018 0000 0000 0000\nP: 02 00 00 00 00 00 00 00\n", file: "quiet.evemu")
        #expect(trace.events.isEmpty)
        #expect(trace.device.name == "Quiet")
        #expect(trace.device.isDirect)
    }

    @Test func toleratesCRLFBlankLinesAndTrailingComments() throws {
        let lf = "# EVEMU 1.3\nN: Panel\nI: 0018 0000 0000 0000\nA: 2f 0 9 0 0 0\nE: 0.000001 0003 002f 0001\t# EV_ABS / ABS_MT_SLOT 1\nE: 0.000001 0000 0000 0000\n"
        let crlf = "\r\n" + lf.replacing("\n", with: "\r\n\r\n")
        let expected = try EvemuTrace.parse(lf, file: "lf.evemu")
        #expect(try EvemuTrace.parse(crlf, file: "crlf.evemu") == expected)
        #expect(expected.events.count == 2)
        #expect(expected.events[0].value == 1)
    }

    @Test func namesTheFileLineAndExpectationOfABrokenEvent() {
        let text = "# EVEMU 1.3\nN: Panel\nI: 0018 0000 0000 0000\nE: 0.000001 0003 002f 0000\n\nE: 0.1 0003\n"
        #expect {
            try EvemuTrace.parse(text, file: "trace.evemu")
        } throws: { error in
            "\(error)" == "trace.evemu:6: expected 'E: seconds type code value', found 'E: 0.1 0003'"
        }
    }

    static let malformed: [(text: String, line: Int, expected: String)] = [
        ("", 1, "the file is empty: this is not an evemu recording, which is UTF-8 text starting with 'N: device name'"),
        ("# only a comment\n", 2, "expected 'N: device name', found end of file"),
        ("I: 0018 0000 0000 0000\n", 1, "expected 'N: device name' first, found 'I: 0018 0000 0000 0000'"),
        ("N: Panel\n", 2, "expected 'I: bus vendor product version' (four hex numbers), found end of file"),
        ("N: Panel\nI: 0018 0000\n", 2, "expected 'I: bus vendor product version' (four hex numbers), found 'I: 0018 0000'"),
        ("N: Panel\nI: 0018 0000 0000 0000 zz\n", 2, "expected 'I: bus vendor product version' (four hex numbers)"),
        ("N: Panel\nI: 0018 0000 0000 0000\nP: 02 00\n", 3, "expected 'P:' and 8 hex bytes, found 'P: 02 00'"),
        ("N: Panel\nI: 0018 0000 0000 0000\nB: 03 0g 00 00 00 00 00 00 00\n", 3, "expected 'B: type' and 8 hex bytes"),
        ("N: Panel\nI: 0018 0000 0000 0000\nB: 20 00 00 00 00 00 00 00 00\n", 3, "expected 'B: type' and 8 hex bytes"),
        ("N: Panel\nI: 0018 0000 0000 0000\nA: 00 0 799 0\n", 3, "expected 'A: code min max fuzz flat [resolution]'"),
        ("N: Panel\nI: 0018 0000 0000 0000\nA: 40 0 799 0 0 0\n", 3, "expected 'A: code min max fuzz flat [resolution]'"),
        ("N: Panel\nI: 0018 0000 0000 0000\nP: 00 00 00 00 01 00 00 00\n", 3, "expected property bits below 32 (INPUT_PROP_CNT)"),
        ("N: Panel\nI: 0018 0000 0000 0000\nQ: what\n", 3, "expected a header line (P:, B:, A:, L:, S:) or 'E: seconds type code value', found 'Q: what'"),
        ("N: Panel\nI: 0018 0000 0000 0000\nE: 0.000001 0003 0035 abc\n", 3,
         "expected 'E: seconds type code value': the value 'abc' is not a decimal number, found 'E: 0.000001 0003 0035 abc'"),
        ("N: Panel\nI: 0018 0000 0000 0000\nE: 0.0000001 0003 0035 1\n", 3, "expected 'E: seconds type code value'"),
        ("N: Panel\nI: 0018 0000 0000 0000\nE: 0.000001 0003 0035 1 2\n", 3, "expected 'E: seconds type code value'"),
        ("N: Panel\nI: 0018 0000 0000 0000\nE: 0.000001 0003 0035 1\nA: 00 0 799 0 0 0\n", 4, "expected 'E: seconds type code value', found 'A: 00 0 799 0 0 0'"),
        ("N: Panel\nI: 0018 0000 0000 0000\nE: 0.000001 0003 0035 4294967296\n", 3,
         "expected 'E: seconds type code value': the value '4294967296' does not fit in 32 bits (-2147483648...2147483647), found"),
        ("N: Panel\nI: 0018 0000 0000 0000\nE: 0.000001 0003 0035 -2147483649\n", 3,
         "expected 'E: seconds type code value': the value '-2147483649' does not fit in 32 bits"),
        ("N: Panel\nI: 0018 0000 0000 0000\nE: 0.000001 0003 0035 1x\n", 3,
         "expected 'E: seconds type code value': the value '1x' is not a decimal number"),
        ("N: Panel\nI: 0018 0000 0000 0000\nE: 0.0000001 0003 0035 1\n", 3,
         "expected 'E: seconds type code value': the time '0.0000001' is not seconds.microseconds"),
        ("N: Panel\nI: 0018 0000 0000 0000\nE: 0.000001 10000 0035 1\n", 3,
         "expected 'E: seconds type code value': the type '10000' is above 0xffff"),
        ("N: Panel\nI: 0018 0000 0000 0000\nE: 0.000001 0003 00x5 1\n", 3,
         "expected 'E: seconds type code value': the code '00x5' is not a hex number up to 0xffff"),
        ("N: Panel\nI: 0018 0000 0000 0000\nE: 0.000001 0003 0035 1 2\n", 3,
         "expected 'E: seconds type code value': more after the value"),
        ("N: Panel\nI: 0018 0000 0000 0000\nA: 40 0 799 0 0 0\n", 3,
         "expected 'A: code min max fuzz flat [resolution]' (code hex up to ABS_MAX, then 4 or 5 decimal numbers): the code '40' is above 0x3f (ABS_MAX)"),
        ("N: Panel\nI: 0018 0000 0000 0000\nA: 00 0 99999999999 0 0 0\n", 3,
         "expected 'A: code min max fuzz flat [resolution]' (code hex up to ABS_MAX, then 4 or 5 decimal numbers): max '99999999999' does not fit in 32 bits"),
        ("N: Panel\nI: 0018 0000 0000 0000\nA: 00 0 799 0 0 0 7\n", 3,
         "expected 'A: code min max fuzz flat [resolution]' (code hex up to ABS_MAX, then 4 or 5 decimal numbers): more than 5 numbers"),
        ("N: Panel\nI: 0018 0000 0000 0000\nA: 35 800 0 0 0 0\n", 3,
         "ABS_MT_POSITION_X: min 800 is above max 0; expected min <= max, found 'A: 35 800 0 0 0 0'"),
    ]

    @Test(arguments: malformed)
    func refusesMalformedLinesNamingWhereAndWhat(text: String, line: Int, expected: String) {
        #expect {
            try EvemuTrace.parse(text, file: "bad.evemu")
        } throws: { error in
            guard let error = error as? EvemuParseError else { return false }
            return error.file == "bad.evemu" && error.line == line && error.message.hasPrefix(expected)
                && "\(error)".hasPrefix("bad.evemu:\(line): \(expected)")
        }
    }

    static let notText: [(bytes: [UInt8], line: Int, expected: String)] = [
        ([], 1, "the file is empty: this is not an evemu recording, which is UTF-8 text starting with 'N: device name'"),
        ([0xff, 0xfe, 0x4e, 0x00], 1, "the file starts with a UTF-16 byte order mark: this is not an evemu recording"),
        ([0xfe, 0xff, 0x00, 0x4e], 1, "the file starts with a UTF-16 byte order mark"),
        (Array("N: Panel\nI".utf8) + [0x00, 0x3a], 2, "column 2: a NUL byte, as in UTF-16 or a binary file: this is not an evemu recording"),
        (Array("N: Panel\n\n# caf".utf8) + [0xe9, 0x0a], 3, "column 6: byte 0xe9 is not UTF-8: this is not an evemu recording"),
    ]

    @Test(arguments: notText)
    func refusesWhatIsNotUTF8TextNamingWhere(bytes: [UInt8], line: Int, expected: String) {
        #expect {
            try EvemuTrace.parse(bytes: bytes, file: "bad.evemu")
        } throws: { error in
            guard let error = error as? EvemuParseError else { return false }
            return error.line == line && error.message.hasPrefix(expected)
        }
    }

    @Test func skipsAUTF8ByteOrderMark() throws {
        let text = "N: Panel\nI: 0018 0000 0000 0000\nE: 0.000001 0003 0035 7\n"
        #expect(try EvemuTrace.parse(bytes: [0xef, 0xbb, 0xbf] + Array(text.utf8), file: "bom.evemu") == EvemuTrace.parse(text, file: "lf.evemu"))
    }
}
