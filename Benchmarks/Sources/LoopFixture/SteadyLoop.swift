import Display
import Foundation
import Gestures
import KioskConfig
import KioskCore
import KioskTestSupport
import Runtime

/// The default scene in a loop with a headless display on a virtual clock, fed a cycle of touch
/// frames built before measuring, one a refresh: `step()` is one steady frame of `kiosk run`.
public class SteadyLoop {
    public let clock = VirtualClock(Instant(seconds: 100))
    public let loop: KioskLoop
    /// The repository's default config, found from this file's place.
    public static let defaultConfig = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("config/kiosk.toml").path
    /// The frames `step()` plays in turn, made before measuring so they cost nothing.
    private let cycle: [TouchFrame]
    private var next = 0

    /// `gesture` (given the loop, to find its views) is recorded with the tests' `Fingers`: its
    /// first report puts the fingers down and is delivered once; the others are the cycle.
    init(config: String, gesture: (KioskLoop, Fingers) -> Void) throws {
        let configuration = try KioskConfiguration.load(path: config)
        let clock = self.clock
        let output = try HeadlessDisplay(width: 800, height: 480, format: .xrgb8888, clock: clock)
        loop = try KioskLoop(replaying: configuration, output: output, traceDecisions: false, recordsEvents: false, clock: clock)
        let loop = self.loop
        let frames = Fingers.frames { gesture(loop, $0) }
        cycle = Array(frames.dropFirst())
        loop.tick(at: clock.now)
        deliver(frames[0])
    }

    /// `frame` a refresh after the last, then the loop's timers and drawing at that time.
    func deliver(_ frame: TouchFrame) {
        var f = frame
        clock.now = clock.now.adding(seconds: 1.0 / 60)
        f.time = clock.now
        loop.process(f)
        loop.tick(at: clock.now)
    }

    /// One frame: the fingers move on along their cycle.
    public func step() {
        deliver(cycle[next])
        next = (next + 1) % cycle.count
    }
}
