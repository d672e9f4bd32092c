import KioskCore
import Testing
@testable import Gestures

@Suite("Coordinator")
struct CoordinatorTests {
    /// Listing 6-1: a single tap that requires a double tap to fail.
    func tapAndDoubleTap() -> (EngineRig, TapRecognizer, TapRecognizer) {
        let e = EngineRig()
        let v = e.views.add("box", screen)
        var two = TapOptions()
        two.tapsRequired = 2
        let double = e.add(TapRecognizer(name: "doubletap", view: v, viewName: "box", options: two))
        let tap = e.add(TapRecognizer(name: "tap", view: v, viewName: "box"))
        try! e.engine.require(tap, toFail: double)
        return (e, tap, double)
    }

    @Test func aSingleTapWaitingOnADoubleTapFiresWhenTheWindowExpiresAtThatTime() {
        let (e, tap, double) = tapAndDoubleTap()
        let f = e.fingers
        f.tap(at: Point(x: 100, y: 100), holding: 0.05)
        let lifted = f.now
        #expect(e.states(of: tap).isEmpty, "held while the double tap is possible")
        #expect(e.engine.nextDeadline == lifted.adding(seconds: 0.3))
        f.wait(1)
        #expect(e.states(of: tap) == [.recognized])
        #expect(e.states(of: double).isEmpty)
        #expect(e.events(of: tap).first?.time == lifted.adding(seconds: 0.3))
        #expect(e.decisions.contains { $0.hasSuffix("tap@box held: waits for doubletap@box (possible)") })
        #expect(e.decisions.contains { $0.hasSuffix("tap@box goes on: doubletap@box failed") })
    }

    @Test func aDoubleTapMakesTheWaitingSingleTapFail() {
        let (e, tap, double) = tapAndDoubleTap()
        let f = e.fingers
        f.tap(at: Point(x: 100, y: 100), holding: 0.05)
        f.wait(0.1)
        f.tap(at: Point(x: 100, y: 100), holding: 0.05)
        f.wait(1)
        #expect(e.states(of: double) == [.recognized])
        #expect(e.states(of: tap).isEmpty)
        #expect(e.decisions.contains { $0.hasSuffix("tap@box failed: waits for doubletap@box to fail, which recognized") })
        // Both start over: the next single tap fires again.
        f.tap(at: Point(x: 100, y: 100), holding: 0.05)
        f.wait(1)
        #expect(e.states(of: tap) == [.recognized])
    }

    /// Listings 6-2 and 6-3: a pan that requires a swipe to fail, declared in each of the three places.
    enum Placement: CaseIterable { case requireToFail, shouldRequireFailureOf, shouldBeRequiredToFailBy }

    func panAndSwipe(_ placement: Placement) -> (EngineRig, PanRecognizer, SwipeRecognizer, TestDelegate, TestDelegate) {
        let e = EngineRig()
        let v = e.views.add("canvas", screen)
        var options = SwipeOptions()
        options.directions = [.left, .right]
        let swipe = e.add(SwipeRecognizer(view: v, viewName: "canvas", options: options))
        let pan = e.add(PanRecognizer(view: v, viewName: "canvas"))
        let panDelegate = TestDelegate(), swipeDelegate = TestDelegate()
        pan.delegate = panDelegate
        swipe.delegate = swipeDelegate
        switch placement {
        case .requireToFail: try! e.engine.require(pan, toFail: swipe)
        case .shouldRequireFailureOf: panDelegate.requiresFailureOf = ["swipe@canvas"]
        case .shouldBeRequiredToFailBy: swipeDelegate.requiredToFailBy = ["pan@canvas"]
        }
        return (e, pan, swipe, panDelegate, swipeDelegate)
    }

    @Test(arguments: Placement.allCases)
    func aSlowDragPansOnceTheSwipeHasFailed(placement: Placement) {
        let (e, pan, swipe, panDelegate, swipeDelegate) = panAndSwipe(placement)
        let f = e.fingers
        defer { withExtendedLifetime((panDelegate, swipeDelegate)) {} }
        f.drag(from: Point(x: 100, y: 240), to: Point(x: 100 + f.mm(30), y: 240), over: 1.0)
        #expect(e.states(of: swipe).isEmpty)
        #expect(e.states(of: pan).first == .began)
        #expect(e.states(of: pan).last == .ended)
        #expect(abs(e.events(of: pan).last!.translation.x - f.mm(30)) < 1e-9)
    }

    @Test(arguments: Placement.allCases)
    func aFlickSwipesAndThePanFails(placement: Placement) {
        let (e, pan, swipe, panDelegate, swipeDelegate) = panAndSwipe(placement)
        let f = e.fingers
        f.drag(from: Point(x: 400, y: 240), to: Point(x: 400 + f.mm(20), y: 240), over: 0.1)
        withExtendedLifetime((panDelegate, swipeDelegate)) {}
        #expect(e.states(of: swipe) == [.recognized])
        #expect(e.states(of: pan).isEmpty)
        #expect(e.decisions.contains { $0.hasSuffix("pan@canvas failed: waits for swipe@canvas to fail, which recognized") })
    }

    @Test func allThreePlacementsGiveTheSameEvents() {
        func run(_ p: Placement) -> [String] {
            let (e, _, _, panDelegate, swipeDelegate) = panAndSwipe(p)
            let f = e.fingers
            defer { withExtendedLifetime((panDelegate, swipeDelegate)) {} }
            f.drag(from: Point(x: 100, y: 240), to: Point(x: 100 + f.mm(30), y: 240), over: 1.0)
            f.drag(from: Point(x: 400, y: 240), to: Point(x: 400 - f.mm(20), y: 240), over: 0.1)
            f.drag(from: Point(x: 400, y: 240), to: Point(x: 400 + f.mm(5), y: 240), over: 0.05)
            return e.events.map { "\($0.time.microseconds) \(e.engine.recognizer($0.recognizer).qualifiedName) \($0.state) \($0.translation)" }
        }
        let reference = run(.requireToFail)
        #expect(reference.count > 10)
        #expect(run(.shouldRequireFailureOf) == reference)
        #expect(run(.shouldBeRequiredToFailBy) == reference)
    }

    @Test func aQuickShortDragHeldByTheSwipeStillMovesWhenTheSwipeFailsOnLift() {
        let (e, pan, _, _, _) = panAndSwipe(.requireToFail)
        let f = e.fingers
        f.drag(from: Point(x: 400, y: 240), to: Point(x: 400 + f.mm(5), y: 240), over: 0.05)
        #expect(e.states(of: pan) == [.began, .ended])
        #expect(abs(e.events(of: pan).last!.translation.x - f.mm(5)) < 1e-9)
        #expect(e.decisions.contains { $0.hasSuffix("pan@canvas held: waits for swipe@canvas (possible)") })
        #expect(e.decisions.contains { $0.hasSuffix("swipe@canvas failed: lifted after moving 5.0 mm, needs 10.0 mm") })
    }

    @Test func aRecognizerHeldOverSeveralFramesIsWrittenDownAsHeldOnceAndGoesOnOnce() {
        let (e, pan, _, _, _) = panAndSwipe(.requireToFail)
        let f = e.fingers
        let id = f.down(Point(x: 400, y: 240))[0]
        f.move([id: Point(x: 400 + f.mm(5), y: 240)], over: 0.05)
        #expect(e.states(of: pan).isEmpty, "held while the swipe is possible")
        f.up([id])
        #expect(e.states(of: pan) == [.began, .ended])
        #expect(e.decisions.filter { $0.contains("pan@canvas held") }.count == 1)
        #expect(e.decisions.filter { $0.contains("pan@canvas goes on") }.count == 1)
    }

    @Test func theDelegateIsAskedAboutRequirementsOncePerAttempt() {
        let (e, _, _, panDelegate, swipeDelegate) = panAndSwipe(.shouldRequireFailureOf)
        let f = e.fingers
        f.drag(from: Point(x: 100, y: 240), to: Point(x: 300, y: 240), over: 1.0)
        let afterOne = panDelegate.requirementQuestions + swipeDelegate.requirementQuestions
        // pan asks about swipe (its delegate says yes); swipe asks about pan (both sides say no).
        #expect(afterOne == 3)
        f.drag(from: Point(x: 100, y: 240), to: Point(x: 300, y: 240), over: 1.0)
        #expect(panDelegate.requirementQuestions + swipeDelegate.requirementQuestions == 2 * afterOne)
    }

    @Test func recognizersSharingATouchExcludeEachOther() {
        let e = EngineRig(), f = e.fingers
        let v = e.views.add("box", screen)
        let pan = e.add(PanRecognizer(view: v, viewName: "box"))
        let press = e.add(LongPressRecognizer(view: v, viewName: "box"))
        let id = f.down(Point(x: 100, y: 100))[0]
        f.wait(0.6)
        f.move([id: Point(x: 200, y: 100)], over: 0.3)
        f.up()
        #expect(e.states(of: press).first == .began)
        #expect(e.states(of: pan).isEmpty)
        #expect(e.decisions.contains { $0.hasSuffix("pan@box failed: long_press@box began on the same touch, and neither allows both") })
    }

    /// When one recognizer begins, the others on the same touch fail then and there: they are
    /// `.failed` at once, not left possible to be turned down later, and deliver nothing however
    /// far the touch goes on.
    @Test func aBeginFailsTheOthersOnTheTouchAtOnceAndTheyDeliverNothing() {
        let e = EngineRig(trace: false), f = e.fingers
        let v = e.views.add("box", screen)
        let pan = e.add(PanRecognizer(view: v, viewName: "box"))
        let press = e.add(LongPressRecognizer(view: v, viewName: "box"))
        let id = f.down(Point(x: 100, y: 100))[0]
        #expect(pan.state == .possible && press.state == .possible)
        f.wait(0.6)
        #expect(press.state == .began)
        #expect(pan.state == .failed, "excluded when the long press began, before the finger moved")
        f.move([id: Point(x: 300, y: 100)], over: 0.3)
        #expect(pan.state == .failed)
        f.up()
        #expect(e.events(of: pan).isEmpty)
        #expect(e.states(of: press) == [.began] + Array(repeating: .changed, count: e.states(of: press).count - 2) + [.ended])
        #expect(pan.state == .possible, "reset once the touch is over")
    }

    /// A discrete recognizer ends the moment it recognizes, so nothing under way is left to turn
    /// the others away later: they must fail when it recognizes. Here a swipe (10 mm) recognizes
    /// before a pan that needs 30 mm of travel; the pan must not begin when the finger gets there.
    @Test func aRecognizedSwipeFailsAPanThatWouldBeginLaterOnTheSameTouch() {
        let e = EngineRig(trace: false), f = e.fingers
        let v = e.views.add("box", screen)
        var long = PanOptions()
        long.hysteresisMillimetres = 30
        let pan = e.add(PanRecognizer(view: v, viewName: "box", options: long))
        let swipe = e.add(SwipeRecognizer(view: v, viewName: "box"))
        let id = f.down(Point(x: 100, y: 240))[0]
        f.move([id: Point(x: 100 + f.mm(15), y: 240)], over: 0.1)
        #expect(e.states(of: swipe) == [.recognized])
        #expect(pan.state == .failed)
        f.move([id: Point(x: 100 + f.mm(60), y: 240)], over: 0.2)
        f.up()
        #expect(e.events(of: pan).isEmpty, "\(e.log)")
    }

    /// The same touches with simultaneity allowed (a yes from the pan's delegate): the swipe
    /// recognizes and the pan still begins, moves and ends with the finger.
    @Test func whenBothAreAllowedTheOtherGoesOnAfterTheBegin() {
        let e = EngineRig(trace: false), f = e.fingers
        let v = e.views.add("box", screen)
        var long = PanOptions()
        long.hysteresisMillimetres = 30
        let pan = e.add(PanRecognizer(view: v, viewName: "box", options: long))
        let swipe = e.add(SwipeRecognizer(view: v, viewName: "box"))
        let both = TestDelegate()
        both.simultaneousWith = ["swipe@box"]
        pan.delegate = both
        let id = f.down(Point(x: 100, y: 240))[0]
        f.move([id: Point(x: 100 + f.mm(15), y: 240)], over: 0.1)
        #expect(e.states(of: swipe) == [.recognized])
        #expect(pan.state == .possible)
        f.move([id: Point(x: 100 + f.mm(60), y: 240)], over: 0.2)
        f.up()
        let states = e.states(of: pan)
        #expect(states.first == .began && states.last == .ended && states.contains(.changed), "\(e.log)")
        #expect(abs((e.events(of: pan).last?.translation.x ?? 0) - f.mm(60)) < 1e-6)
        withExtendedLifetime(both) {}
    }

    @Test func recognizersWithDisjointTouchesNeverBlockEachOther() {
        let e = EngineRig(), f = e.fingers
        let left = e.views.add("left", Rect(x: 0, y: 0, width: 400, height: 480))
        let right = e.views.add("right", Rect(x: 400, y: 0, width: 400, height: 480))
        let a = e.add(PanRecognizer(view: left, viewName: "left"))
        let b = e.add(PanRecognizer(view: right, viewName: "right"))
        let ids = f.down(Point(x: 100, y: 100), Point(x: 600, y: 100))
        for i in 1...10 {
            f.move([ids[0]: Point(x: 100 + Double(i) * 5, y: 100), ids[1]: Point(x: 600, y: 100 + Double(i) * 5)])
        }
        #expect(e.states(of: a).first == .began)
        #expect(e.states(of: b).first == .began)
        #expect(e.events(of: a).last!.translation == Point(x: 50, y: 0))
        #expect(e.events(of: b).last!.translation == Point(x: 0, y: 50))
    }

    enum Side: CaseIterable { case panSays, pinchSays, nobody }

    @Test(arguments: Side.allCases)
    func aYesFromEitherSideAllowsBothAtOnce(side: Side) {
        let e = EngineRig(), f = e.fingers
        let v = e.views.add("box", screen)
        let pan = e.add(PanRecognizer(view: v, viewName: "box"))
        let pinch = e.add(PinchRecognizer(view: v, viewName: "box"))
        let panDelegate = TestDelegate(), pinchDelegate = TestDelegate()
        pan.delegate = panDelegate
        pinch.delegate = pinchDelegate
        if side == .panSays { panDelegate.simultaneousWith = ["pinch@box"] }
        if side == .pinchSays { pinchDelegate.simultaneousWith = ["pan@box"] }
        // Both fingers travel right while spreading apart: a pan and a pinch.
        let ids = f.down(Point(x: 300, y: 240), Point(x: 400, y: 240))
        for i in 1...10 {
            let d = Double(i)
            f.move([ids[0]: Point(x: 300 + 2 * d, y: 240), ids[1]: Point(x: 400 + 8 * d, y: 240)])
        }
        f.up()
        // The spread passes the pinch's threshold a frame before the travel passes the pan's.
        #expect(e.states(of: pinch).first == .began)
        #expect(e.states(of: pan).first == (side == .nobody ? nil : .began))
        if side == .nobody {
            #expect(e.decisions.contains { $0.hasSuffix("pan@box failed: pinch@box began on the same touch, and neither allows both") })
        } else {
            let by = side == .panSays ? "pan@box" : "pinch@box"
            #expect(e.decisions.contains { $0.hasSuffix("pan@box simultaneous with pinch@box (delegate of \(by) said yes)") })
        }
        withExtendedLifetime((panDelegate, pinchDelegate)) {}
    }

    @Test func shouldBeginFalseFailsAndShouldReceiveFalseHidesTheTouch() {
        let e = EngineRig(), f = e.fingers
        let v = e.views.add("box", screen)
        let pan = e.add(PanRecognizer(view: v, viewName: "box"))
        let tap = e.add(TapRecognizer(view: v, viewName: "box"))
        let refusing = TestDelegate()
        refusing.shouldBegin = false
        pan.delegate = refusing
        let blind = TestDelegate()
        blind.refuseTouches = true
        tap.delegate = blind
        f.drag(from: Point(x: 100, y: 100), to: Point(x: 200, y: 100), over: 0.2)
        f.tap(at: Point(x: 300, y: 300), holding: 0.05)
        #expect(e.states(of: pan).isEmpty)
        #expect(e.states(of: tap).isEmpty)
        #expect(tap.numberOfTouches == 0)
        #expect(e.decisions.contains { $0.hasSuffix("pan@box failed: delegate's gestureRecognizerShouldBegin said no") })
        #expect(e.decisions.contains { $0.hasSuffix("tap@box does not receive touch 2 (delegate: shouldReceive said no)") })
    }

    @Test func touchesReachAncestorsAndTheNearestViewGoesFirst() {
        let e = EngineRig(), f = e.fingers
        let parent = e.views.add("canvas", screen)
        let child = e.views.add("square", Rect(x: 100, y: 100, width: 120, height: 120), parent: parent)
        // Added first, so only the view order can put the child's pan ahead.
        let outer = e.add(PanRecognizer(view: parent, viewName: "canvas"))
        let inner = e.add(PanRecognizer(view: child, viewName: "square"))
        f.drag(from: Point(x: 150, y: 150), to: Point(x: 250, y: 150), over: 0.3)
        #expect(e.states(of: inner).first == .began)
        #expect(e.states(of: outer).isEmpty)
        // Outside the square only the canvas sees the touch.
        f.drag(from: Point(x: 500, y: 400), to: Point(x: 600, y: 400), over: 0.3)
        #expect(e.states(of: outer).first == .began)
    }

    @Test func aCancelledTouchCancelsContinuousGesturesAndFailsTheOthers() {
        let e = EngineRig(), f = e.fingers
        let v = e.views.add("box", screen)
        let pan = e.add(PanRecognizer(view: v, viewName: "box"))
        let press = e.add(LongPressRecognizer(view: v, viewName: "box"))
        let a = f.down(Point(x: 100, y: 100))[0]
        f.move([a: Point(x: 200, y: 100)], over: 0.2)
        f.cancel()
        #expect(e.states(of: pan).last == .cancelled)
        #expect(e.states(of: press).isEmpty)
        #expect(e.decisions.contains { $0.hasSuffix("pan@box cancelled: a touch was cancelled") })
        // The engine can cancel everything itself, as when the device goes away.
        let b = f.down(Point(x: 100, y: 100))[0]
        f.move([b: Point(x: 200, y: 100)], over: 0.2)
        e.engine.cancelAllTouches(at: f.now)
        #expect(e.engine.outputs.contains { if case .gesture(let e) = $0 { e.state == .cancelled } else { false } })
        #expect(pan.state == .possible && pan.numberOfTouches == 0)
    }

    @Test func aRequirementCycleIsAnErrorAtSetup() throws {
        let e = EngineRig()
        let v = e.views.add("box", screen)
        let a = e.add(TapRecognizer(name: "a", view: v, viewName: "box"))
        let b = e.add(TapRecognizer(name: "b", view: v, viewName: "box"))
        let c = e.add(TapRecognizer(name: "c", view: v, viewName: "box"))
        try e.engine.require(a, toFail: b)
        try e.engine.require(b, toFail: c)
        #expect(throws: GestureSetupError.requirementCycle(["c@box", "a@box", "b@box", "c@box"])) {
            try e.engine.require(c, toFail: a)
        }
        #expect(throws: GestureSetupError.requirementCycle(["a@box", "a@box"])) {
            try e.engine.require(a, toFail: a)
        }
    }

    @Test func aCycleThroughDelegatesAtRunTimeDoesNotDeadlock() {
        let e = EngineRig(), f = e.fingers
        let v = e.views.add("box", screen)
        let a = e.add(TapRecognizer(name: "a", view: v, viewName: "box"))
        let b = e.add(LongPressRecognizer(name: "b", view: v, viewName: "box"))
        let da = TestDelegate(), db = TestDelegate()
        da.requiresFailureOf = ["b@box"]
        db.requiresFailureOf = ["a@box"]
        a.delegate = da
        b.delegate = db
        f.down(Point(x: 100, y: 100))
        f.wait(0.6)
        f.up()
        #expect(e.states(of: b).first == .began)
        #expect(e.decisions.contains { $0.hasSuffix("b@box does not wait for a@box: a@box already waits for it (requirement cycle)") } ||
            e.states(of: b).first == .began)
    }

    @Test func aControlKeepsItsStandardGestureFromAncestors() {
        let e = EngineRig(), f = e.fingers
        let canvas = e.views.add("canvas", screen)
        let button = e.views.add("button", Rect(x: 40, y: 396, width: 180, height: 56), parent: canvas)
        e.views.claims[button] = StandardGestures(oneFingerTap: "one-finger tap")
        let tap = e.add(TapRecognizer(view: canvas, viewName: "canvas"))
        let own = e.add(LongPressRecognizer(name: "own", view: button, viewName: "button"))
        f.tap(at: Point(x: 100, y: 420), holding: 0.05)
        #expect(e.states(of: tap).isEmpty)
        f.down(Point(x: 100, y: 420))
        f.wait(0.6)
        f.up()
        #expect(e.states(of: own) == [.began, .ended], "a recognizer on the control itself is not claimed")
        #expect(e.decisions.contains { $0.hasSuffix("tap@canvas failed: button keeps its standard gesture (one-finger tap)") })
        f.tap(at: Point(x: 400, y: 200), holding: 0.05)
        #expect(e.states(of: tap) == [.recognized])
    }

    @Test(arguments: [true, false])
    func aRecognizerThatBeginsCancelsItsTouchesInTheView(cancels: Bool) {
        let e = EngineRig(), f = e.fingers
        let v = e.views.add("box", screen)
        let pan = e.add(PanRecognizer(view: v, viewName: "box"))
        pan.cancelsTouchesInView = cancels
        f.drag(from: Point(x: 100, y: 100), to: Point(x: 200, y: 100), over: 0.2)
        #expect(e.cancelledInView == (cancels ? [TouchID(1)] : []))
    }

    @Test func recordingCostsNothingWhenOff() {
        let e = EngineRig(trace: false), f = e.fingers
        let v = e.views.add("box", screen)
        let pan = e.add(PanRecognizer(view: v, viewName: "box"))
        e.add(TapRecognizer(view: v, viewName: "box"))
        f.drag(from: Point(x: 100, y: 100), to: Point(x: 200, y: 100), over: 0.2)
        #expect(e.states(of: pan).first == .began)
        #expect(e.engine.trace.decisions.isEmpty)
    }

    @Test func moreFingersThanSlotsAreDroppedAndCounted() {
        let e = EngineRig(), f = e.fingers
        let v = e.views.add("box", screen)
        e.add(PanRecognizer(view: v, viewName: "box"))
        for i in 0..<21 { f.down(Point(x: Double(10 + 30 * i), y: 100)) }
        #expect(e.engine.droppedTouchCount == 1)
        f.up()
        #expect(e.engine.unknownTouchCount == 1)
        #expect(e.decisions.contains { $0.hasSuffix("touch 21 dropped: all 20 touch slots in use") })
    }
}
