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
    let fingers: Fingers
    var knob: ViewState { scene.views[toggle.rawValue] }

    init() throws {
        let scene = try KioskScene(try KioskConfiguration.load(path: defaultConfigPath).scene)
        self.scene = scene
        toggle = try #require(scene.viewID(named: "switch"))
        fingers = Fingers(clock: VirtualClock(Instant(seconds: 0)), deliver: { scene.handle($0) })
    }

    /// A finger down at `p` at `t` seconds, lifted 0.05 s later.
    func tap(_ p: Point, at t: Double) {
        fingers.clock.now = Instant(seconds: t)
        fingers.up(fingers.down(p), after: 0.05)
    }

    @Test func aTapSlidesTheKnobEasedToTheOtherSide() throws {
        let off = knob.knobCenter(travel: 0), on = knob.knobCenter(travel: 1)
        #expect(scene.knobCenter(of: toggle, at: Instant(seconds: 0.9)) == off)
        tap(Point(x: 680, y: 424), at: 1)
        #expect(knob.toggle?.isOn == true, "the value changes at once")
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
        let startKnob = knob.knobCenter()
        fingers.clock.now = Instant(seconds: 1)
        let finger = fingers.down(startKnob)
        // 40 points to the right, 4 a frame.
        fingers.move([finger[0]: startKnob + Point(x: 40, y: 0)], over: 10 * Fingers.frame)
        let travel = try #require(knob.toggle?.knobTravel)
        #expect(travel > 0.5 && travel < 1)
        let end = Instant(seconds: 1.3)
        fingers.clock.now = end
        fingers.up(finger, after: 0)
        #expect(knob.toggle?.isOn == true)
        #expect(abs(scene.knobCenter(of: toggle, at: end).x - knob.knobCenter(travel: travel).x) < 1e-9, "no jump back to the start")
        #expect(knob.toggle?.slide?.from == travel)
    }
}

extension SwitchAnimationTests {
    @Test func aSecondTapMidSlideTurnsTheKnobBackFromWhereItIsDrawn() throws {
        tap(Point(x: 680, y: 424), at: 1)
        let mid = Instant(seconds: 1.05 + KioskScene.toggleAnimationSeconds / 2)
        let drawn = scene.knobCenter(of: toggle, at: mid)
        fingers.clock.now = mid.adding(seconds: -0.05)
        fingers.up(fingers.down(Point(x: 680, y: 424)), after: 0.05)
        #expect(knob.toggle?.isOn == false)
        #expect(abs(scene.knobCenter(of: toggle, at: mid).x - drawn.x) < 1e-9, "no jump to the far side before sliding back")
    }
}
