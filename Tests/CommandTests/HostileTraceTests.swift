import Foundation
import InputEvents
import KioskTestSupport
import Testing

/// `kiosk replay` fed traces no device would write: each must end, by itself, with status 0 or a
/// clear error and status 2; never a signal, never a hang. Run as a user runs it, the built
/// executable in a process of its own, so a crash in a C library shows as the signal it is.
@Suite("kiosk replay, hostile traces")
struct HostileTraceTests {
    /// The synthetic protocol A panel's header (no events), for hand-written reports.
    static let protocolAHeader = EvemuTrace(device: SyntheticTouchscreen.protocolA).text
    /// The FT5406's (protocol B) header.
    static let protocolBHeader = EvemuTrace(device: SyntheticTouchscreen.ft5406).text
    /// The resistive single-touch panel's header.
    static let singleTouchHeader = EvemuTrace(device: SyntheticTouchscreen.resistive).text

    /// One finger down and up: the trace still replays around the bad events.
    static let tap = """
        E: 1.000000 0003 0035 400
        E: 1.000000 0003 0036 240
        E: 1.000000 0000 0002 0
        E: 1.000000 0001 014a 1
        E: 1.000000 0000 0000 0
        E: 1.050000 0000 0002 0
        E: 1.050000 0001 014a 0
        E: 1.050000 0000 0000 0

        """

    /// `count` contacts in one protocol A report, 10 units apart, closed by one SYN_REPORT.
    static func contacts(_ count: Int, at time: String = "0.500000") -> String {
        (0..<count).map { i in
            "E: \(time) 0003 0035 \(10 * i)\nE: \(time) 0003 0036 \(10 * i)\nE: \(time) 0000 0002 0\n"
        }.joined() + "E: \(time) 0000 0000 0\n"
    }

    /// Events no kernel sends, each closed by a SYN_REPORT: codes around ABS_MAX (0x3f) and
    /// ABS_CNT, types around EV_MAX (0x1f), the largest values of every field.
    static let impossibleEvents = [
        "E: 0.000000 0003 00ff 1\n", // the fuzzer's: EV_ABS far above ABS_MAX
        "E: 0.000000 0003 003f 1\n", // ABS_MAX itself: a code no axis has
        "E: 0.000000 0003 0040 1\n", // ABS_CNT
        "E: 0.000000 0003 0041 -1\n",
        "E: 0.000000 0003 ffff 2147483647\n",
        "E: 0.000000 0003 002f -2147483648\n", // ABS_MT_SLOT on a device without slots
        "E: 0.000000 0003 003c 5\n", // ABS_MT_TOOL_X: multitouch, but not an axis libmtdev knows
        "E: 0.000000 0020 0000 1\n", // EV_CNT
        "E: 0.000000 001f 0000 1\n", // EV_MAX
        "E: 0.000000 ffff ffff -1\n",
        "E: 0.000000 0001 ffff 1\n", // EV_KEY above KEY_MAX
        "E: 0.000000 0000 000f 0\n", // SYN_MAX
        "E: 0.000000 0000 0010 0\n", // above SYN_MAX
        "E: 0.000000 0000 0003 0\n", // SYN_DROPPED
        "E: 0.000000 0003 0035 -2147483648\nE: 0.000000 0003 0036 2147483647\nE: 0.000000 0000 0002 0\n",
    ].map { $0 + "E: 0.000000 0000 0000 0\n" }

    @Test(arguments: impossibleEvents)
    func aProtocolATraceWithEventsNoKernelSendsReplays(events: String) throws {
        let r = try replay(Self.protocolAHeader + events + Self.tap)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stdout.isEmpty, "the touch after the bad events is still read")
    }

    @Test(arguments: impossibleEvents)
    func aProtocolBTraceWithEventsNoKernelSendsReplays(events: String) throws {
        let r = try replay(Self.protocolBHeader + events)
        #expect(r.status == 0, "\(r.stderr)")
    }

    @Test(arguments: impossibleEvents)
    func aSingleTouchTraceWithEventsNoKernelSendsReplays(events: String) throws {
        let r = try replay(Self.singleTouchHeader + events)
        #expect(r.status == 0, "\(r.stderr)")
    }

    @Test(arguments: [31, 32, 33, 64, 200])
    func aProtocolAReportWithManyContactsEnds(count: Int) throws {
        // 32 contacts in one report made libmtdev loop for ever; 31 it takes.
        let r = try replay(Self.protocolAHeader + Self.contacts(count) + Self.contacts(count, at: "0.510000") + Self.tap)
        #expect(r.status == 0, "\(r.stderr)")
    }

    @Test func aProtocolAPanelWithItsOwnTrackingIDsSwappingEveryContactEnds() throws {
        // The device's ids: 16 new contacts after 16 others need 32 slots; libmtdev hangs on its 32nd.
        var device = SyntheticTouchscreen.protocolA
        device.setAxis(.multitouchTrackingID, AxisInfo(minimum: 0, maximum: 65535))
        var text = EvemuTrace(device: device).text
        for report in 0..<4 {
            let time = String(format: "0.%06d", 100_000 + report * 10_000)
            for i in 0..<16 {
                text += "E: \(time) 0003 0039 \(report * 100 + i)\nE: \(time) 0003 0035 \(10 * i)\nE: \(time) 0003 0036 \(10 * i)\n"
                text += "E: \(time) 0000 0002 0\n"
            }
            text += "E: \(time) 0000 0000 0\n"
        }
        let r = try replay(text)
        #expect(r.status == 0, "\(r.stderr)")
    }

    @Test func aProtocolAReportOfThousandsOfEventsEnds() throws {
        // More than libmtdev's queue of 511 before one SYN_REPORT.
        let many = String(repeating: "E: 0.200000 0003 0035 7\nE: 0.200000 0001 014a 1\n", count: 2000)
        let r = try replay(Self.protocolAHeader + many + "E: 0.200000 0000 0000 0\n" + Self.tap)
        #expect(r.status == 0, "\(r.stderr)")
    }

    // MARK: Running

    /// `kiosk replay` of `trace`, killed after `seconds`: a hang fails the test instead of stalling the suite.
    func replay(_ trace: String, seconds: Double = 60) throws -> KioskExecutable.Finished {
        let dir = try KioskExecutable.temporaryFolder("hostile")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("trace.evemu").path
        try Data(trace.utf8).write(to: URL(fileURLWithPath: path))
        return try KioskExecutable.run(["replay", path], seconds: seconds)
    }
}
