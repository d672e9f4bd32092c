import Glibc
import InputEvents
import KioskCore
import KioskTestSupport
import Testing
@testable import TouchInput

/// `kiosk record`'s file: written as the events come, a report at a time, readable by evemu.
@Suite("Recording a trace")
struct TraceRecorderTests {
    func contents(_ path: String) -> String {
        guard let file = fopen(path, "r") else { return "" }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = fread(&buffer, 1, buffer.count, file)
            if n <= 0 { break }
            bytes += buffer[..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A drag on the FT5406, starting at 5 s.
    var drag: EvemuTrace {
        let panel = Fingers(panel: SyntheticTouchscreen.ft5406, clock: VirtualClock(Instant(seconds: 5)))
        let finger = panel.down(Point(x: 100, y: 100))
        panel.move([finger[0]: Point(x: 120, y: 110)], after: 0.016)
        panel.up(finger, after: 0.016)
        return panel.trace
    }

    @Test func eachReportIsInTheFileOnceItsSynReportArrives() throws {
        let folder = TemporaryFolder()
        let path = "\(folder.path)/drag.evemu"
        let trace = drag
        let recorder = try TraceRecorder(path: path, device: trace.device)
        let header = contents(path)
        #expect(header.hasSuffix("#      Waiting for events      #\n################################\n"))
        let firstReport = try #require(trace.events.firstIndex { $0.synchronization == .report })
        for event in trace.events[..<firstReport] { recorder.record(event) }
        #expect(contents(path) == header, "a report is held until its SYN_REPORT")
        recorder.record(trace.events[firstReport])
        let afterOne = contents(path)
        #expect(afterOne.count > header.count)
        #expect(afterOne.hasSuffix("SYN_REPORT (0) ---------- +0ms\n"), "\(afterOne.suffix(200))")
        for event in trace.events[(firstReport + 1)...] { recorder.record(event) }
        try recorder.finish()
        #expect(recorder.eventCount == trace.events.count)

        // Read back: the same events, with times from 0.
        let read = try EvemuTrace.parse(contents(path), file: path)
        #expect(read.device.axes == trace.device.axes)
        #expect(read.events.map(\.value) == trace.events.map(\.value))
        #expect(read.events.first?.time == .zero)
        #expect(read.events.last?.time == Instant(microseconds: 32_000))
    }

    @Test func theHeaderIsEvemusWithTheKernelAndEveryCodeNamedByLibevdev() throws {
        let folder = TemporaryFolder()
        let path = "\(folder.path)/header.evemu"
        var device = SyntheticTouchscreen.ft5406
        // A code this package leaves unnamed; libevdev names it.
        device.enable(EventCode(rawValue: 0x04), of: .miscellaneous)
        _ = try TraceRecorder(path: path, device: device)
        let text = contents(path)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == "# EVEMU 1.3")
        #expect(lines.dropFirst().first?.hasPrefix("# Kernel: ") == true)
        #expect(text.contains("#     Event code 4 (MSC_SCAN)\n"))
        #expect(text.contains("#     Event code 330 (BTN_TOUCH)\n"))
        let header = EvemuWriter(naming: TraceRecorder.libevdevName).header(device, comments: TraceRecorder.systemComments())
        #expect(text == header)
    }

    @Test func aDropIsMarkedInItsOwnReportAndReplaysAsTheLiveFramesDid() throws {
        let folder = TemporaryFolder()
        let path = "\(folder.path)/dropped.evemu"
        let recorder = try TraceRecorder(path: path, device: SyntheticTouchscreen.ft5406)
        // Two fingers down; then the kernel drops events, and libevdev's resync says the first
        // lifted and the second moved.
        var live: [InputEvent] = []
        func add<Code: TypedEventCode>(_ code: Code, _ value: Int32, at t: Double) { live.append(InputEvent(time: Instant(seconds: t), code, value)) }
        add(AbsoluteAxis.multitouchTrackingID, 1, at: 1)
        add(AbsoluteAxis.multitouchPositionX, 100, at: 1)
        add(AbsoluteAxis.multitouchPositionY, 100, at: 1)
        add(AbsoluteAxis.multitouchSlot, 1, at: 1)
        add(AbsoluteAxis.multitouchTrackingID, 2, at: 1)
        add(AbsoluteAxis.multitouchPositionX, 600, at: 1)
        add(AbsoluteAxis.multitouchPositionY, 300, at: 1)
        add(KeyCode.touch, 1, at: 1)
        live.append(.report(at: Instant(seconds: 1)))
        let resync = live.count
        add(AbsoluteAxis.multitouchSlot, 0, at: 2)
        add(AbsoluteAxis.multitouchTrackingID, -1, at: 2)
        add(AbsoluteAxis.multitouchSlot, 1, at: 2)
        add(AbsoluteAxis.multitouchPositionX, 700, at: 2)
        add(AbsoluteAxis.multitouchPositionY, 400, at: 2)
        live.append(.report(at: Instant(seconds: 2)))
        for (i, event) in live.enumerated() {
            if i == resync { recorder.markDropped(at: event.time) }
            recorder.record(event)
        }
        try recorder.finish()
        let text = contents(path)
        #expect(text.contains("E: 1.000000 0000 0003 0000\t# ------------ SYN_DROPPED (0) ---------- +1000ms\nE: 1.000000 0000 0000 0000\t# ------------ SYN_REPORT (0) ---------- +0ms\n"), "\(text)")

        var liveDecoder = try TouchDecoder(device: SyntheticTouchscreen.ft5406, screen: Size(width: 800, height: 480))
        let liveFrames = live.compactMap { liveDecoder.feed($0) }.map(TouchFrameText.touches)
        #expect(liveFrames == ["1 began 100.0 100.0; 2 began 600.0 300.0", "1 ended 100.0 100.0; 2 moved 700.0 400.0"])
        let replayed = try EvemuTrace.parse(text, file: path)
        var replayDecoder = try TouchDecoder(device: replayed.device, screen: Size(width: 800, height: 480))
        #expect(replayed.events.compactMap { replayDecoder.feed($0) }.map(TouchFrameText.touches) == liveFrames)
        #expect(replayDecoder.counters.droppedSyncs == 1)
    }

    @Test func aFileThatCannotBeWrittenSaysWhichAndWhy() {
        #expect(throws: TraceFileError(path: "/nonexistent/folder/x.evemu", call: "open", errno: ENOENT)) {
            try TraceRecorder(path: "/nonexistent/folder/x.evemu", device: SyntheticTouchscreen.ft5406)
        }
        #expect(TraceFileError(path: "/x.evemu", call: "write", errno: ENOSPC).description == "/x.evemu: write failed: No space left on device")
    }
}
