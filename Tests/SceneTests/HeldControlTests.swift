import Gestures
import KioskConfig
import KioskCore
import KioskTestSupport
import Scene
import Testing

/// Issue 21, part 7: a change from outside (the socket's or MQTT's `set`, both through
/// `KioskScene.change`) never fights a finger: while one holds the control, it is refused and
/// changes nothing; once the finger lifts, the same change is taken.
@Suite("A set on a control a finger holds")
struct HeldControlTests {
    @Test(arguments: [("slider", ControlChange.value(0.9)), ("switch", ControlChange.on(true))])
    func aSetOnAHeldControlIsRefusedAndChangesNothing(view: String, change: ControlChange) throws {
        let scene = try KioskScene(try KioskConfiguration.load(path: defaultConfigPath).scene)
        let id = try #require(scene.viewID(named: view))
        let fingers = Fingers(clock: VirtualClock(Instant(seconds: 1)), deliver: { scene.handle($0) })
        let finger = fingers.down(scene.views[id.rawValue].knobCenter())
        fingers.wait(0.1)
        let held = scene.views[id.rawValue]
        scene.removeAllEvents()
        #expect(throws: ControlChangeError("\(held.kind.rawValue) '\(view)' is held by a finger; try again when it lifts")) {
            try scene.change(view, change, at: fingers.now)
        }
        #expect(scene.views[id.rawValue] == held, "nothing of the control changed")
        #expect(scene.events.isEmpty, "no event: \(scene.events)")
        fingers.up(finger)
        try scene.change(view, change, at: fingers.now)
        switch change {
        case .value(let value): #expect(scene.views[id.rawValue].slider?.value == value, "taken once the finger lifted")
        case .on(let on): #expect(scene.views[id.rawValue].toggle?.isOn == on, "taken once the finger lifted")
        default: Issue.record("not a slider's or a switch's change")
        }
    }
}
