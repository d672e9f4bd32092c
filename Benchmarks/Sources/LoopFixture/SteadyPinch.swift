import Foundation
import KioskCore
import KioskTestSupport
import Runtime

/// Two fingers on each square pinching and turning all three at once, back and forth.
public final class SteadyPinch: SteadyLoop {
    public init(config: String = SteadyLoop.defaultConfig) throws {
        try super.init(config: config) { loop, fingers in
            // Each square's two fingers start 60 px apart across its center, all put down in one report.
            let centers = loop.scene.views.compactMap(\.square).map(\.center)
            let d = Point(x: 30, y: 0)
            let down = fingers.report(down: centers.flatMap { [$0 - d, $0 + d] })
            for i in 0..<120 {
                let t = Double(i) / 120 * 2 * Double.pi
                let turned = (d * (1 + 0.15 * (1 - cos(t)))).rotated(by: 0.8 * sin(t))
                var moves: [Int: Point] = [:]
                for (k, c) in centers.enumerated() {
                    moves[down[2 * k]] = c - turned
                    moves[down[2 * k + 1]] = c + turned
                }
                fingers.move(moves)
            }
        }
    }
}
