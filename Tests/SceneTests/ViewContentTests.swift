import Gestures
import KioskConfig
import KioskCore
import KioskTestSupport
import Scene
import Testing

/// Each view holds its own kind's state, and only that: a view's content is made from its
/// declaration, and a square's lift is one of three states, never two at once.
@Suite("A view's content is its kind's")
struct ViewContentTests {
    let scene: KioskScene
    let fingers: Fingers

    init() throws {
        let scene = try KioskScene(try KioskConfiguration.load(path: defaultConfigPath).scene)
        self.scene = scene
        fingers = Fingers(clock: VirtualClock(Instant(seconds: 0)), tick: { scene.advance(to: $0) }, deliver: {
            scene.advance(to: $0.time)
            scene.handle($0)
        })
    }

    @Test func everyViewStartsWithItsDeclaredKindsStateAndNoOther() throws {
        let declared = scene.definition.views
        #expect(scene.views.count == declared.count)
        for (i, (v, d)) in zip(scene.views, declared).enumerated() {
            #expect(v.kind == d.kind, "\(d.name)")
            switch v.content {
            case .canvas(let c):
                #expect(c.themeIndex == 0)
            case .square(let s):
                #expect(s.center == d.frame.center && s.side == d.frame.width, "\(d.name)")
                #expect(s.scale == 1 && s.rotation == 0 && s.lift == .resting, "\(d.name)")
                #expect(s.z == i, "squares stack in declaration order: \(d.name)")
            case .button(let b):
                #expect(b.label == d.label && b.taps == 0 && !b.isHighlighted, "\(d.name)")
            case .slider(let s):
                #expect(s.value == d.value, "\(d.name)")
            case .toggle(let t):
                #expect(t.isOn == d.isOn && t.knobTravel == nil && t.slide == nil, "\(d.name)")
            }
            // One kind's state and no other's.
            let held = [v.canvas != nil, v.square != nil, v.button != nil, v.slider != nil, v.toggle != nil]
            #expect(held.filter { $0 }.count == 1, "\(d.name)")
        }
        for kind in ViewKind.allCases {
            #expect(scene.views.contains { $0.kind == kind }, "the default scene shows a \(kind.rawValue)")
        }
    }

    @Test func aSquareRestsIsLiftedThenDropsBackToRest() throws {
        let id = try #require(scene.viewID(named: "yellow"))
        func lift() throws -> SquareLift { try #require(scene.views[id.rawValue].square).lift }
        let finger = fingers.down(Point(x: 160, y: 190))
        #expect(try lift() == .resting)
        fingers.wait(0.7)
        #expect(try lift() == .lifted, "a long press holds the square up")
        #expect(try #require(scene.views[id.rawValue].square).isLifted)
        fingers.up(finger)
        let released = fingers.now
        #expect(try lift() == .dropping(since: released), "released, it settles back")
        #expect(try #require(scene.views[id.rawValue].square).dropStart == released)
        #expect(scene.isAnimating)
        fingers.wait(scene.definition.dropAnimationSeconds)
        #expect(try lift() == .resting)
        #expect(!scene.isAnimating && scene.nextDeadline == nil)
    }

    @Test func aChangeFromOutsideForAnotherKindChangesNothing() throws {
        let before = scene.views
        for (name, change) in [("yellow", ControlChange.value(0.3)), ("slider", .on(true)), ("switch", .press), ("canvas", .label("x"))] {
            #expect(throws: ControlChangeError.self, "\(name)") { try scene.change(name, change, at: fingers.now) }
        }
        #expect(scene.views == before)
    }
}
