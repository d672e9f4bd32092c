import Foundation
import Gestures
import InputEvents
import KioskConfig
import KioskCore
import KioskTestSupport
import Runtime
import Scene
import Testing

/// The default scene (config/kiosk.toml), every behaviour end to end through `kiosk replay`.
/// Start: yellow at (160, 190), cyan at (400, 190), magenta at (640, 190), 120 px squares;
/// button, slider (knob at 410, 424) and switch (knob off at 648, on at 712) along the bottom.
@Suite("Default scene, replayed")
struct DefaultSceneTests {
    let yellow = Point(x: 160, y: 190), cyan = Point(x: 400, y: 190), magenta = Point(x: 640, y: 190)
    /// Free canvas between the squares and the controls.
    let open = Point(x: 400, y: 320)

    // MARK: Squares

    @Test func aDragMovesTheSquareAndKeepsItUnderTheFinger() throws {
        let k = Fingers(panel: SyntheticTouchscreen.ft5406)
        k.drag(from: Point(x: 150, y: 200), to: Point(x: 250, y: 300), over: 0.5)
        let r = try k.replay()
        expectClose(r.center("yellow"), Point(x: 260, y: 290))
        #expect(r.states("pan", on: "yellow").first == "began")
        #expect(r.states("pan", on: "yellow").last == "ended")
        #expect(r.states("pan", on: "canvas").isEmpty, "the square's pan, nearer the hit view, goes first")
        expectClose(r.center("cyan"), cyan, within: 0)
    }

    @Test func twoFingersDragTwoSquaresAtOnce() throws {
        let k = Fingers(panel: SyntheticTouchscreen.ft5406)
        let f = k.down(yellow, magenta)
        k.move([f[0]: yellow + Point(x: 0, y: 80), f[1]: magenta + Point(x: -30, y: 80)], over: 0.5)
        k.up(f)
        let r = try k.replay()
        expectClose(r.center("yellow"), yellow + Point(x: 0, y: 80))
        expectClose(r.center("magenta"), magenta + Point(x: -30, y: 80))
        #expect(r.states("pan", on: "yellow").first == "began")
        #expect(r.states("pan", on: "magenta").first == "began")
        #expect(r.states("pinch", on: "yellow").isEmpty && r.states("pinch", on: "magenta").isEmpty)
    }

    @Test func aPinchScalesTheSquareAboutTheFingers() throws {
        let k = Fingers(panel: SyntheticTouchscreen.ft5406)
        k.pinch(center: cyan, from: 60, to: 120, over: 0.5)
        let r = try k.replay()
        #expect(abs(r.number("cyan", "scale") - 2) < 0.02)
        expectClose(r.center("cyan"), cyan)
        #expect(r.states("pinch", on: "cyan").first == "began")
    }

    @Test func aRotationTurnsTheSquareClockwisePositive() throws {
        let k = Fingers(panel: SyntheticTouchscreen.ft5406)
        k.rotate(center: magenta, radius: 40, by: Double.pi / 4, over: 0.5)
        let r = try k.replay()
        #expect(abs(r.number("magenta", "rotation") - Double.pi / 4) < 0.01)
        expectClose(r.center("magenta"), magenta)
        #expect(r.states("rotation", on: "magenta").first == "began")
    }

    @Test func panPinchAndRotationRunTogetherOnOneSquare() throws {
        let k = Fingers(panel: SyntheticTouchscreen.ft5406)
        let a0 = cyan - Point(x: 30, y: 0), b0 = cyan + Point(x: 30, y: 0)
        let shift = Point(x: 40, y: 60)
        let arm = Point(x: 50, y: 0).rotated(by: 0.5)
        let f = k.down(a0, b0)
        k.move([f[0]: cyan + shift - arm, f[1]: cyan + shift + arm], over: 0.6)
        k.up(f)
        let r = try k.replay()
        for g in ["pan", "pinch", "rotation"] { #expect(r.states(g, on: "cyan").first == "began", "\(g)@cyan began") }
        #expect(abs(r.number("cyan", "scale") - 50.0 / 30.0) < 0.03)
        #expect(abs(r.number("cyan", "rotation") - 0.5) < 0.02)
        expectClose(r.center("cyan"), cyan + shift, within: 3)
        #expect(r.decisions.contains { $0.contains("pinch@cyan simultaneous with pan@cyan") })
    }

    @Test func twoFingersOnTwoSquaresAreNoPinch() throws {
        let k = Fingers(panel: SyntheticTouchscreen.ft5406)
        let f = k.down(yellow, cyan)
        k.move([f[0]: yellow - Point(x: 40, y: 0), f[1]: cyan + Point(x: 40, y: 0)], over: 0.5)
        k.up(f)
        let r = try k.replay()
        #expect(r.states("pinch", on: "yellow").isEmpty && r.states("pinch", on: "cyan").isEmpty)
        expectClose(r.center("yellow"), yellow - Point(x: 40, y: 0))
        expectClose(r.center("cyan"), cyan + Point(x: 40, y: 0))
        #expect(r.number("yellow", "scale") == 1 && r.number("cyan", "scale") == 1)
    }

    @Test func aLongPressLiftsTheSquareTheFingerCarriesItAndReleaseDropsIt() throws {
        let k = Fingers(panel: SyntheticTouchscreen.ft5406)
        let f = k.down(magenta)
        k.wait(0.6)
        k.move([f[0]: magenta + Point(x: -40, y: 110)], over: 0.5)
        k.up(f)
        let r = try k.replay()
        #expect(r.time("long_press", on: "magenta", "began") == 0.5, "at the minimum press duration exactly")
        #expect(r.states("long_press", on: "magenta").last == "ended")
        #expect(r.states("pan", on: "magenta").isEmpty, "never with a long press")
        expectClose(r.center("magenta"), magenta + Point(x: -40, y: 110))
        #expect(r.flag("magenta", "lifted") == false)
        #expect(r.number("magenta", "scale") == 1)
        #expect(r.number("magenta", "z") > r.number("yellow", "z") && r.number("magenta", "z") > r.number("cyan", "z"))
    }

    @Test func theDropAnimatesBackOverAThirdOfASecond() throws {
        let k = Fingers(panel: SyntheticTouchscreen.ft5406)
        let f = k.down(yellow)
        k.wait(0.7)
        k.up(f)
        // Step the scene frame by frame, as the loop does, to look inside the animation.
        let trace = try EvemuTrace.parse(k.traceText, file: "lift.evemu")
        let scene = try KioskScene(try KioskConfiguration.load(path: defaultConfigPath).scene)
        var decoder = try TouchDecoder(device: trace.device, screen: Size(width: 800, height: 480), positionAxes: nil)
        for event in trace.events {
            if let frame = decoder.feed(event) {
                scene.advance(to: frame.time)
                scene.handle(frame)
            }
        }
        let released = try #require(trace.events.last?.time)
        let id = try #require(scene.viewID(named: "yellow"))
        #expect(scene.liftFactor(of: id, at: released) == 1.2)
        #expect(scene.nextDeadline == released.adding(seconds: 0.3), "the loop wakes when the drop ends")
        scene.advance(to: released.adding(seconds: 0.15))
        let halfway = scene.liftFactor(of: id, at: released.adding(seconds: 0.15))
        #expect(halfway > 1 && halfway < 1.2)
        #expect(scene.isAnimating)
        scene.advance(to: released.adding(seconds: 0.3))
        #expect(scene.liftFactor(of: id, at: released.adding(seconds: 0.3)) == 1)
        #expect(!scene.isAnimating)
        #expect(scene.nextDeadline == nil)

        let replay = try Replay(trace: trace, scene: scene.definition)
        #expect(replay.endTime == released.adding(seconds: 0.3), "the replay runs on until the drop has finished")
    }

    @Test func aTapBringsTheSquareToTheFrontWhenTheDoubleTapWindowCloses() throws {
        let k = Fingers(panel: SyntheticTouchscreen.ft5406)
        k.tap(at: yellow)
        let r = try k.replay()
        let lift = Fingers.frame
        let t = try #require(r.time("tap", on: "yellow", "recognized"))
        #expect(abs(t - (lift + 0.3)) < 1e-6, "a single tap waiting on a double tap fires when its window expires, at that time")
        #expect(r.number("yellow", "z") > r.number("cyan", "z") && r.number("yellow", "z") > r.number("magenta", "z"))
        #expect(r.decisions.contains { $0.hasSuffix("tap@yellow held: waits for double_tap@yellow (possible)") })
    }

    @Test func aDoubleTapResetsScaleAndRotationAndTheSingleTapFails() throws {
        let k = Fingers(panel: SyntheticTouchscreen.ft5406)
        k.pinch(center: cyan, from: 60, to: 100, over: 0.4)
        k.wait(0.5)
        k.rotate(center: cyan, radius: 40, by: 0.6, over: 0.4)
        k.wait(0.5)
        k.tap(at: cyan)
        k.wait(0.1)
        k.tap(at: cyan)
        let r = try k.replay()
        #expect(r.states("double_tap", on: "cyan") == ["recognized"])
        #expect(r.states("tap", on: "cyan").isEmpty)
        #expect(r.number("cyan", "scale") == 1 && r.number("cyan", "rotation") == 0)
        #expect(r.decisions.contains { $0.hasSuffix("tap@cyan failed: waits for double_tap@cyan to fail, which recognized") })
    }

    // MARK: Canvas

    @Test func swipesLeftAndRightCycleTheTheme() throws {
        for (flicks, theme) in [([1.0], "dusk"), ([1.0, -1.0], "day"), ([-1.0], "forest"), ([1.0, 1.0, 1.0], "day")] {
            let k = Fingers(panel: SyntheticTouchscreen.ft5406)
            for direction in flicks {
                k.drag(from: open, to: open + Point(x: direction * k.mm(20), y: 0), over: 0.1)
                k.wait(0.5)
            }
            let r = try k.replay()
            #expect(r.text("canvas", "theme") == theme, "\(flicks)")
            #expect(r.states("swipe", on: "canvas") == Array(repeating: "recognized", count: flicks.count))
            #expect(r.states("pan", on: "canvas").isEmpty, "the pan waits for the swipe to fail")
            expectClose(r.center("yellow"), yellow, within: 0)
        }
    }

    @Test func aSlowDragOnTheCanvasMovesAllThreeSquaresTogether() throws {
        let k = Fingers(panel: SyntheticTouchscreen.ft5406)
        k.drag(from: open, to: open + Point(x: 60, y: 30), over: 1.0)
        let r = try k.replay()
        #expect(r.states("swipe", on: "canvas").isEmpty)
        #expect(r.states("pan", on: "canvas").first == "began")
        for (name, start) in [("yellow", yellow), ("cyan", cyan), ("magenta", magenta)] {
            expectClose(r.center(name), start + Point(x: 60, y: 30))
        }
        #expect(r.decisions.contains { $0.hasSuffix("pan@canvas waits for swipe@canvas to fail (delegate of pan@canvas: shouldRequireFailureOf)") })
        #expect(r.decisions.contains { $0.contains("swipe@canvas failed: too slow") })
    }

    // MARK: Controls

    @Test func theButtonFiresOnEveryTap() throws {
        let k = Fingers(panel: SyntheticTouchscreen.ft5406)
        k.tap(at: Point(x: 130, y: 424))
        k.wait(0.1)
        k.tap(at: Point(x: 130, y: 424))
        let r = try k.replay()
        #expect(r.number("button", "taps") == 2)
        #expect(r.controlEvents("button").filter { $0 == "primaryActionTriggered" }.count == 2)
        #expect(r.states("pan", on: "canvas").isEmpty)
    }

    @Test func aTouchThatLeavesTheButtonBeyondItsMarginAndLiftsThereDoesNotFire() throws {
        let k = Fingers(panel: SyntheticTouchscreen.ft5406)
        k.drag(from: Point(x: 130, y: 424), to: Point(x: 130, y: 424 - k.mm(15)), over: 0.4)
        let r = try k.replay()
        #expect(r.number("button", "taps") == 0)
        #expect(!r.controlEvents("button").contains("primaryActionTriggered"))
        #expect(r.controlEvents("button").first == "touchDown")
    }

    @Test func theButtonsOwnLongPressResetsTheSceneAndTheButtonDoesNotFire() throws {
        let k = Fingers(panel: SyntheticTouchscreen.ft5406)
        k.drag(from: yellow, to: yellow + Point(x: 50, y: 50), over: 0.4)
        k.wait(0.5)
        let f = k.down(Point(x: 130, y: 424))
        k.wait(0.7)
        k.up(f)
        let r = try k.replay()
        #expect(r.states("long_press", on: "button").first == "began")
        expectClose(r.center("yellow"), yellow, within: 0)
        #expect(r.number("button", "taps") == 0)
        #expect(r.controlEvents("button").contains("touchCancel"))
    }

    @Test func theSliderKnobStaysUnderTheFingerAndTheValueFollows() throws {
        let k = Fingers(panel: SyntheticTouchscreen.ft5406)
        let grab = Point(x: 415, y: 424)
        k.drag(from: grab, to: grab + Point(x: 90, y: 2), over: 0.5)
        let r = try k.replay()
        #expect(abs(r.number("slider", "value") - (0.5 + 90.0 / 244)) < 0.01)
        #expect(abs(r.knob("slider").x - (410 + 90)) < 1.5, "the knob keeps its offset under the finger")
        #expect(r.states("pan", on: "canvas").isEmpty && r.states("swipe", on: "canvas").isEmpty)
        #expect(r.decisions.contains { $0.contains("pan@canvas failed: slider keeps its standard gesture (one-finger swipe along the slider on its knob)") })
        expectClose(r.center("yellow"), yellow, within: 0)
        #expect(r.controlEvents("slider").contains("valueChanged"))
    }

    @Test func aQuickFlickAlongTheSliderKnobIsTheSlidersNotTheCanvasSwipe() throws {
        let k = Fingers(panel: SyntheticTouchscreen.ft5406)
        k.drag(from: Point(x: 410, y: 424), to: Point(x: 410 + k.mm(20), y: 424), over: 0.1)
        let r = try k.replay()
        #expect(r.text("canvas", "theme") == "day")
        #expect(r.number("slider", "value") > 0.9)
    }

    @Test func aVerticalDragOnTheSliderPansTheCanvasAndCancelsTheSlider() throws {
        let k = Fingers(panel: SyntheticTouchscreen.ft5406)
        k.drag(from: Point(x: 410, y: 424), to: Point(x: 412, y: 340), over: 0.6)
        let r = try k.replay()
        #expect(r.states("pan", on: "canvas").first == "began")
        expectClose(r.center("cyan"), cyan + Point(x: 2, y: -84))
        #expect(r.number("slider", "value") == 0.5)
        #expect(r.controlEvents("slider").last == "touchCancel")
    }

    @Test func aSliderCancelledAfterItMovedPutsItsValueBack() throws {
        let k = Fingers(panel: SyntheticTouchscreen.ft5406)
        // From the knob, more up than along: the slider follows until the canvas's pan takes the touch.
        k.drag(from: Point(x: 410, y: 424), to: Point(x: 450, y: 330), over: 0.6)
        let r = try k.replay()
        #expect(r.states("pan", on: "canvas").first == "began")
        let events = r.controlEvents("slider")
        #expect(events.contains("valueChanged"), "the slider moved before it was cancelled: \(events)")
        #expect(events.last == "touchCancel")
        #expect(r.number("slider", "value") == 0.5)
    }

    @Test func aTapOnTheSwitchTogglesIt() throws {
        let k = Fingers(panel: SyntheticTouchscreen.ft5406)
        k.tap(at: Point(x: 690, y: 424))
        let r = try k.replay()
        #expect(r.flag("switch", "on") == true)
        expectClose(r.knob("switch"), Point(x: 712, y: 424))
        #expect(r.states("pan", on: "canvas").isEmpty)
    }

    @Test(arguments: [(740.0, true), (672.0, false)])
    func panningTheSwitchKnobPastTheMiddleTogglesIt(to x: Double, on: Bool) throws {
        let k = Fingers(panel: SyntheticTouchscreen.ft5406)
        k.drag(from: Point(x: 648, y: 424), to: Point(x: x, y: 424), over: 0.5)
        let r = try k.replay()
        #expect(r.flag("switch", "on") == on)
        #expect(r.states("pan", on: "canvas").isEmpty, "the switch keeps a one-finger pan along it on its knob")
        expectClose(r.center("yellow"), yellow, within: 0)
    }

    // MARK: Input devices

    @Test func aResistiveSingleTouchPanelDragsTheSameWay() throws {
        let k = Fingers(panel: SyntheticTouchscreen.resistive)
        k.drag(from: Point(x: 150, y: 200), to: Point(x: 250, y: 300), over: 0.5)
        let r = try k.replay()
        expectClose(r.center("yellow"), Point(x: 260, y: 290), within: 2)
    }
}

/// Hit testing follows a square's rotation and scale exactly, not its bounding box.
@Suite("Hit testing")
struct HitTestingTests {
    func replayed(_ script: Fingers) throws -> Replay {
        let trace = try EvemuTrace.parse(script.traceText, file: "hit.evemu")
        return try Replay(trace: trace, scene: try KioskConfiguration.load(path: defaultConfigPath).scene)
    }

    @Test func aSquareTurnedAnEighthIsHitOnItsCornersAndMissedOnItsOldOnes() throws {
        let k = Fingers(panel: SyntheticTouchscreen.ft5406)
        k.rotate(center: Point(x: 400, y: 190), radius: 40, by: Double.pi / 4, over: 0.5)
        let scene = try replayed(k).scene
        let cyan = try #require(scene.viewID(named: "cyan")), canvas = try #require(scene.viewID(named: "canvas"))
        // The turned corner reaches 60·√2 = 84.9 px along the axes; the old corner (55, 55) is now outside.
        #expect(scene.hitTest(Point(x: 400 + 82, y: 190)) == cyan)
        #expect(scene.hitTest(Point(x: 400, y: 190 - 82)) == cyan)
        #expect(scene.hitTest(Point(x: 400 + 55, y: 190 + 55)) == canvas)
        #expect(scene.hitTest(Point(x: 400 + 88, y: 190)) == canvas)
    }

    @Test func aScaledSquareIsHitOutToItsNewEdge() throws {
        let k = Fingers(panel: SyntheticTouchscreen.ft5406)
        k.pinch(center: Point(x: 640, y: 190), from: 60, to: 90, over: 0.4)
        let scene = try replayed(k).scene
        let magenta = try #require(scene.viewID(named: "magenta"))
        #expect(abs(try #require(scene.views[magenta.rawValue].square).scale - 1.5) < 0.02)
        #expect(scene.hitTest(Point(x: 640 + 88, y: 190 + 88)) == magenta, "inside 90 px at 1.5x")
        #expect(scene.hitTest(Point(x: 640, y: 190 + 93)) != magenta)
    }

    @Test func controlsStayAboveASquareDraggedOverThem() throws {
        let k = Fingers(panel: SyntheticTouchscreen.ft5406)
        k.drag(from: Point(x: 160, y: 190), to: Point(x: 130, y: 400), over: 0.8)
        let scene = try replayed(k).scene
        #expect(scene.frame(of: try #require(scene.viewID(named: "yellow"))).contains(Point(x: 130, y: 424)))
        #expect(scene.hitTest(Point(x: 130, y: 424)) == scene.viewID(named: "button"))
    }
}

/// The button's tracking margin on its own, in a scene whose canvas has no pan to take the drag first.
@Suite("Button tracking margin")
struct ButtonTrackingMarginTests {
    func configWithoutCanvasPan() throws -> String {
        let text = try String(contentsOfFile: defaultConfigPath, encoding: .utf8)
        let block = "[[gesture]]\nview = \"canvas\"\nname = \"pan\"\nkind = \"pan\"\nmaximum_touches = 1\naction = \"move_all\"\nshould_require_failure_of = [\"swipe\"]\n"
        #expect(text.contains(block))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("no-pan-\(UUID().uuidString).toml").path
        try text.replacingOccurrences(of: block, with: "").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test(arguments: [(5.0, 1), (15.0, 0)])
    func aTouchFiresTheButtonOnlyWhenItLiftsWithinTheMargin(offBy millimetres: Double, taps: Int) throws {
        let config = try configWithoutCanvasPan()
        let k = Fingers(panel: SyntheticTouchscreen.ft5406)
        // Straight up past the button's top edge (396), slowly, so the canvas swipe fails too.
        let start = Point(x: 130, y: 410)
        k.drag(from: start, to: Point(x: 130, y: 396 - k.mm(millimetres)), over: 1.2)
        let r = try k.replay(config: config)
        #expect(r.number("button", "taps") == Double(taps))
        #expect(r.controlEvents("button").last == (taps == 1 ? "primaryActionTriggered" : "touchUpOutside"))
    }
}
