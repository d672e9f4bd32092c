import KioskCore
import InputEvents
import KioskTestSupport
import Testing
import TouchInput

/// A touchscreen of each kind that goes away in the middle of a report: the live decoder cancels
/// the touch its frames began, not the one the unfinished report was beginning.
@Suite("Cancelling a touchscreen's touches")
struct TouchscreenCancelTests {
    static let devices = [SyntheticTouchscreen.ft5406, SyntheticTouchscreen.protocolA, SyntheticTouchscreen.resistive]

    @Test(arguments: devices)
    func aFingerLiftedAndAnotherPressedInAnUnfinishedReportCancelsTheFirst(device: DeviceDescription) throws {
        let panel = Fingers(panel: device, clock: VirtualClock(Instant(seconds: 1)))
        let first = panel.down(Point(x: 100, y: 200))[0]
        let reported = panel.events.count
        panel.report(down: [Point(x: 600, y: 300)], [first: .up], after: 0.016)
        // The device goes away before the second report's SYN_REPORT.
        let unfinished = panel.events.dropLast()
        #expect(unfinished.count > reported, "the unfinished report has events")
        let decoder = try TouchscreenDecoder(device: device, screen: Size(width: 800, height: 480))
        var frames: [TouchFrame] = []
        for event in unfinished { decoder.feed(event) { frames.append($0) } }
        #expect(frames.map { $0.touches.map { "\($0.id.rawValue) \($0.phase)" } } == [["1 began"]])
        let began = try #require(frames.first?.touches.first)
        let cancelled = decoder.cancelAll(at: panel.now)
        #expect(cancelled?.touches == [Touch(id: began.id, phase: .cancelled, location: began.location)])
        #expect(decoder.activeTouchCount == 0)
    }
}
