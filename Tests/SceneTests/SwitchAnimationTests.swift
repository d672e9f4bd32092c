import Gestures
import KioskConfig
import KioskCore
import KioskTestSupport
import Scene
import Testing

/// The switch's knob slides to its new side, eased, as UISwitch's does, instead of jumping.
@Suite("Switch toggle animation")
struct SwitchAnimationTests {
    let scene: KioskScene
    let toggle: ViewID
    var knob: ViewState { scene.views[toggle.rawValue] }

    init() throws {
        scene = try KioskScene(try KioskConfiguration.load(path: defaultConfigPath).scene)
        toggle = try #require(scene.viewID(named: "switch"))
    }

    func tap(_ p: Point, at t: Double) {
        let id = TouchID(Int(t * 1000))
        scene.handle(TouchFrame(time: Instant(seconds: t), touches: [Touch(id: id, phase: .began, location: p)]))
        scene.handle(TouchFrame(time: Instant(seconds: t + 0.05), touches: [Touch(id: id, phase: .ended, location: p)]))
    }

    @Test func aTapSlidesTheKnobEasedToTheOtherSide() throws {
        let off = knob.knobCenter(travel: 0), on = knob.knobCenter(travel: 1)
        #expect(scene.knobCenter(of: toggle, at: Instant(seconds: 0.9)) == off)
        tap(Point(x: 680, y: 424), at: 1)
        #expect(knob.isOn, "the value changes at once")
        #expect(scene.isAnimating)
        #expect(scene.nextDeadline == Instant(seconds: 1.05 + KioskScene.toggleAnimationSeconds))
        let start = Instant(seconds: 1.05)
        #expect(scene.knobCenter(of: toggle, at: start) == off)
        let half = scene.knobCenter(of: toggle, at: start.adding(seconds: KioskScene.toggleAnimationSeconds / 2))
        // Ease-out: three quarters of the way at half the time.
        #expect(abs(half.x - (off.x + 0.75 * (on.x - off.x))) < 1e-9)
        scene.advance(to: start.adding(seconds: KioskScene.toggleAnimationSeconds))
        #expect(!scene.isAnimating)
        #expect(scene.knobCenter(of: toggle, at: start.adding(seconds: 1)) == on)
    }

    @Test func aKnobDraggedPastHalfwaySlidesOnFromWhereItWasLeft() throws {
        let id = TouchID(7)
        let startKnob = knob.knobCenter()
        scene.handle(TouchFrame(time: Instant(seconds: 1), touches: [Touch(id: id, phase: .began, location: startKnob)]))
        for k in 1...10 {
            let p = Point(x: startKnob.x + Double(k) * 4, y: startKnob.y)
            scene.handle(TouchFrame(time: Instant(seconds: 1 + Double(k) / 60), touches: [Touch(id: id, phase: .moved, location: p)]))
        }
        let travel = try #require(knob.knobTravel)
        #expect(travel > 0.5 && travel < 1)
        let end = Instant(seconds: 1.3)
        scene.handle(TouchFrame(time: end, touches: [Touch(id: id, phase: .ended, location: Point(x: startKnob.x + 40, y: startKnob.y))]))
        #expect(knob.isOn)
        #expect(abs(scene.knobCenter(of: toggle, at: end).x - knob.knobCenter(travel: travel).x) < 1e-9, "no jump back to the start")
        #expect(knob.toggleFrom == travel)
    }
}

extension SwitchAnimationTests {
    @Test func aSecondTapMidSlideTurnsTheKnobBackFromWhereItIsDrawn() throws {
        tap(Point(x: 680, y: 424), at: 1)
        let mid = Instant(seconds: 1.05 + KioskScene.toggleAnimationSeconds / 2)
        let drawn = scene.knobCenter(of: toggle, at: mid)
        let id = TouchID(99)
        scene.handle(TouchFrame(time: mid.adding(seconds: -0.05), touches: [Touch(id: id, phase: .began, location: Point(x: 680, y: 424))]))
        scene.handle(TouchFrame(time: mid, touches: [Touch(id: id, phase: .ended, location: Point(x: 680, y: 424))]))
        #expect(!knob.isOn)
        #expect(abs(scene.knobCenter(of: toggle, at: mid).x - drawn.x) < 1e-9, "no jump to the far side before sliding back")
    }
}
