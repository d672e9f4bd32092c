import Foundation
import Gestures
import KioskConfig
import KioskCore
import KioskTestSupport
import Scene

/// The repository's default config.
let repositoryRoot = KioskExecutable.repositoryRoot
let defaultConfigPath = KioskExecutable.defaultConfigPath

/// The default scene under the support target's `Fingers`: each report goes to the scene (its
/// timers first), each frame of a `wait` (1/60 s) to its timers, and `onFrame` sees the scene after
/// either, as the display would draw it.
final class FingersOnScene {
    let scene: KioskScene
    private(set) lazy var fingers = Fingers(tickEvery: Fingers.frame,
                                            tick: { [unowned self] now in
                                                self.scene.advance(to: now)
                                                self.onFrame(self.scene, now)
                                            },
                                            deliver: { [unowned self] frame in
                                                self.scene.advance(to: frame.time)
                                                self.scene.handle(frame)
                                                self.onFrame(self.scene, frame.time)
                                            })
    /// Called after every report and every frame of a wait.
    var onFrame: (KioskScene, Instant) -> Void = { _, _ in }
    var now: Instant { fingers.now }

    init() throws {
        let configuration = try KioskConfiguration.load(path: defaultConfigPath)
        scene = try KioskScene(configuration.scene, recordsEvents: false)
    }
}

/// Compatibility only, for the render tests not yet ported to `Fingers` (TransformFrameTests,
/// RGB565DitherTests, GoldenImageTests): their old verbs, each made of `Fingers`' verbs on a
/// `FingersOnScene` with the same frames at the same times as before (every report a frame after
/// the last, fingers named by the test). New tests use `FingersOnScene` and `Fingers` directly.
final class TouchDriver {
    private let on: FingersOnScene
    /// The test's finger names to the `Fingers`' numbers.
    private var numbers: [Int: Int] = [:]
    var scene: KioskScene { on.scene }
    var now: Instant { on.now }
    var onFrame: (KioskScene, Instant) -> Void {
        get { on.onFrame }
        set { on.onFrame = newValue }
    }
    private var fingers: Fingers { on.fingers }

    init() throws { on = try FingersOnScene() }

    func down(_ finger: Int, at p: Point) { numbers[finger] = fingers.down(p, after: Fingers.frame)[0] }

    func up(_ fingers: Int...) {
        self.fingers.up(fingers.compactMap { numbers.removeValue(forKey: $0) })
    }

    /// Moves each finger along a straight line to its target in `seconds`.
    func move(_ targets: [Int: Point], over seconds: Double) {
        let steps = max(1, Int((seconds / Fingers.frame).rounded()))
        fingers.move(Dictionary(uniqueKeysWithValues: targets.compactMap { f, p in numbers[f].map { ($0, p) } }),
                     over: Double(steps) * Fingers.frame)
    }

    func wait(_ seconds: Double) { fingers.wait(seconds) }

    func tap(_ p: Point, finger: Int = 0) {
        down(finger, at: p)
        up(finger)
    }

    func drag(_ finger: Int = 0, from a: Point, to b: Point, over seconds: Double = 0.3) {
        down(finger, at: a)
        move([finger: b], over: seconds)
        up(finger)
    }

    /// Two fingers on a square, spread by `scale` and turned by `angle` about its center.
    func pinchAndRotate(_ center: Point, scale: Double, angle: Double, over seconds: Double = 0.5) {
        let d = Point(x: 30, y: 0)
        down(1, at: center - d)
        down(2, at: center + d)
        let turned = (d * scale).rotated(by: angle)
        move([1: center - turned, 2: center + turned], over: seconds)
        up(1, 2)
    }

    func swipeLeft(at y: Double) {
        down(0, at: Point(x: 700, y: y))
        move([0: Point(x: 250, y: y)], over: 0.12)
        up(0)
    }
}
