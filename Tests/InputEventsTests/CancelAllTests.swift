import KioskCore
import InputEvents
import KioskTestSupport
import Testing

/// `cancelAll` when the device goes away in the middle of a report: it cancels exactly the touches
/// the frames so far began and did not end, whatever the unfinished report holds.
@Suite("Cancelling every touch")
struct CancelAllTests {
    /// The frames of `script`, then `cancelAll`'s frame, as summaries; the decoder after.
    func cancelling(
        _ script: EvdevScript, device: DeviceDescription = SyntheticTouchscreen.ft5406, filters: TouchFilters = .none,
        fetchPending: Bool = true
    ) throws -> (frames: [[String]], cancelled: [String]?, decoder: TouchDecoder) {
        var decoder = try TouchDecoder(device: device, screen: panel, filters: filters)
        let frames = decode(script.events, with: &decoder, fetchPending: fetchPending).map(summary)
        let cancelled = decoder.cancelAll(at: script.now).map(summary)
        return (frames, cancelled, decoder)
    }

    @Test func aTouchThatEndedInTheUnfinishedReportIsCancelledNotTheOneThatBeganThere() throws {
        // Fuzz finding decoder-cancel-all-keeps-ended-touch: a new tracking id on slot 0, no SYN_REPORT.
        var k = EvdevScript(touch: 1, at: 100, 200)
        k.trackingID(2)
        k.abs(.multitouchPositionX, 300)
        let (frames, cancelled, decoder) = try cancelling(k)
        #expect(frames == [["1 began 100.0,200.0"]])
        #expect(cancelled == ["1 cancelled 100.0,200.0"], "where the last frame had it")
        #expect(decoder.activeTouchCount == 0)
    }

    @Test func aTouchWhoseFirstReportNeverFinishedIsNotCancelled() throws {
        // Fuzz finding decoder-cancel-before-began: one ABS_MT_TRACKING_ID, no SYN_REPORT.
        var k = EvdevScript()
        k.trackingID(1)
        let (frames, cancelled, decoder) = try cancelling(k)
        #expect(frames.isEmpty)
        #expect(cancelled == nil)
        #expect(decoder.activeTouchCount == 0)
    }

    @Test func aLiftInTheUnfinishedReportStillCancelsTheTouch() throws {
        var k = EvdevScript(touch: 1, at: 100, 200)
        k.abs(.multitouchPositionX, 150)
        k.lift()
        let (_, cancelled, _) = try cancelling(k)
        #expect(cancelled == ["1 cancelled 100.0,200.0"])
    }

    @Test func aTapInTheUnfinishedReportIsLeftOutAndTheOtherFingersCancelled() throws {
        var k = EvdevScript(touch: 1, at: 100, 200)
        k.abs(.multitouchPositionX, 110)
        k.tap(2, slot: 1, at: 500, 300)
        k.slot(2)
        k.touch(3, at: 600, 400)
        let (_, cancelled, decoder) = try cancelling(k)
        #expect(cancelled == ["1 cancelled 100.0,200.0"])
        #expect(decoder.activeTouchCount == 0)
    }

    @Test func aTapWhoseEndWasNotFetchedIsCancelled() throws {
        // The report's frame began the tap; its end waits for nextPendingFrame, which never came.
        var k = EvdevScript(touch: 1, at: 100, 200)
        k.tap(2, slot: 1, at: 500, 300)
        k.report()
        let (frames, cancelled, decoder) = try cancelling(k, fetchPending: false)
        #expect(frames == [["1 began 100.0,200.0"], ["1 stationary 100.0,200.0", "2 began 500.0,300.0"]])
        #expect(cancelled == ["2 cancelled 500.0,300.0", "1 cancelled 100.0,200.0"])
        #expect(decoder.activeTouchCount == 0)
        var after = decoder
        #expect(after.nextPendingFrame() == nil, "its end is said by the cancel")
    }

    @Test func singleTouchCancelsTheReportedPressNotTheOneInTheUnfinishedReport() throws {
        var k = EvdevScript()
        k.press(1024, 1024)
        k.report()
        k.touchButton(false)
        k.abs(.x, 3072)
        k.touchButton(true)
        let (frames, cancelled, decoder) = try cancelling(k, device: SyntheticTouchscreen.resistive)
        #expect(frames == [["1 began 200.0,120.0"]])
        #expect(cancelled == ["1 cancelled 200.0,120.0"])
        #expect(decoder.activeTouchCount == 0)
    }

    @Test func singleTouchPressWhoseReportNeverFinishedIsNotCancelled() throws {
        var k = EvdevScript()
        k.press(1024, 1024)
        let (_, cancelled, decoder) = try cancelling(k, device: SyntheticTouchscreen.resistive)
        #expect(cancelled == nil)
        #expect(decoder.activeTouchCount == 0)
    }

    @Test func singleTouchReleaseInTheUnfinishedReportStillCancelsTheTouch() throws {
        var k = EvdevScript()
        k.press(1024, 1024)
        k.report()
        k.touchButton(false)
        let (_, cancelled, _) = try cancelling(k, device: SyntheticTouchscreen.resistive)
        #expect(cancelled == ["1 cancelled 200.0,120.0"])
    }

    @Test func afterTheCancelTheNextContactIsANewTouch() throws {
        var k = EvdevScript(touch: 1, at: 100, 200)
        k.trackingID(2)
        k.touchButton(false)
        var decoder = try TouchDecoder(device: SyntheticTouchscreen.ft5406, screen: panel)
        _ = decode(k.events, with: &decoder)
        #expect(decoder.cancelAll(at: k.now).map(summary) == ["1 cancelled 100.0,200.0"])
        // The unfinished report's BTN_TOUCH 0 went with it: it cancels nothing of the next device's.
        let next = EvdevScript(touch: 8, at: 50, 60)
        #expect(decode(next.events, with: &decoder).map(summary) == [["3 began 50.0,60.0"]])
    }
}
