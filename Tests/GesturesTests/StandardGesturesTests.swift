import KioskCore
import Testing
@testable import Gestures

/// What a control keeps for itself, said when its touch lands, and the touches the engine reports begun.
@Suite struct StandardGesturesTests {
    private let knob = Rect(x: 300, y: 380, width: 200, height: 60)

    @Test func theEngineSaysWhichViewEachTouchBeganOn() {
        let e = EngineRig(), f = e.fingers
        let canvas = e.views.add("canvas", screen)
        let button = e.views.add("button", knob, parent: canvas)
        f.down(Point(x: 400, y: 400), Point(x: 100, y: 100))
        #expect(e.began.map(\.touch) == [TouchID(1), TouchID(2)])
        #expect(e.began.map(\.view) == [button, canvas])
        f.up()
        f.down(Point(x: 900, y: 100))
        #expect(e.began.count == 2, "a touch off every view began on none")
    }

    @Test(arguments: [true, false])
    func aKnobKeepsAMovementAlongItsTrack(alongTrack: Bool) {
        let e = EngineRig(), f = e.fingers
        let canvas = e.views.add("canvas", screen)
        let slider = e.views.add("slider", knob, parent: canvas)
        e.views.claims[slider] = StandardGestures(oneFingerMovementAlongX: "one-finger swipe along the slider on its knob")
        let pan = e.add(PanRecognizer(view: canvas, viewName: "canvas"))
        let end = alongTrack ? Point(x: 480, y: 410) : Point(x: 400, y: 300)
        f.drag(from: Point(x: 400, y: 410), to: end, over: 0.2)
        if alongTrack {
            #expect(e.states(of: pan).isEmpty)
            #expect(e.decisions.contains { $0.hasSuffix("pan@canvas failed: slider keeps its standard gesture (one-finger swipe along the slider on its knob)") })
        } else {
            #expect(e.states(of: pan).first == .began, "a movement across the track is not the knob's")
        }
    }

    @Test func aKnobGivesUpItsMovementOnceARecognizerTookTheTouch() {
        let e = EngineRig(), f = e.fingers
        let canvas = e.views.add("canvas", screen)
        let slider = e.views.add("slider", knob, parent: canvas)
        e.views.claims[slider] = StandardGestures(oneFingerMovementAlongX: "one-finger swipe along the slider on its knob")
        let press = e.add(LongPressRecognizer(name: "hold", view: canvas, viewName: "canvas"))
        let pan = e.add(PanRecognizer(view: canvas, viewName: "canvas"))
        let delegate = TestDelegate()
        delegate.simultaneousWith = ["hold@canvas"]
        pan.delegate = delegate
        let id = f.down(Point(x: 400, y: 410))[0]
        f.wait(0.6)
        #expect(e.states(of: press) == [.began])
        #expect(e.cancelledInView == [TouchID(id)])
        f.move([id: Point(x: 480, y: 410)], over: 0.2)
        #expect(e.states(of: pan).first == .began, "the control no longer has the touch, so it keeps nothing")
        f.up()
    }
}
