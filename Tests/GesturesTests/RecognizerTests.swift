import KioskCore
import KioskTestSupport
import Testing
@testable import Gestures

@Suite("Recognizers")
struct RecognizerTests {
    @Test func eachRecognizerIsOfItsKindAndNamedAfterItByDefault() {
        let v = ViewID(0)
        let made: [GestureRecognizer] = [
            TapRecognizer(view: v, viewName: "box"), LongPressRecognizer(view: v, viewName: "box"),
            PanRecognizer(view: v, viewName: "box"), PinchRecognizer(view: v, viewName: "box"),
            RotationRecognizer(view: v, viewName: "box"), SwipeRecognizer(view: v, viewName: "box"),
        ]
        #expect(made.map(\.kind) == RecognizerKind.allCases)
        #expect(made.map(\.name) == ["tap", "long_press", "pan", "pinch", "rotation", "swipe"])
        #expect(made.map(\.isContinuous) == [false, true, true, true, true, false])
    }

    func oneView() -> (EngineRig, ViewID) {
        let e = EngineRig()
        let v = e.views.add("box", screen)
        return (e, v)
    }

    @Test func tapRecognizesOnLift() {
        let (e, v) = oneView()
        let f = e.fingers
        let tap = e.add(TapRecognizer(view: v, viewName: "box"))
        f.tap(at: Point(x: 100, y: 100), holding: 0.05)
        #expect(e.states(of: tap) == [.recognized])
        #expect(e.events(of: tap).first?.location == Point(x: 100, y: 100))
    }

    @Test func tapFailsWhenTheFingerMovesTooFar() {
        let (e, v) = oneView()
        let f = e.fingers
        let tap = e.add(TapRecognizer(view: v, viewName: "box"))
        let id = f.down(Point(x: 100, y: 100))[0]
        f.move([id: Point(x: 100 + f.mm(3.1), y: 100)])
        f.up()
        #expect(e.states(of: tap).isEmpty)
        #expect(e.decisions.contains("0.017 tap@box failed: moved 3.1 mm > 2.0 mm allowed"))
    }

    @Test(arguments: [1, 2, 3])
    func tapNeedsItsNumberOfFingers(fingers: Int) {
        let (e, v) = oneView()
        let f = e.fingers
        var options = TapOptions()
        options.touchesRequired = 2
        let tap = e.add(TapRecognizer(view: v, viewName: "box", options: options))
        // Each finger in a frame of its own, at one time.
        let ids = (0..<fingers).flatMap { f.down(Point(x: 100 + Double($0) * 40, y: 100)) }
        f.wait(0.05)
        f.up(ids)
        #expect(e.states(of: tap) == (fingers == 2 ? [.recognized] : []))
    }

    @Test func doubleTapNeedsTheSecondTapInTime() {
        let (e, v) = oneView()
        let f = e.fingers
        var options = TapOptions()
        options.tapsRequired = 2
        let double = e.add(TapRecognizer(view: v, viewName: "box", options: options))
        f.tap(at: Point(x: 100, y: 100), holding: 0.05)
        f.wait(0.2)
        f.tap(at: Point(x: 102, y: 101), holding: 0.05)
        #expect(e.states(of: double) == [.recognized])
        #expect(e.events(of: double).first?.taps == 2)

        f.tap(at: Point(x: 100, y: 100), holding: 0.05)
        #expect(e.engine.nextDeadline == f.now.adding(seconds: 0.3))
        f.wait(0.31)
        f.tap(at: Point(x: 100, y: 100), holding: 0.05)
        #expect(e.states(of: double) == [.recognized])
        #expect(e.decisions.contains { $0.hasSuffix("tap@box failed: tap 2 of 2 did not come within 0.30 s") })
    }

    @Test func doubleTapFailsWhenTheSecondTapLandsFarAway() {
        let (e, v) = oneView()
        let f = e.fingers
        var options = TapOptions()
        options.tapsRequired = 2
        let double = e.add(TapRecognizer(view: v, viewName: "box", options: options))
        f.tap(at: Point(x: 100, y: 100), holding: 0.05)
        f.tap(at: Point(x: 100 + f.mm(15), y: 100), holding: 0.05)
        #expect(e.states(of: double).isEmpty)
        #expect(e.decisions.contains { $0.contains("next tap 15.0 mm from the first > 10.0 mm allowed") })
    }

    @Test func longPressBeginsAtItsMinimumDurationExactly() {
        let (e, v) = oneView()
        let f = e.fingers
        let press = e.add(LongPressRecognizer(view: v, viewName: "box"))
        let id = f.down(Point(x: 200, y: 200))[0]
        #expect(e.engine.nextDeadline == f.now.adding(seconds: 0.5))
        f.wait(0.49)
        #expect(e.states(of: press).isEmpty)
        f.wait(0.5)
        #expect(e.events(of: press).map(\.time) == [e.origin.adding(seconds: 0.5)])
        f.move([id: Point(x: 260, y: 230)])
        f.up()
        #expect(e.states(of: press) == [.began, .changed, .ended])
        #expect(e.events(of: press)[1].location == Point(x: 260, y: 230))
    }

    @Test func longPressFailsOnMovementOrEarlyLift() {
        let (e, v) = oneView()
        let f = e.fingers
        let press = e.add(LongPressRecognizer(view: v, viewName: "box"))
        let id = f.down(Point(x: 200, y: 200))[0]
        f.move([id: Point(x: 200 + f.mm(1.7), y: 200)])
        f.wait(1)
        f.up()
        f.down(Point(x: 200, y: 200))
        f.wait(0.3)
        f.up()
        f.wait(1)
        #expect(e.states(of: press).isEmpty)
        #expect(e.decisions.contains { $0.hasSuffix("long_press@box failed: moved 1.7 mm > 1.6 mm allowed") })
        #expect(e.decisions.contains { $0.hasSuffix("long_press@box failed: lifted after 0.32 s, needs 0.50 s") })
    }

    /// Issue 21, part 7: 1.4 mm of the 1.56 mm allowed, diagonally, still begins (comparing the
    /// squared distance, 1.96, with the limit failed it: no test saw that).
    @Test func longPressBeginsWhenTheFingerMovesLessThanItsAllowance() {
        let (e, v) = oneView()
        let f = e.fingers
        let press = e.add(LongPressRecognizer(view: v, viewName: "box"))
        #expect(abs(press.options.allowableMovementMillimetres - 1.56) < 0.01)
        let id = f.down(Point(x: 200, y: 200))[0]
        let step = f.mm(1.4) / 2.0.squareRoot()
        f.move([id: Point(x: 200 + step, y: 200 + step)])
        f.wait(0.6)
        #expect(e.states(of: press) == [.began], "\(e.decisions)")
    }

    @Test func panKeepsTheObjectUnderTheFinger() {
        let (e, v) = oneView()
        let f = e.fingers
        let pan = e.add(PanRecognizer(view: v, viewName: "box"))
        let start = Point(x: 100, y: 100)
        let id = f.down(start)[0]
        f.move([id: Point(x: 105, y: 100)])
        #expect(e.states(of: pan).isEmpty, "5 px is below the 2 mm hysteresis")
        f.move([id: Point(x: 300, y: 160)], over: 0.5)
        let last = e.events(of: pan).last!
        #expect(last.translation == Point(x: 200, y: 60), "translation is the finger's whole travel")
        #expect(e.events(of: pan).first!.translation.length >= f.mm(2))
        f.up()
        #expect(e.states(of: pan).first == .began)
        #expect(e.states(of: pan).last == .ended)
    }

    @Test func panVelocityIsTheFingerSpeed() {
        let (e, v) = oneView()
        let f = e.fingers
        let pan = e.add(PanRecognizer(view: v, viewName: "box"))
        let id = f.down(Point(x: 100, y: 100))[0]
        f.move([id: Point(x: 400, y: 100)], over: 1.0)
        let velocity = e.events(of: pan).last!.velocity
        #expect(abs(velocity.x - 300) < 1)
        #expect(abs(velocity.y) < 1e-6)
    }

    @Test func panTranslationStaysContinuousWhenASecondFingerComesAndGoes() {
        let (e, v) = oneView()
        let f = e.fingers
        let pan = e.add(PanRecognizer(view: v, viewName: "box"))
        let a = f.down(Point(x: 100, y: 100))[0]
        f.move([a: Point(x: 150, y: 100)], over: 0.2)
        let b = f.down(Point(x: 300, y: 300))[0]
        f.move([a: Point(x: 160, y: 100), b: Point(x: 310, y: 300)])
        #expect(e.events(of: pan).last!.translation == Point(x: 60, y: 0))
        f.up([b])
        f.move([a: Point(x: 170, y: 100)])
        #expect(e.events(of: pan).last!.translation == Point(x: 70, y: 0))
    }

    @Test func panRespectsMinimumAndMaximumTouches() {
        let (e, v) = oneView()
        let f = e.fingers
        var options = PanOptions()
        options.minimumTouches = 2
        options.maximumTouches = 2
        let pan = e.add(PanRecognizer(view: v, viewName: "box", options: options))
        f.drag(from: Point(x: 100, y: 100), to: Point(x: 200, y: 100), over: 0.2)
        #expect(e.states(of: pan).isEmpty)
        let ids = f.down(Point(x: 100, y: 100), Point(x: 150, y: 100), Point(x: 200, y: 100))
        f.move([ids[0]: Point(x: 120, y: 100), ids[1]: Point(x: 170, y: 100), ids[2]: Point(x: 220, y: 100)])
        #expect(e.states(of: pan).isEmpty, "three fingers on a two-finger pan")
        f.up([ids[2]])
        #expect(e.states(of: pan) == [.began], "two fingers left, already past the hysteresis")
        f.move([ids[0]: Point(x: 140, y: 100), ids[1]: Point(x: 190, y: 100)])
        #expect(e.states(of: pan) == [.began, .changed])
    }

    @Test func pinchScalesByTheFingersDistance() {
        let (e, v) = oneView()
        let f = e.fingers
        let pinch = e.add(PinchRecognizer(view: v, viewName: "box"))
        f.spreadAndTurn(around: Point(x: 400, y: 240), span: 100, to: 250, over: 10 * Fingers.frame)
        let changes = e.events(of: pinch)
        #expect(changes.first?.state == .began)
        #expect(abs(changes.dropLast().last!.scale - 2.5) < 1e-9)
        #expect(changes.last?.state == .ended)
        #expect(changes.dropLast().last!.location == Point(x: 400, y: 240))
        #expect(changes.dropLast().last!.scalarVelocity > 0)
    }

    @Test func rotationIsClockwisePositiveOnScreen() {
        let (e, v) = oneView()
        let f = e.fingers
        let rotation = e.add(RotationRecognizer(view: v, viewName: "box"))
        // From horizontal to pointing down-right: clockwise as seen on a y-down screen.
        f.spreadAndTurn(around: Point(x: 400, y: 240), span: 150, to: 150, angle: 0, toAngle: Double.pi / 4, over: 10 * Fingers.frame)
        let last = e.events(of: rotation).dropLast().last!
        #expect(abs(last.rotation - Double.pi / 4) < 1e-9)
        #expect(last.scalarVelocity > 0)
        let (e2, w) = oneView()
        let g = e2.fingers
        let other = e2.add(RotationRecognizer(view: w, viewName: "box"))
        g.spreadAndTurn(around: Point(x: 400, y: 240), span: 150, to: 150, angle: 0, toAngle: -Double.pi / 2, over: 10 * Fingers.frame)
        #expect(abs(e2.events(of: other).dropLast().last!.rotation + Double.pi / 2) < 1e-9)
    }

    @Test func rotationFollowsPastHalfATurn() {
        let (e, v) = oneView()
        let f = e.fingers
        let rotation = e.add(RotationRecognizer(view: v, viewName: "box"))
        f.spreadAndTurn(around: Point(x: 400, y: 240), span: 150, to: 150, angle: 0, toAngle: 1.5 * Double.pi, over: 30 * Fingers.frame)
        #expect(abs(e.events(of: rotation).dropLast().last!.rotation - 1.5 * Double.pi) < 1e-9)
    }

    func swipeView(_ directions: SwipeDirections = [.left, .right]) -> (EngineRig, SwipeRecognizer) {
        let (e, v) = oneView()
        var options = SwipeOptions()
        options.directions = directions
        return (e, e.add(SwipeRecognizer(view: v, viewName: "box", options: options)))
    }

    @Test func aTwentyMillimetreFlickInATenthOfASecondIsASwipe() {
        let (e, swipe) = swipeView()
        let f = e.fingers
        f.drag(from: Point(x: 400, y: 240), to: Point(x: 400 - f.mm(20), y: 240), over: 0.1)
        #expect(e.states(of: swipe) == [.recognized])
        #expect(e.events(of: swipe).first?.direction == .left)
    }

    @Test(arguments: [14.9, 10.0, 5.0])
    func aDragSlowerThanFifteenMillimetresPerSecondNeverIs(speed: Double) {
        let (e, swipe) = swipeView()
        let f = e.fingers
        let distance = 40.0
        f.drag(from: Point(x: 200, y: 240), to: Point(x: 200 + f.mm(distance), y: 240), over: distance / speed)
        #expect(e.states(of: swipe).isEmpty)
        #expect(e.decisions.contains { $0.contains("swipe@box failed: too slow") })
    }

    @Test func aSwipeInAnotherDirectionFails() {
        let (e, swipe) = swipeView()
        let f = e.fingers
        f.drag(from: Point(x: 400, y: 100), to: Point(x: 400, y: 100 + f.mm(20)), over: 0.1)
        #expect(e.states(of: swipe).isEmpty)
        #expect(e.decisions.contains { $0.hasSuffix("swipe@box failed: moved toward 90° (0° right, 90° down), more than 30° off right|left") })
    }

    @Test func aSwipeThatTakesTooLongTimesOut() {
        let (e, swipe) = swipeView()
        let f = e.fingers
        f.down(Point(x: 400, y: 240))
        f.wait(0.6)
        #expect(e.decisions.contains { $0.hasSuffix("swipe@box failed: did not cover its distance within 0.50 s") })
        f.up()
        #expect(e.states(of: swipe).isEmpty)
    }

    @Test func aTwoFingerSwipeNeedsTwoFingers() {
        let (e, v) = oneView()
        let f = e.fingers
        var options = SwipeOptions()
        options.touchesRequired = 2
        let swipe = e.add(SwipeRecognizer(view: v, viewName: "box", options: options))
        let ids = f.down(Point(x: 300, y: 200), Point(x: 300, y: 260))
        for i in 1...6 {
            let dx = f.mm(20) * Double(i) / 6
            f.move([ids[0]: Point(x: 300 + dx, y: 200), ids[1]: Point(x: 300 + dx, y: 260)])
        }
        f.up()
        #expect(e.states(of: swipe) == [.recognized])
        let (e2, w) = oneView()
        let g = e2.fingers
        let single = e2.add(SwipeRecognizer(view: w, viewName: "box", options: options))
        g.drag(from: Point(x: 300, y: 200), to: Point(x: 300 + g.mm(20), y: 200), over: 0.1)
        #expect(e2.states(of: single).isEmpty)
    }
}

@Suite("Velocity tracker")
struct VelocityTrackerTests {
    @Test func fitsALineExactly() {
        var t = VelocityTracker()
        for i in 0..<10 { t.add(Point(x: 5 + 120 * Double(i) / 60, y: -3 * Double(i) / 60), at: Instant(seconds: Double(i) / 60)) }
        // Timestamps are whole microseconds, so the fit is exact to about 1e-4.
        #expect(abs(t.velocity.x - 120) < 1e-3)
        #expect(abs(t.velocity.y + 3) < 1e-3)
    }

    @Test func onlyTheLastTenthOfASecondCounts() {
        var t = VelocityTracker()
        for i in 0..<30 { t.add(Double(i) * 10, at: Instant(seconds: Double(i) / 60)) }
        for i in 30..<40 { t.add(290, at: Instant(seconds: Double(i) / 60)) }
        #expect(t.samplesInWindow == 7)
        #expect(abs(t.scalarVelocity) < 1e-6, "stopped: old movement is out of the window")
    }

    @Test func needsTwoSamplesAndKeepsItsCapacity() {
        var t = VelocityTracker(capacity: 4)
        #expect(t.velocity == .zero)
        t.add(1, at: Instant(seconds: 0))
        #expect(t.velocity == .zero)
        for i in 1..<100 { t.add(Double(i), at: Instant(seconds: Double(i) / 1000)) }
        #expect(t.samplesInWindow == 4)
        #expect(abs(t.scalarVelocity - 1000) < 1e-6)
    }
}

@Suite("Decision words")
struct DecisionWordsTests {
    @Test func aRotationThatNeverTurnedSaysHowFarItTurned() {
        let e = EngineRig(), f = e.fingers
        let v = e.views.add("box", Rect(x: 0, y: 0, width: 800, height: 480))
        let rotation = e.add(RotationRecognizer(view: v, viewName: "box"))
        f.spreadAndTurn(around: Point(x: 400, y: 240), span: 100, to: 140, over: 10 * Fingers.frame)
        #expect(e.states(of: rotation).isEmpty)
        #expect(e.decisions.contains { $0.hasSuffix("rotation@box failed: lifted after turning 0.0°, needs 4.6°") }, "\(e.decisions)")
    }
}
