import Foundation
import Gestures
import KioskConfig
import KioskCore
import KioskTestSupport
import Scene

/// The repository's default config.
let repositoryRoot = KioskExecutable.repositoryRoot
let defaultConfigPath = KioskExecutable.defaultConfigPath

/// Drives a scene with fingers, a frame every 1/60 s, and lets a callback see every frame.
final class TouchDriver {
    let scene: KioskScene
    private let frames = FrameScript(clock: VirtualClock(Instant(seconds: 10)))
    var clock: VirtualClock { frames.clock }
    var now: Instant { clock.now }
    private var held: [Int: Point] { frames.held }
    /// Called after every frame and every tick of time.
    var onFrame: (KioskScene, Instant) -> Void = { _, _ in }
    static let frame = 1.0 / 60

    init() throws {
        let configuration = try KioskConfiguration.load(path: defaultConfigPath)
        scene = try KioskScene(configuration.scene, recordsEvents: false)
    }

    private func send(_ changes: [Int: (phase: TouchPhase, location: Point)]) {
        clock.advance(by: Self.frame)
        scene.advance(to: now)
        scene.handle(frames.frame(changes))
        onFrame(scene, now)
    }

    func down(_ finger: Int, at p: Point) { send([finger: (.began, p)]) }

    func up(_ fingers: Int...) {
        var changes: [Int: (phase: TouchPhase, location: Point)] = [:]
        for f in fingers { if let p = held[f] { changes[f] = (.ended, p) } }
        send(changes)
    }

    /// Moves each finger along a straight line to its target in `seconds`.
    func move(_ targets: [Int: Point], over seconds: Double) {
        let starts = held
        let steps = max(1, Int((seconds / Self.frame).rounded()))
        for step in 1...steps {
            let t = Double(step) / Double(steps)
            var changes: [Int: (phase: TouchPhase, location: Point)] = [:]
            for (f, to) in targets { if let from = starts[f] { changes[f] = (.moved, from + (to - from) * t) } }
            send(changes)
        }
    }

    /// Lets time pass with the held fingers still.
    func wait(_ seconds: Double) {
        let steps = max(1, Int((seconds / Self.frame).rounded()))
        for _ in 0..<steps {
            clock.advance(by: Self.frame)
            scene.advance(to: now)
            onFrame(scene, now)
        }
    }

    // Intent-named gestures.

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
