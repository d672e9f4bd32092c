import InputEvents
import KioskCore
import KioskTestSupport
import Testing

@Suite("Synthesizing touchscreen traces")
struct SyntheticTouchscreenTests {
    /// Two fingers closing in on the centre of `screen` over `steps` reports at 60 Hz; returns where each finger was.
    static func pinch(on screen: inout SyntheticTouchscreen, steps: Int = 12) -> [[Point]] {
        let centre = Point(x: screen.screen.width / 2, y: screen.screen.height / 2)
        let spread = Point(x: screen.screen.width * 0.3, y: screen.screen.height * 0.21)
        var expected: [[Point]] = []
        for step in 0...steps {
            let k = 1 - 0.8 * Double(step) / Double(steps)
            let a = centre - spread * k, b = centre + spread * k
            if step == 0 {
                screen.down(0, at: a)
                screen.down(1, at: b)
            } else {
                screen.move(0, to: a)
                screen.move(1, to: b)
            }
            screen.sync()
            screen.wait(1.0 / 60)
            expected.append([a, b])
        }
        screen.up(0)
        screen.up(1)
        screen.sync()
        return expected
    }

    @Test(arguments: [Size(width: 800, height: 480), Size(width: 1280, height: 720), Size(width: 480, height: 272)])
    func aSynthesizedPinchDecodesBackToTheSamePoints(screenSize: Size) throws {
        var screen = SyntheticTouchscreen(device: SyntheticTouchscreen.ft5406, screen: screenSize)
        let expected = Self.pinch(on: &screen)
        // Through the text format too, as a recorded trace would come.
        let trace = try EvemuTrace.parse(screen.trace.text, file: "pinch.evemu")
        let (frames, decoder) = try decode(trace, screen: screenSize)
        #expect(frames.count == expected.count + 1)
        for (frame, points) in zip(frames, expected) {
            #expect(frame.touches.map(\.id) == [TouchID(1), TouchID(2)])
            for (touch, point) in zip(frame.touches, points) {
                #expect(touch.location.distance(to: point) < 1, "\(touch.location) for \(point)")
            }
        }
        #expect(frames.last?.touches.map(\.phase) == [.ended, .ended])
        #expect(decoder.activeTouchCount == 0)
        #expect(decoder.counters.outOfRangeValues == 0)
        #expect(frames.first?.time == Instant(seconds: 1))
    }

    @Test func writesOnlyWhatChangedAsTheKernelDoes() {
        var screen = SyntheticTouchscreen()
        screen.down(0, at: Point(x: 100, y: 200))
        screen.sync()
        let first = screen.events.map(named)
        #expect(first == [
            "ABS_MT_TRACKING_ID 0", "ABS_MT_POSITION_X 100", "ABS_MT_POSITION_Y 200",
            "BTN_TOUCH 1", "ABS_X 100", "ABS_Y 200", "SYN_REPORT 0",
        ])
        screen.wait(0.016)
        screen.down(1, at: Point(x: 400, y: 200))
        screen.sync()
        #expect(screen.events.dropFirst(first.count).map(named) == [
            // Each slot keeps its own values: slot 1's y starts at 0, so 200 is a change there.
            "ABS_MT_SLOT 1", "ABS_MT_TRACKING_ID 1", "ABS_MT_POSITION_X 400", "ABS_MT_POSITION_Y 200", "SYN_REPORT 0",
        ])
        let before = screen.events.count
        screen.wait(0.016)
        screen.move(0, to: Point(x: 110, y: 200))
        screen.sync()
        #expect(screen.events.dropFirst(before).map(named) == [
            "ABS_MT_SLOT 0", "ABS_MT_POSITION_X 110", "ABS_X 110", "SYN_REPORT 0",
        ])
        #expect(screen.events.last?.time == Instant(seconds: 1.032))
    }

    @Test func aSyncWithNothingChangedWritesNothing() {
        var screen = SyntheticTouchscreen()
        screen.down(0, at: Point(x: 100, y: 200))
        screen.sync()
        let count = screen.events.count
        screen.move(0, to: Point(x: 100, y: 200))
        screen.sync()
        #expect(screen.events.count == count)
    }

    @Test func theLastLiftReleasesTheTouchButton() {
        var screen = SyntheticTouchscreen()
        screen.down(0, at: Point(x: 10, y: 10))
        screen.down(1, at: Point(x: 20, y: 20))
        screen.sync()
        var before = screen.events.count
        screen.up(1)
        screen.sync()
        // Slot 1 was the last one written, so it needs no ABS_MT_SLOT; the pointer stays on finger 0.
        #expect(screen.events.dropFirst(before).map(named) == ["ABS_MT_TRACKING_ID -1", "SYN_REPORT 0"])
        before = screen.events.count
        screen.up(0)
        screen.sync()
        #expect(screen.events.dropFirst(before).map(named) == [
            "ABS_MT_SLOT 0", "ABS_MT_TRACKING_ID -1", "BTN_TOUCH 0", "SYN_REPORT 0",
        ])
    }

    @Test func aPressAndReleaseBetweenTwoSyncsIsOneReport() throws {
        var screen = SyntheticTouchscreen()
        screen.down(0, at: Point(x: 300, y: 100))
        screen.up(0)
        screen.sync()
        #expect(screen.events.map(named) == [
            "ABS_MT_TRACKING_ID 0", "ABS_MT_POSITION_X 300", "ABS_MT_POSITION_Y 100", "ABS_MT_TRACKING_ID -1",
            "SYN_REPORT 0",
        ])
        let (frames, _) = try decode(screen.trace)
        #expect(frames.map(summary) == [["1 began 300.0,100.0"], ["1 ended 300.0,100.0"]])
    }

    @Test func fingersTakeTheLowestFreeSlot() {
        var screen = SyntheticTouchscreen()
        screen.down(0, at: Point(x: 10, y: 10))
        screen.down(1, at: Point(x: 20, y: 20))
        screen.sync()
        screen.up(0)
        screen.sync()
        let before = screen.events.count
        screen.down(2, at: Point(x: 30, y: 30))
        screen.sync()
        // Slot 0 again; the pointer stays on finger 1, now the oldest contact.
        #expect(screen.events.dropFirst(before).map(named) == [
            "ABS_MT_TRACKING_ID 2", "ABS_MT_POSITION_X 30", "ABS_MT_POSITION_Y 30", "SYN_REPORT 0",
        ])
    }

    @Test func aResistivePanelReportsLikeTheADS7846() throws {
        var screen = SyntheticTouchscreen(device: SyntheticTouchscreen.resistive)
        screen.down(0, at: Point(x: 400, y: 240))
        screen.sync()
        screen.wait(0.01)
        screen.move(0, to: Point(x: 799, y: 479))
        screen.sync()
        screen.wait(0.01)
        screen.up(0)
        screen.sync()
        #expect(screen.events.map(named) == [
            "ABS_X 2048", "ABS_Y 2048", "ABS_PRESSURE 127", "BTN_TOUCH 1", "SYN_REPORT 0",
            "ABS_X 4091", "ABS_Y 4087", "SYN_REPORT 0",
            "ABS_PRESSURE 0", "BTN_TOUCH 0", "SYN_REPORT 0",
        ])
        let (frames, _) = try decode(screen.trace)
        let path = frames.map { $0.touches[0].location }
        #expect(path[0] == Point(x: 400, y: 240))
        #expect(path[1].distance(to: Point(x: 799, y: 479)) < 1)
        #expect(frames.map { $0.touches[0].phase } == [.began, .moved, .ended])
    }

    @Test func aProtocolAPanelListsEveryContactInEveryReport() {
        var screen = SyntheticTouchscreen(device: SyntheticTouchscreen.protocolA)
        #expect(screen.device.isMultitouchA && !screen.device.isMultitouchB)
        screen.down(0, at: Point(x: 100, y: 200))
        screen.down(1, at: Point(x: 400, y: 300))
        screen.sync()
        var before = screen.events.count
        #expect(screen.events.map(named) == [
            "ABS_MT_POSITION_X 100", "ABS_MT_POSITION_Y 200", "SYN_MT_REPORT 0",
            "ABS_MT_POSITION_X 400", "ABS_MT_POSITION_Y 300", "SYN_MT_REPORT 0",
            "BTN_TOUCH 1", "ABS_X 100", "ABS_Y 200", "SYN_REPORT 0",
        ])
        // One finger moves: both are listed again; the pointer axes follow the oldest only.
        screen.move(1, to: Point(x: 410, y: 300))
        screen.sync()
        #expect(screen.events.dropFirst(before).map(named) == [
            "ABS_MT_POSITION_X 100", "ABS_MT_POSITION_Y 200", "SYN_MT_REPORT 0",
            "ABS_MT_POSITION_X 410", "ABS_MT_POSITION_Y 300", "SYN_MT_REPORT 0", "SYN_REPORT 0",
        ])
        before = screen.events.count
        screen.up(0)
        screen.sync()
        #expect(screen.events.dropFirst(before).map(named) == [
            "ABS_MT_POSITION_X 410", "ABS_MT_POSITION_Y 300", "SYN_MT_REPORT 0", "ABS_X 410", "ABS_Y 300", "SYN_REPORT 0",
        ])
        before = screen.events.count
        screen.sync()
        #expect(screen.events.count == before, "nothing changed, nothing written")
    }

    @Test(arguments: [
        (SyntheticTouchscreen.ProtocolARelease.emptyContact, ["SYN_MT_REPORT 0", "BTN_TOUCH 0", "SYN_REPORT 0"]),
        (.touchButtonOnly, ["BTN_TOUCH 0", "SYN_REPORT 0"]),
    ])
    func theLastLiftOnAProtocolAPanelIsWrittenTheDriversWay(release: SyntheticTouchscreen.ProtocolARelease, expected: [String]) {
        var screen = SyntheticTouchscreen(device: SyntheticTouchscreen.protocolA)
        screen.protocolARelease = release
        screen.down(0, at: Point(x: 100, y: 200))
        screen.sync()
        let before = screen.events.count
        screen.up(0)
        screen.sync()
        #expect(screen.events.dropFirst(before).map(named) == expected)
    }
}
