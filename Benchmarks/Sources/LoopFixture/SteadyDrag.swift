import Display
import Foundation
import Gestures
import KioskConfig
import KioskCore
import Runtime

/// The default scene in a loop with a headless display, a finger already down on yellow.
public final class SteadyDrag {
    public let clock = VirtualClock(Instant(seconds: 100))
    public let loop: KioskLoop
    /// The repository's default config, found from this file's place.
    public static let defaultConfig = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("config/kiosk.toml").path
    /// A back-and-forth path, built before measuring so the frames themselves cost nothing.
    private var moves: [TouchFrame] = []
    private var resting: TouchFrame
    private var next = 0

    public init(config: String = SteadyDrag.defaultConfig) throws {
        let configuration = try KioskConfiguration.load(path: config)
        let clock = self.clock
        let output = try HeadlessDisplay(width: 800, height: 480, format: .xrgb8888, clock: clock)
        loop = try KioskLoop(replaying: configuration, output: output, traceDecisions: false, recordsEvents: false, clock: clock)
        let id = TouchID(1)
        for i in 0..<240 {
            let t = Double(i < 120 ? i : 240 - i)
            moves.append(TouchFrame(time: .zero, touches: [Touch(id: id, phase: .moved, location: Point(x: 160 + t, y: 190 + t / 2))]))
        }
        resting = TouchFrame(time: .zero, touches: [Touch(id: id, phase: .stationary, location: Point(x: 160, y: 190))])
        loop.tick(at: clock.now)
        deliver(TouchFrame(time: .zero, touches: [Touch(id: id, phase: .began, location: Point(x: 160, y: 190))]))
    }

    private func deliver(_ frame: TouchFrame) {
        var f = frame
        clock.now = clock.now.adding(seconds: 1.0 / 60)
        f.time = clock.now
        loop.process(f)
        loop.tick(at: clock.now)
    }

    /// One frame: the finger moves on along its back-and-forth path.
    public func step() {
        deliver(moves[next])
        next = (next + 1) % moves.count
    }

    /// One frame: the finger stays where it is.
    public func rest() { deliver(resting) }
}
