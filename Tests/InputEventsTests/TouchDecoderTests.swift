import InputEvents
import KioskCore
import KioskTestSupport
import Testing

/// The decoder against hand-written kernel reports on the FT5406 (0...799 x 0...479 on 800x480: one unit, one pixel).
@Suite("Decoding touches")
struct TouchDecoderTests {
    @Test func aFingerDownMovingAndUpGivesBeganMovedEnded() throws {
        var k = EvdevScript()
        k.touch(40, at: 100, 200)
        k.touchButton(true)
        k.report()
        k.abs(.multitouchPositionX, 120)
        k.report()
        k.lift()
        k.touchButton(false)
        k.report()
        let (frames, decoder) = try decodeScript(k)
        #expect(frames.map(summary) == [["1 began 100.0,200.0"], ["1 moved 120.0,200.0"], ["1 ended 120.0,200.0"]])
        #expect(frames.map(\.time) == [Instant(seconds: 5), Instant(seconds: 5.01), Instant(seconds: 5.02)])
        #expect(decoder.activeTouchCount == 0)
        #expect(decoder.counters.frames == 3 && decoder.counters.reports == 3)
    }

    @Test func aPressAndReleaseInOneReportIsNotLost() throws {
        // lvgl#5211: the driver reports the press and the release before one SYN_REPORT.
        var k = EvdevScript()
        k.touch(7, at: 300, 100)
        k.lift()
        k.report()
        var decoder = try TouchDecoder(device: SyntheticTouchscreen.ft5406, screen: panel, positionAxes: nil)
        var frame: TouchFrame?
        for event in k.events { frame = decoder.feed(event) ?? frame }
        #expect(frame.map(summary) == ["1 began 300.0,100.0"])
        let pending = decoder.nextPendingFrame()
        #expect(pending.map(summary) == ["1 ended 300.0,100.0"])
        #expect(pending?.time == frame?.time)
        #expect(decoder.nextPendingFrame() == nil)
        #expect(decoder.counters.sameReportTaps == 1 && decoder.counters.pendingFrames == 1)
    }

    @Test func aTapInOneReportKeepsTheOtherFingersInBothFrames() throws {
        var k = EvdevScript(touch: 1, at: 10, 10)
        k.tap(2, slot: 1, at: 500, 300)
        k.report()
        let (frames, _) = try decodeScript(k)
        #expect(frames.map(summary) == [
            ["1 began 10.0,10.0"],
            ["1 stationary 10.0,10.0", "2 began 500.0,300.0"],
            ["1 stationary 10.0,10.0", "2 ended 500.0,300.0"],
        ])
    }

    @Test func aNewTrackingIDWithoutALiftEndsTheOldTouchAndBeginsANewOne() throws {
        var k = EvdevScript(touch: 1, at: 10, 20)
        k.trackingID(2)
        k.abs(.multitouchPositionX, 50)
        k.report()
        k.lift()
        k.report()
        let (frames, decoder) = try decodeScript(k)
        #expect(frames.map(summary) == [
            ["1 began 10.0,20.0"],
            ["1 ended 10.0,20.0", "2 began 50.0,20.0"],
            ["2 ended 50.0,20.0"],
        ])
        #expect(decoder.counters.reusedTrackingIDs == 1)
    }

    @Test func touchIDsAreTheDecodersOwnAndNeverReused() throws {
        var k = EvdevScript()
        for _ in 0..<3 {
            k.trackingID(5)  // the kernel's id comes round again
            k.position(1, 1)
            k.report()
            k.lift()
            k.report()
        }
        let paths = TouchPaths(try decodeScript(k).frames)
        #expect(paths.ids == [TouchID(1), TouchID(2), TouchID(3)])
        #expect(paths.ids.allSatisfy(paths.isComplete))
    }

    @Test func afterSYNDroppedEverythingUpToTheNextReportIsIgnored() throws {
        var k = EvdevScript(touch: 1, at: 100, 100)
        k.abs(.multitouchPositionX, 150)
        k.report()
        k.dropped()
        k.abs(.multitouchPositionX, 300)
        k.report()
        k.abs(.multitouchPositionX, 400)
        k.report()
        let (frames, decoder) = try decodeScript(k)
        #expect(frames.map(summary) == [["1 began 100.0,100.0"], ["1 moved 150.0,100.0"], ["1 moved 400.0,100.0"]])
        #expect(decoder.counters.droppedSyncs == 1)
        #expect(decoder.counters.droppedEvents == 2)
        #expect(decoder.counters.reports == 3)
    }

    // The kernel's rule (Documentation/input/event-codes.rst, and libevdev's "SYN_DROPPED handling"):
    // after SYN_DROPPED the client ignores every event up to and including the next SYN_REPORT, then
    // takes the device's state afresh. kiosk record writes the marker as SYN_DROPPED SYN_REPORT and
    // then libevdev's resync, the changes since, as one report: the decoder must read that report.

    @Test func aLiftAndATouchLostInADropAreTakenFromTheResyncThatFollows() throws {
        var k = EvdevScript()
        k.touch(1, at: 100, 100)
        k.touchButton(true)
        k.report()
        k.dropped()
        // What was left in the buffer: the finger moves and lifts, a second lands; none of it counts.
        k.position(200, 200)
        k.lift()
        k.slot(1)
        k.touch(2, at: 600, 400)
        k.touchButton(false)
        k.report()
        // libevdev's resync: slot 0 holds a new contact at 300,300, slot 1 nothing; the slot selected is 0.
        k.slot(0)
        k.lift()
        k.touch(3, at: 300, 300)
        k.report()
        k.abs(.multitouchPositionX, 310)
        k.report()
        let (frames, decoder) = try decodeScript(k)
        #expect(frames.map(summary) == [
            ["1 began 100.0,100.0"],
            ["1 ended 100.0,100.0", "2 began 300.0,300.0"],
            ["2 moved 310.0,300.0"],
        ])
        #expect(decoder.activeTouchCount == 1, "BTN_TOUCH 0 in the dropped part cancelled nothing")
        #expect(decoder.counters.stuckTouchesCancelled == 0)
        #expect(decoder.counters.droppedSyncs == 1)
        #expect(decoder.counters.droppedEvents == 9, "SYN_DROPPED's report: 8 events and its SYN_REPORT")
        #expect(decoder.counters.reports == 3, "the report the drop swallowed is not decoded")
    }

    @Test func libevdevsSingleTouchExampleDecodesAsIfTheDroppedPartWasNeverSent() throws {
        // libevdev's "SYN_DROPPED handling" page: X 10 and Y 10 came before the drop and stand;
        // Y 15 and its SYN_REPORT come after it and are ignored; X 11 and BTN_TOUCH 0 are read.
        func events(dropping: Bool) -> [InputEvent] {
            var k = EvdevScript()
            k.press(900, 800)
            k.report()
            k.abs(.x, 1000)
            k.abs(.y, 1000)
            if dropping {
                k.dropped()
                k.abs(.y, 1500)
                k.report()
            }
            k.abs(.x, 1100)
            k.touchButton(false)
            k.report()
            return k.events
        }
        func frames(_ events: [InputEvent]) throws -> [[String]] {
            var decoder = try TouchDecoder(device: SyntheticTouchscreen.resistive, screen: panel, positionAxes: nil)
            return decode(events, with: &decoder).map(summary)
        }
        let clean = try frames(events(dropping: false))
        #expect(clean.count == 2 && clean[1].first?.contains("ended") == true, "\(clean)")
        #expect(try frames(events(dropping: true)) == clean)
    }

    @Test func aSlotSelectedInTheDroppedPartSelectsNothing() throws {
        var k = EvdevScript()
        k.touch(1, at: 100, 100)
        k.slot(1)
        k.touch(2, at: 500, 300)
        k.report()
        k.dropped()
        k.slot(0)
        k.abs(.multitouchPositionX, 999)
        k.report()
        // Still slot 1 for the decoder, as before the drop.
        k.abs(.multitouchPositionX, 520)
        k.report()
        let (frames, _) = try decodeScript(k)
        #expect(frames.map(summary) == [
            ["1 began 100.0,100.0", "2 began 500.0,300.0"],
            ["1 stationary 100.0,100.0", "2 moved 520.0,300.0"],
        ])
    }

    @Test func aSecondDropBeforeTheReportKeepsDroppingAndAReportEndsIt() throws {
        var k = EvdevScript(touch: 1, at: 100, 100)
        k.dropped()
        k.abs(.multitouchPositionX, 700)
        k.dropped()
        k.abs(.multitouchPositionX, 710)
        k.report()
        k.abs(.multitouchPositionX, 120)
        k.report()
        k.abs(.multitouchPositionX, 130)
        k.report()
        let (frames, decoder) = try decodeScript(k)
        #expect(frames.map(summary) == [["1 began 100.0,100.0"], ["1 moved 120.0,100.0"], ["1 moved 130.0,100.0"]])
        #expect(decoder.counters.droppedSyncs == 1, "the second SYN_DROPPED is itself dropped")
    }

    @Test func aDropThatNeverEndsIsForgottenWhenTheDeviceGoesAway() throws {
        var k = EvdevScript(touch: 1, at: 100, 100)
        k.dropped()
        k.lift()
        var decoder = try TouchDecoder(device: SyntheticTouchscreen.ft5406, screen: panel, positionAxes: nil)
        _ = decode(k.events, with: &decoder)
        #expect(decoder.cancelAll(at: k.now).map(summary) == ["1 cancelled 100.0,100.0"])
        // A new device, or the same one back: its first report is read, not dropped.
        let next = EvdevScript(touch: 4, at: 50, 60)
        #expect(decode(next.events, with: &decoder).map(summary) == [["2 began 50.0,60.0"]])
    }

    @Test func eventsNoKernelSendsAreCountedAndChangeNothing() throws {
        let k = EvdevScript(touch: 1, at: 100, 100)
        let t = k.now
        let impossible = [
            InputEvent(time: t, type: .absolute, code: EventCode(rawValue: 0x40), value: 5), // ABS_CNT
            InputEvent(time: t, type: .absolute, code: EventCode(rawValue: 0xffff), value: -1),
            InputEvent(time: t, type: EventType(rawValue: 0x20), code: EventCode(rawValue: 0), value: 0), // EV_CNT
            InputEvent(time: t, type: .synchronization, code: EventCode(rawValue: 0x10), value: 0), // above SYN_MAX
            InputEvent(time: t, type: .key, code: EventCode(rawValue: 0x300), value: 1), // above KEY_MAX
        ]
        let possible = [
            InputEvent(time: t, type: .absolute, code: EventCode(rawValue: 0x3f), value: 5), // ABS_MAX: no axis, but sendable
            InputEvent(time: t, type: EventType(rawValue: 0x1f), code: EventCode(rawValue: 0), value: 0), // EV_MAX
        ]
        var decoder = try TouchDecoder(device: SyntheticTouchscreen.ft5406, screen: panel, positionAxes: nil)
        let frames = decode(k.events + impossible + possible + [InputEvent(time: t, AbsoluteAxis.multitouchPositionX, 110), .report(at: t)],
                            with: &decoder)
        #expect(frames.map(summary) == [["1 began 100.0,100.0"], ["1 moved 110.0,100.0"]])
        #expect(decoder.counters.rejectedEvents == impossible.count)
        #expect(impossible.allSatisfy { !$0.isWithinKernelLimits } && possible.allSatisfy(\.isWithinKernelLimits))
    }

    @Test func touchButtonUpCancelsSlotsThatNeverLifted() throws {
        var k = EvdevScript()
        k.touch(1, at: 100, 100)
        k.slot(1)
        k.touch(2, at: 200, 200)
        k.touchButton(true)
        k.report()
        k.touchButton(false)  // both lifts lost
        k.report()
        k.touch(3, at: 300, 300)
        k.touchButton(true)
        k.report()
        let (frames, decoder) = try decodeScript(k)
        #expect(frames.map(summary) == [
            ["1 began 100.0,100.0", "2 began 200.0,200.0"],
            ["1 cancelled 100.0,100.0", "2 cancelled 200.0,200.0"],
            ["3 began 300.0,300.0"],
        ])
        #expect(decoder.counters.stuckTouchesCancelled == 2)
        #expect(decoder.activeTouchCount == 1)
    }

    @Test func valuesOutsideTheAxisRangeAreClampedAndCounted() throws {
        let k = EvdevScript(touch: 1, at: 900, -5)
        let (frames, decoder) = try decodeScript(k)
        #expect(frames.map(summary) == [["1 began 799.0,0.0"]])
        #expect(decoder.counters.outOfRangeValues == 2)
    }

    @Test func aSlotBeyondTheAxisIsIgnoredWithTheValuesThatFollowIt() throws {
        var k = EvdevScript()
        k.slot(12)  // the FT5406 has slots 0...9
        k.touch(1, at: 100, 100)
        k.report()
        k.slot(3)
        k.touch(2, at: 200, 200)
        k.report()
        let (frames, decoder) = try decodeScript(k)
        #expect(frames.map(summary) == [["1 began 200.0,200.0"]])
        #expect(decoder.counters.ignoredSlots == 1)
    }

    @Test func slotZeroIsCurrentUntilTheFirstSlotEvent() throws {
        var k = EvdevScript()
        k.touch(1, at: 10, 10)
        k.slot(1)
        k.touch(2, at: 20, 20)
        k.report()
        k.slot(0)
        k.lift()
        k.report()
        let (frames, _) = try decodeScript(k)
        #expect(frames.map(summary) == [
            ["1 began 10.0,10.0", "2 began 20.0,20.0"],
            ["1 ended 10.0,10.0", "2 stationary 20.0,20.0"],
        ])
    }

    @Test func fingersThatDidNotMoveAreStationaryAndAnUnchangedReportGivesNoFrame() throws {
        var k = EvdevScript()
        k.touch(1, at: 10, 10)
        k.slot(1)
        k.touch(2, at: 20, 20)
        k.report()
        k.abs(.multitouchPositionY, 25)
        k.report()
        k.abs(.multitouchPressure, 40)  // not something the decoder shows
        k.report()
        let (frames, decoder) = try decodeScript(k)
        #expect(frames.map(summary) == [
            ["1 began 10.0,10.0", "2 began 20.0,20.0"],
            ["1 stationary 10.0,10.0", "2 moved 20.0,25.0"],
        ])
        #expect(decoder.counters.reports == 3)
    }

    static let resistiveSamples: [(raw: Int32, expectedX: Double)] = [(0, 0), (2048, 400), (4095, 4095.0 / 4096 * 800)]

    @Test(arguments: resistiveSamples)
    func mapsResistiveUnitsOntoThePanel(raw: Int32, expectedX: Double) throws {
        var k = EvdevScript()
        k.abs(.x, raw)
        k.abs(.y, raw)
        k.abs(.pressure, 100)
        k.touchButton(true)
        k.report()
        let (frames, _) = try decodeScript(k, device: SyntheticTouchscreen.resistive)
        let touch = try #require(frames.first?.touches.first)
        #expect(touch.phase == .began)
        #expect(touch.location == Point(x: expectedX, y: Double(raw) / 4096 * 480))
        #expect(touch.location.x < 800 && touch.location.y < 480)
    }

    @Test func singleTouchPressAndReleaseInOneReportIsNotLost() throws {
        var k = EvdevScript()
        k.touchButton(true)
        k.abs(.x, 2048)
        k.abs(.y, 2048)
        k.touchButton(false)
        k.report()
        let (frames, _) = try decodeScript(k, device: SyntheticTouchscreen.resistive)
        #expect(frames.map(summary) == [["1 began 400.0,240.0"], ["1 ended 400.0,240.0"]])
    }

    @Test func refusesADeviceWithoutTouchAxesNamingTheAxesItHas() {
        let device = DeviceDescription(
            name: "Joystick", supportedCodes: [.key: [KeyCode.touch.code]],
            axes: [.z: AxisInfo(minimum: 0, maximum: 255), .rx: AxisInfo(minimum: 0, maximum: 255)])
        #expect {
            try TouchDecoder(device: device, screen: panel, positionAxes: nil)
        } throws: { error in
            "\(error)" == "device 'Joystick' has no touch axes: needs ABS_MT_SLOT + ABS_MT_POSITION_X/Y"
                + " (multitouch protocol B) or ABS_X/ABS_Y + BTN_TOUCH (single touch); it has: ABS_Z, ABS_RX, BTN_TOUCH"
        }
    }

    @Test func refusesSingleTouchAxesWithoutTheTouchButton() {
        let device = DeviceDescription(
            name: "Tablet", axes: [.x: AxisInfo(minimum: 0, maximum: 99), .y: AxisInfo(minimum: 0, maximum: 99)])
        #expect(throws: TouchDecoderError.noTouchAxes(device: "Tablet", axes: [.x, .y], hasTouchButton: false)) {
            try TouchDecoder(device: device, screen: panel, positionAxes: nil)
        }
        let message = "\(TouchDecoderError.noTouchAxes(device: "Tablet", axes: [.x, .y], hasTouchButton: false))"
        #expect(message.hasSuffix("it has: ABS_X, ABS_Y; no BTN_TOUCH"))
    }

    @Test func refusesPositionAxesTheDeviceDoesNotHave() {
        #expect {
            try TouchDecoder(device: SyntheticTouchscreen.resistive, screen: panel, positionAxes: (.z, .rx))
        } throws: { error in
            "\(error)" == "device 'ADS7846 Touchscreen' has no axis ABS_Z to take touch positions from; it has: ABS_X, ABS_Y, ABS_PRESSURE"
        }
    }
}
