import Foundation
import KioskCore
import Runtime

/// Two fingers on each square pinching and turning all three at once, back and forth.
public final class SteadyPinch: SteadyLoop {
    public init(config: String = SteadyLoop.defaultConfig) throws {
        // Each square's two fingers start 60 px apart across its center.
        let d = Point(x: 30, y: 0)
        func centers(_ loop: KioskLoop) -> [Point] { loop.scene.views.filter { $0.kind == .square }.map(\.center) }
        func touches(_ loop: KioskLoop, _ phase: TouchPhase, _ arm: Point) -> TouchFrame {
            var touches: [Touch] = []
            for (k, c) in centers(loop).enumerated() {
                touches.append(Touch(id: TouchID(2 * k + 1), phase: phase, location: c - arm))
                touches.append(Touch(id: TouchID(2 * k + 2), phase: phase, location: c + arm))
            }
            return TouchFrame(time: .zero, touches: touches)
        }
        try super.init(config: config, down: { touches($0, .began, d) }, cycle: { loop in
            (0..<120).map { i in
                let t = Double(i) / 120 * 2 * Double.pi
                return touches(loop, .moved, (d * (1 + 0.15 * (1 - cos(t)))).rotated(by: 0.8 * sin(t)))
            }
        })
    }
}
