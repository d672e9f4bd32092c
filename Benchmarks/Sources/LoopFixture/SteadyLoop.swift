import Display
import Foundation
import Gestures
import KioskConfig
import KioskCore
import Runtime

/// The default scene in a loop with a headless display on a virtual clock, fed a cycle of touch
/// frames built before measuring, one a refresh: `step()` is one steady frame of `kiosk run`.
public class SteadyLoop {
    public let clock = VirtualClock(Instant(seconds: 100))
    public let loop: KioskLoop
    /// The repository's default config, found from this file's place.
    public static let defaultConfig = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("config/kiosk.toml").path
    /// The frames `step()` plays in turn, built before measuring so they cost nothing.
    private let cycle: [TouchFrame]
    private var next = 0

    /// `cycle` is made from the loop's scene (where its views are); `down` puts the fingers down.
    init(config: String, down: (KioskLoop) -> TouchFrame, cycle: (KioskLoop) -> [TouchFrame]) throws {
        let configuration = try KioskConfiguration.load(path: config)
        let clock = self.clock
        let output = try HeadlessDisplay(width: 800, height: 480, format: .xrgb8888, clock: clock)
        loop = try KioskLoop(replaying: configuration, output: output, traceDecisions: false, recordsEvents: false, clock: clock)
        self.cycle = cycle(loop)
        loop.tick(at: clock.now)
        deliver(down(loop))
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
