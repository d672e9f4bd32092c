import KioskCore
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

    func oneView() -> (Fingers, ViewID) {
        let f = Fingers()
        let v = f.views.add("box", screen)
        return (f, v)
    }

    @Test func tapRecognizesOnLift() {
        let (f, v) = oneView()
        let tap = f.add(TapRecognizer(view: v, viewName: "box"))
        f.tap(at: Point(x: 100, y: 100))
        #expect(f.states(of: tap) == [.recognized])
        #expect(f.events(of: tap).first?.location == Point(x: 100, y: 100))
    }

    @Test func tapFailsWhenTheFingerMovesTooFar() {
        let (f, v) = oneView()
        let tap = f.add(TapRecognizer(view: v, viewName: "box"))
        let id = f.press(Point(x: 100, y: 100))[0]
        f.move([id: Point(x: 100 + f.mm(3.1), y: 100)])
        f.lift()
        #expect(f.states(of: tap).isEmpty)
        #expect(f.decisions.contains("0.017 tap@box failed: moved 3.1 mm > 2.0 mm allowed"))
    }

    @Test(arguments: [1, 2, 3])
    func tapNeedsItsNumberOfFingers(fingers: Int) {
        let (f, v) = oneView()
        var options = TapOptions()
        options.touchesRequired = 2
        let tap = f.add(TapRecognizer(view: v, viewName: "box", options: options))
        f.tap(at: Point(x: 100, y: 100), fingers: fingers)
        #expect(f.states(of: tap) == (fingers == 2 ? [.recognized] : []))
    }

    @Test func doubleTapNeedsTheSecondTapInTime() {
        let (f, v) = oneView()
        var options = TapOptions()
        options.tapsRequired = 2
        let double = f.add(TapRecognizer(view: v, viewName: "box", options: options))
        f.tap(at: Point(x: 100, y: 100))
        f.wait(0.2)
        f.tap(at: Point(x: 102, y: 101))
        #expect(f.states(of: double) == [.recognized])
        #expect(f.events(of: double).first?.taps == 2)

        f.tap(at: Point(x: 100, y: 100))
        #expect(f.engine.nextDeadline == f.now.adding(seconds: 0.3))
        f.wait(0.31)
        f.tap(at: Point(x: 100, y: 100))
        #expect(f.states(of: double) == [.recognized])
        #expect(f.decisions.contains { $0.hasSuffix("tap@box failed: tap 2 of 2 did not come within 0.30 s") })
    }

    @Test func doubleTapFailsWhenTheSecondTapLandsFarAway() {
        let (f, v) = oneView()
        var options = TapOptions()
        options.tapsRequired = 2
        let double = f.add(TapRecognizer(view: v, viewName: "box", options: options))
        f.tap(at: Point(x: 100, y: 100))
        f.tap(at: Point(x: 100 + f.mm(15), y: 100))
        #expect(f.states(of: double).isEmpty)
        #expect(f.decisions.contains { $0.contains("next tap 15.0 mm from the first > 10.0 mm allowed") })
    }

    @Test func longPressBeginsAtItsMinimumDurationExactly() {
        let (f, v) = oneView()
        let press = f.add(LongPressRecognizer(view: v, viewName: "box"))
        let id = f.press(Point(x: 200, y: 200))[0]
        #expect(f.engine.nextDeadline == f.now.adding(seconds: 0.5))
        f.wait(0.49)
        #expect(f.states(of: press).isEmpty)
        f.wait(0.5)
        #expect(f.events(of: press).map(\.time) == [f.origin.adding(seconds: 0.5)])
        f.move([id: Point(x: 260, y: 230)])
        f.lift()
        #expect(f.states(of: press) == [.began, .changed, .ended])
        #expect(f.events(of: press)[1].location == Point(x: 260, y: 230))
    }

    @Test func longPressFailsOnMovementOrEarlyLift() {
        let (f, v) = oneView()
        let press = f.add(LongPressRecognizer(view: v, viewName: "box"))
        let id = f.press(Point(x: 200, y: 200))[0]
        f.move([id: Point(x: 200 + f.mm(1.7), y: 200)])
        f.wait(1)
        f.lift()
        f.press(Point(x: 200, y: 200))
        f.wait(0.3)
        f.lift()
        f.wait(1)
        #expect(f.states(of: press).isEmpty)
        #expect(f.decisions.contains { $0.hasSuffix("long_press@box failed: moved 1.7 mm > 1.6 mm allowed") })
        #expect(f.decisions.contains { $0.hasSuffix("long_press@box failed: lifted after 0.32 s, needs 0.50 s") })
    }

    @Test func panKeepsTheObjectUnderTheFinger() {
        let (f, v) = oneView()
        let pan = f.add(PanRecognizer(view: v, viewName: "box"))
        let start = Point(x: 100, y: 100)
        let id = f.press(start)[0]
        f.move([id: Point(x: 105, y: 100)])
        #expect(f.states(of: pan).isEmpty, "5 px is below the 2 mm hysteresis")
        f.drag(id, to: Point(x: 300, y: 160), over: 0.5)
        let last = f.events(of: pan).last!
        #expect(last.translation == Point(x: 200, y: 60), "translation is the finger's whole travel")
        #expect(f.events(of: pan).first!.translation.length >= f.mm(2))
        f.lift()
        #expect(f.states(of: pan).first == .began)
        #expect(f.states(of: pan).last == .ended)
    }

    @Test func panVelocityIsTheFingerSpeed() {
        let (f, v) = oneView()
        let pan = f.add(PanRecognizer(view: v, viewName: "box"))
        let id = f.press(Point(x: 100, y: 100))[0]
        f.drag(id, to: Point(x: 400, y: 100), over: 1.0)
        let velocity = f.events(of: pan).last!.velocity
        #expect(abs(velocity.x - 300) < 1)
        #expect(abs(velocity.y) < 1e-6)
    }

    @Test func panTranslationStaysContinuousWhenASecondFingerComesAndGoes() {
        let (f, v) = oneView()
        let pan = f.add(PanRecognizer(view: v, viewName: "box"))
        let a = f.press(Point(x: 100, y: 100))[0]
        f.drag(a, to: Point(x: 150, y: 100), over: 0.2)
        let b = f.press(Point(x: 300, y: 300))[0]
        f.move([a: Point(x: 160, y: 100), b: Point(x: 310, y: 300)])
        #expect(f.events(of: pan).last!.translation == Point(x: 60, y: 0))
        f.lift([b])
        f.move([a: Point(x: 170, y: 100)])
        #expect(f.events(of: pan).last!.translation == Point(x: 70, y: 0))
    }

    @Test func panRespectsMinimumAndMaximumTouches() {
        let (f, v) = oneView()
        var options = PanOptions()
        options.minimumTouches = 2
        options.maximumTouches = 2
        let pan = f.add(PanRecognizer(view: v, viewName: "box", options: options))
        f.drag(from: Point(x: 100, y: 100), to: Point(x: 200, y: 100), over: 0.2)
        #expect(f.states(of: pan).isEmpty)
        let ids = f.press(Point(x: 100, y: 100), Point(x: 150, y: 100), Point(x: 200, y: 100))
        f.move([ids[0]: Point(x: 120, y: 100), ids[1]: Point(x: 170, y: 100), ids[2]: Point(x: 220, y: 100)])
        #expect(f.states(of: pan).isEmpty, "three fingers on a two-finger pan")
        f.lift([ids[2]])
        #expect(f.states(of: pan) == [.began], "two fingers left, already past the hysteresis")
        f.move([ids[0]: Point(x: 140, y: 100), ids[1]: Point(x: 190, y: 100)])
        #expect(f.states(of: pan) == [.began, .changed])
    }

    @Test func pinchScalesByTheFingersDistance() {
        let (f, v) = oneView()
        let pinch = f.add(PinchRecognizer(view: v, viewName: "box"))
        f.twoFingers(around: Point(x: 400, y: 240), span: 100, to: 250)
        let changes = f.events(of: pinch)
        #expect(changes.first?.state == .began)
        #expect(abs(changes.dropLast().last!.scale - 2.5) < 1e-9)
        #expect(changes.last?.state == .ended)
        #expect(changes.dropLast().last!.location == Point(x: 400, y: 240))
        #expect(changes.dropLast().last!.scalarVelocity > 0)
    }

    @Test func rotationIsClockwisePositiveOnScreen() {
        let (f, v) = oneView()
        let rotation = f.add(RotationRecognizer(view: v, viewName: "box"))
        // From horizontal to pointing down-right: clockwise as seen on a y-down screen.
        f.twoFingers(around: Point(x: 400, y: 240), span: 150, to: 150, angle: 0, toAngle: Double.pi / 4)
        let last = f.events(of: rotation).dropLast().last!
        #expect(abs(last.rotation - Double.pi / 4) < 1e-9)
        #expect(last.scalarVelocity > 0)
        let (g, w) = oneView()
        let other = g.add(RotationRecognizer(view: w, viewName: "box"))
        g.twoFingers(around: Point(x: 400, y: 240), span: 150, to: 150, angle: 0, toAngle: -Double.pi / 2)
        #expect(abs(g.events(of: other).dropLast().last!.rotation + Double.pi / 2) < 1e-9)
    }

    @Test func rotationFollowsPastHalfATurn() {
        let (f, v) = oneView()
        let rotation = f.add(RotationRecognizer(view: v, viewName: "box"))
        f.twoFingers(around: Point(x: 400, y: 240), span: 150, to: 150, angle: 0, toAngle: 1.5 * Double.pi, steps: 30)
        #expect(abs(f.events(of: rotation).dropLast().last!.rotation - 1.5 * Double.pi) < 1e-9)
    }

    func swipeView(_ directions: SwipeDirections = [.left, .right]) -> (Fingers, SwipeRecognizer) {
        let (f, v) = oneView()
        var options = SwipeOptions()
        options.directions = directions
        return (f, f.add(SwipeRecognizer(view: v, viewName: "box", options: options)))
    }

    @Test func aTwentyMillimetreFlickInATenthOfASecondIsASwipe() {
        let (f, swipe) = swipeView()
        f.drag(from: Point(x: 400, y: 240), to: Point(x: 400 - f.mm(20), y: 240), over: 0.1)
        #expect(f.states(of: swipe) == [.recognized])
        #expect(f.events(of: swipe).first?.direction == .left)
    }

    @Test(arguments: [14.9, 10.0, 5.0])
    func aDragSlowerThanFifteenMillimetresPerSecondNeverIs(speed: Double) {
        let (f, swipe) = swipeView()
        let distance = 40.0
        f.drag(from: Point(x: 200, y: 240), to: Point(x: 200 + f.mm(distance), y: 240), over: distance / speed)
        #expect(f.states(of: swipe).isEmpty)
        #expect(f.decisions.contains { $0.contains("swipe@box failed: too slow") })
    }

    @Test func aSwipeInAnotherDirectionFails() {
        let (f, swipe) = swipeView()
        f.drag(from: Point(x: 400, y: 100), to: Point(x: 400, y: 100 + f.mm(20)), over: 0.1)
        #expect(f.states(of: swipe).isEmpty)
        #expect(f.decisions.contains { $0.hasSuffix("swipe@box failed: moved toward 90° (0° right, 90° down), more than 30° off right|left") })
    }

    @Test func aSwipeThatTakesTooLongTimesOut() {
        let (f, swipe) = swipeView()
        f.press(Point(x: 400, y: 240))
        f.wait(0.6)
        #expect(f.decisions.contains { $0.hasSuffix("swipe@box failed: did not cover its distance within 0.50 s") })
        f.lift()
        #expect(f.states(of: swipe).isEmpty)
    }

    @Test func aTwoFingerSwipeNeedsTwoFingers() {
        let (f, v) = oneView()
        var options = SwipeOptions()
        options.touchesRequired = 2
        let swipe = f.add(SwipeRecognizer(view: v, viewName: "box", options: options))
        let ids = f.press(Point(x: 300, y: 200), Point(x: 300, y: 260))
        for i in 1...6 {
            let dx = f.mm(20) * Double(i) / 6
            f.move([ids[0]: Point(x: 300 + dx, y: 200), ids[1]: Point(x: 300 + dx, y: 260)])
        }
        f.lift()
        #expect(f.states(of: swipe) == [.recognized])
        let (g, w) = oneView()
        let single = g.add(SwipeRecognizer(view: w, viewName: "box", options: options))
        g.drag(from: Point(x: 300, y: 200), to: Point(x: 300 + g.mm(20), y: 200), over: 0.1)
        #expect(g.states(of: single).isEmpty)
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
        let f = Fingers()
        let v = f.views.add("box", Rect(x: 0, y: 0, width: 800, height: 480))
        let rotation = f.add(RotationRecognizer(view: v, viewName: "box"))
        f.twoFingers(around: Point(x: 400, y: 240), span: 100, to: 140)
        #expect(f.states(of: rotation).isEmpty)
        #expect(f.decisions.contains { $0.hasSuffix("rotation@box failed: lifted after turning 0.0°, needs 4.6°") }, "\(f.decisions)")
    }
}
