import KioskLog
import Testing

@Suite struct LogLineFormatTests {
    @Test(arguments: [
        (1234.56789, "[  1234.567890]"),
        (0, "[     0.000000]"),
        (0.0000004, "[     0.000000]"),
        (0.0000006, "[     0.000001]"),
        (59.9999996, "[    60.000000]"),
        (1_234_567.5, "[1234567.500000]"),
        (-3, "[     0.000000]"),
    ])
    func timestampsAreSecondsWithSixDecimals(seconds: Double, text: String) {
        #expect(LogLineFormat.timestamp(seconds) == text)
    }

    @Test func metadataIsSortedByKeyAfterTheMessage() {
        let line = LogLineFormat.line(
            timestamp: 1, level: .notice, message: "panel on",
            metadata: ["touch.slot": "3", "drm.connector": "HDMI-A-1", "drm.mode": "800x480@60"])
        #expect(line == "[     1.000000] notice panel on drm.connector=HDMI-A-1 drm.mode=800x480@60 touch.slot=3")
    }

    @Test func valuesWithSpacesQuotesOrNothingAreQuoted() {
        let line = LogLineFormat.line(
            timestamp: 1, level: .info, message: "device",
            metadata: ["input.name": "generic ft5x06 (79)", "input.note": "say \"hi\"", "input.empty": "", "input.path": "C:\\x"])
        #expect(line == #"[     1.000000] info device input.empty="" input.name="generic ft5x06 (79)" input.note="say \"hi\"" input.path=C:\x"#)
    }

    @Test func aMessageIsAlwaysOneLine() {
        let line = LogLineFormat.line(
            timestamp: 1, level: .error, message: "config:\nline 3: bad\r\tend\u{1B}[2J",
            metadata: ["config.error": "a\nb"])
        #expect(line == #"[     1.000000] error config:\nline 3: bad\r\tend\x1b[2J config.error="a\nb""#)
        #expect(!line.contains("\n") && !line.contains("\r") && !line.contains("\u{1B}"))
    }

    @Test func nestedValuesAreQuotedAsOneValue() {
        let line = LogLineFormat.line(timestamp: 1, level: .debug, message: "m", metadata: ["a.list": ["1", "2"]])
        #expect(line == #"[     1.000000] debug m a.list="[\"1\", \"2\"]""#)
    }

    @Test func repeatsFollowTheMessage() {
        let line = LogLineFormat.line(timestamp: 2, level: .warning, message: "frame late", repeats: 41, metadata: ["loop.stage": "render"])
        #expect(line == "[     2.000000] warning frame late (repeated 41 times) loop.stage=render")
    }
}
