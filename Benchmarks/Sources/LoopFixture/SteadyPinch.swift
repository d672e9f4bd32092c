import Display
import Foundation
import Gestures
import KioskConfig
import KioskCore
import Runtime

/// The default scene in a loop with a headless display, two fingers on each square pinching and
/// turning all three at once, back and forth.
public final class SteadyPinch {
    public let clock = VirtualClock(Instant(seconds: 100))
    public let loop: KioskLoop
    private var moves: [TouchFrame] = []
    private var next = 0

    public init(config: String = SteadyDrag.defaultConfig) throws {
        let configuration = try KioskConfiguration.load(path: config)
        let clock = self.clock
        let output = try HeadlessDisplay(width: 800, height: 480, format: .xrgb8888, clock: clock)
        loop = try KioskLoop(replaying: configuration, output: output, traceDecisions: false, recordsEvents: false, clock: clock)
        let centers = loop.scene.views.filter { $0.kind == .square }.map(\.center)
        let d = Point(x: 30, y: 0)
        var down: [Touch] = []
        for (k, c) in centers.enumerated() {
            down.append(Touch(id: TouchID(2 * k + 1), phase: .began, location: c - d))
            down.append(Touch(id: TouchID(2 * k + 2), phase: .began, location: c + d))
        }
        for i in 0..<120 {
            let t = Double(i) / 120 * 2 * Double.pi
            let turned = (d * (1 + 0.15 * (1 - cos(t)))).rotated(by: 0.8 * sin(t))
            var touches: [Touch] = []
            for (k, c) in centers.enumerated() {
                touches.append(Touch(id: TouchID(2 * k + 1), phase: .moved, location: c - turned))
                touches.append(Touch(id: TouchID(2 * k + 2), phase: .moved, location: c + turned))
            }
            moves.append(TouchFrame(time: .zero, touches: touches))
        }
        loop.tick(at: clock.now)
        deliver(TouchFrame(time: .zero, touches: down))
    }

    private func deliver(_ frame: TouchFrame) {
        var f = frame
        clock.now = clock.now.adding(seconds: 1.0 / 60)
        f.time = clock.now
        loop.process(f)
        loop.tick(at: clock.now)
    }

    /// One frame: the fingers move on along their cycle.
    public func step() {
        deliver(moves[next])
        next = (next + 1) % moves.count
    }
}
