import Display
import Foundation
import InputEvents
import KioskConfig
import KioskCore
import KioskTestSupport
@testable import Runtime
import Testing

/// The loop on a display with a refresh (vblanks on the virtual clock): when it draws, and how long
/// an input waits for the flip that shows it.
@Suite("Latency on a paced display")
struct PacedDisplayTests {
    static let configPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("config/kiosk.toml").path
    static let refresh = 1000.0 / 60
    static let window = Double(KioskLoop.repaintWindowMicroseconds) / 1000

    /// A finger dragging the yellow square, a report every `interval` seconds, from a start that is
    /// no vblank's.
    func drag(every interval: Double, for seconds: Double) -> EvemuTrace {
        let fingers = Fingers(panel: SyntheticTouchscreen.ft5406, clock: VirtualClock(Instant(seconds: 10.003_141)))
        let finger = fingers.down(Point(x: 160, y: 190))
        var k = 0
        while Double(k) * interval < seconds {
            k += 1
            fingers.move([finger[0]: Point(x: 160 + Double(k % 200), y: 190 + Double(k % 7))], after: interval)
        }
        fingers.up(finger, after: interval)
        return fingers.trace
    }

    func latency(_ trace: EvemuTrace) throws -> LatencyReport {
        let replay = try Replay(trace: trace, configuration: KioskConfiguration.load(path: Self.configPath), traceDecisions: false,
                                vblank: SimulatedVBlank(refreshHz: 60))
        return try #require(replay.latency)
    }

    @Test func reportsAtAboutTheRefreshRateAreShownWithinOneRefresh() throws {
        // 59 Hz: the reports drift through every phase of the vblank.
        let l = try latency(drag(every: 1 / 59.0, for: 3))
        #expect(l.inputs > 150)
        #expect(l.maxMilliseconds <= Self.refresh + 0.05, "\(l)")
        // Unsynchronised: on average half a refresh.
        #expect(l.p50Milliseconds > 5 && l.p50Milliseconds < 12, "\(l)")
    }

    @Test(arguments: [1 / 128.0, 1 / 100.0, 1 / 240.0])
    func reportsFasterThanTheRefreshJoinTheComingFrame(interval: Double) throws {
        // Drawn at the first report, each frame's flip would make the reports after it wait a
        // whole extra refresh (up to 25 ms at 128 Hz): drawn late in the refresh, they join it.
        let l = try latency(drag(every: interval, for: 3))
        #expect(l.inputs > 250)
        #expect(l.maxMilliseconds <= Self.refresh + Self.window + 0.05, "\(l)")
    }

    /// The loop stepped by hand: every wake-up and flip at its own time.
    final class Stepper {
        let clock: VirtualClock
        let output: HeadlessDisplay
        let loop: KioskLoop
        /// One finger, down from `startDragging`.
        private var finger = 0
        /// Fingers on the loop: each report goes to `process` after the display's events, then the loop ticks.
        private(set) lazy var fingers = Fingers(clock: clock, firstFinger: 1, deliver: { [unowned self] frame in
            self.loop.handleDisplayEvents(at: frame.time)
            self.loop.process(frame)
            self.loop.tick(at: frame.time)
        })

        init() throws {
            let clock = VirtualClock(Instant(seconds: 100))
            self.clock = clock
            output = try HeadlessDisplay(width: 800, height: 480, format: .xrgb8888, vblank: SimulatedVBlank(refreshHz: 60), clock: clock)
            loop = try KioskLoop(replaying: KioskConfiguration.load(path: PacedDisplayTests.configPath), output: output,
                                 traceDecisions: false, recordsEvents: false, clock: clock)
            loop.tick(at: clock.now)
            run(until: clock.now.adding(seconds: 0.1))
        }

        /// Wakes the loop at each of its wake-ups and flips up to `t`, as the live loop would.
        func run(until t: Instant) {
            while true {
                var wake = loop.nextWake()
                if let flip = output.flipCompletion, wake.map({ flip < $0 }) ?? true { wake = flip }
                guard let wake, wake <= t else { break }
                clock.now = max(clock.now, wake)
                loop.handleDisplayEvents(at: clock.now)
                loop.tick(at: clock.now)
            }
            clock.now = t
        }

        /// The finger moved to `x` at `t`, the loop woken for everything due before.
        func move(x: Double, at t: Instant) {
            run(until: t)
            fingers.move([finger: Point(x: x, y: 190)], after: 0)
        }

        /// A finger down on the yellow square and past the pan's slop: every move after this redraws.
        func startDragging() {
            run(until: clock.now.adding(seconds: 0.001))
            finger = fingers.down(Point(x: 160, y: 190))[0]
            move(x: 200, at: clock.now.adding(seconds: 0.005))
            run(until: clock.now.adding(seconds: 0.1))
            loop.stats = LoopStats(budgets: loop.stats.budgets, start: clock.now)
        }

        func vblank(after t: Instant) -> Instant { SimulatedVBlank(refreshHz: 60).nextVBlank(after: t) }
        var latencies: Int { Int(loop.stats.latency.totalCount) }
        var worst: Int64 { Int64(loop.stats.latency.maxRecorded) }
    }

    @Test func anInputIsShownAtTheVBlankAfterItAndNeverLater() throws {
        let s = try Stepper()
        s.startDragging()
        let v0 = s.vblank(after: s.clock.now)
        let first = v0.adding(seconds: 0.003)
        s.move(x: 210, at: first)
        let v1 = s.vblank(after: s.clock.now)
        // Not drawn at once: a report later in this refresh must not wait on this frame's flip.
        #expect((s.output.flipCompletion != nil) == false)
        #expect(s.loop.nextWake() == Instant(microseconds: v1.microseconds - KioskLoop.repaintWindowMicroseconds))
        // A second report before the repaint window joins the same frame.
        s.move(x: 220, at: v0.adding(seconds: 0.010))
        let flipsBefore = s.output.flipCount
        s.run(until: v1)
        #expect(s.output.flipCount == flipsBefore + 1)
        #expect(s.output.lastFlipTime == v1)
        #expect(s.latencies == 2)
        // The histogram keeps three significant digits: 16 µs at this size.
        #expect(abs(s.worst - (v1.microseconds - first.microseconds)) <= 16)

        // A report inside the window with nothing in flight: drawn at once, in time for the vblank.
        let v2 = s.vblank(after: v1)
        s.move(x: 230, at: v2.adding(seconds: -0.0015))
        #expect((s.output.flipCompletion != nil))
        s.run(until: v2)
        #expect(s.output.lastFlipTime == v2)
        #expect(s.latencies == 3)

        // Nothing moving: no wake-up, no flip.
        let flips = s.output.flipCount
        s.run(until: v2.adding(seconds: 1))
        #expect(s.output.flipCount == flips)
    }

    @Test func anInputDuringAFlipInFlightIsShownAtTheVBlankAfterIt() throws {
        let s = try Stepper()
        s.startDragging()
        let v0 = s.vblank(after: s.clock.now)
        let v1 = s.vblank(after: v0)
        s.move(x: 210, at: v0.adding(seconds: 0.001))
        // That frame is drawn at the repaint window; its flip is in flight when this one comes.
        let late = Instant(microseconds: v1.microseconds - 1_000)
        s.move(x: 220, at: late)
        #expect((s.output.flipCompletion != nil))
        let v2 = s.vblank(after: v1)
        s.run(until: v1)
        #expect(s.output.lastFlipTime == v1)
        s.run(until: v2)
        #expect(s.output.lastFlipTime == v2)
        #expect(s.latencies == 2)
        #expect(abs(s.worst - (v2.microseconds - late.microseconds)) <= 16)
        #expect(Double(s.worst) / 1000 <= PacedDisplayTests.refresh + PacedDisplayTests.window)
    }
}
