import Display
import Foundation
import KioskConfig
import KioskCore
import KioskTestSupport
@testable import Runtime
import Testing

/// The loop on a paced output whose vblanks it is not told but learns from its page flips' times,
/// as on a real panel through DRM: the simulated refresh is the kernel's side, the grid learned
/// from its flips (`VBlankGrid`) is all the loop knows. Drawn at once until it is learned, then
/// in the repaint window, so that no input waits an extra frame.
@Suite("Latency while the vblanks are learned from page flips")
struct LearnedVBlankTests {
    static let refresh = 1_000_000.0 / 60
    static let window = KioskLoop.repaintWindowMicroseconds
    /// The panel's vblanks fall at no round time on the clock.
    static let kernel = SimulatedVBlank(refreshHz: 60, phaseMicroseconds: 4_321)

    /// The loop stepped at each wake-up and at each flip the kernel completes, as the live loop
    /// wakes for its timer and for the card's flip events.
    final class Stepper {
        let clock: VirtualClock
        let output: HeadlessDisplay
        let loop: KioskLoop
        /// One finger on the loop's clock, each report taken by the loop's input and later stages.
        private(set) var fingers: Fingers!
        private var finger = 0
        var x = 160.0

        init() throws {
            let clock = VirtualClock(Instant(seconds: 100))
            self.clock = clock
            output = try HeadlessDisplay(width: 800, height: 480, format: .xrgb8888, vblank: LearnedVBlankTests.kernel,
                                         learnsVBlanks: true, clock: clock)
            loop = try KioskLoop(replaying: KioskConfiguration.load(path: PacedDisplayTests.configPath), output: output,
                                 traceDecisions: false, recordsEvents: false, clock: clock)
            loop.tick(at: clock.now)
            fingers = Fingers(clock: clock) { [loop] frame in
                loop.process(frame)
                loop.tick(at: frame.time)
            }
            run(until: clock.now.adding(seconds: 0.1))
        }

        /// The flip the kernel has in flight (the truth, not the loop's prediction).
        var kernelFlip: Instant? { output.vblank?.pendingFlip }

        func run(until t: Instant) {
            while true {
                var wake = loop.nextWake()
                if let flip = kernelFlip, wake.map({ flip < $0 }) ?? true { wake = flip }
                guard let wake, wake <= t else { break }
                clock.now = max(clock.now, wake)
                loop.handleDisplayEvents(at: clock.now)
                loop.tick(at: clock.now)
            }
            clock.now = t
        }

        /// The finger put down (`.began`) or moved on a pixel at `t`, the loop run until then first.
        func touch(_ phase: TouchPhase, at t: Instant) {
            run(until: t)
            loop.handleDisplayEvents(at: t)
            if phase == .began {
                finger = fingers.down(Point(x: x, y: 190))[0]
            } else {
                x += 1
                fingers.move([finger: Point(x: x, y: 190)], after: 0)
            }
        }

        /// A finger down on the yellow square and past the pan's slop: every move after this redraws.
        func startDragging() {
            touch(.began, at: clock.now.adding(seconds: 0.001))
            x += 40
            touch(.moved, at: clock.now.adding(seconds: 0.005))
            run(until: clock.now.adding(seconds: 0.05))
            resetStats()
        }

        /// A move every `interval` seconds for `seconds`.
        func drag(every interval: Double, for seconds: Double) {
            let end = clock.now.adding(seconds: seconds)
            while clock.now < end { touch(.moved, at: clock.now.adding(seconds: interval)) }
        }

        func resetStats() { loop.stats = LoopStats(budgets: loop.stats.budgets, start: clock.now) }
        func vblank(after t: Instant) -> Instant { LearnedVBlankTests.kernel.nextVBlank(after: t) }
        var latencies: Int { Int(loop.stats.latency.totalCount) }
        var worst: Int64 { Int64(loop.stats.latency.maxRecorded) }
    }

    @Test func beforeTheVBlanksAreLearnedAnInputDuringAFlipWaitsAnExtraFrame() throws {
        let s = try Stepper()
        s.startDragging()
        #expect(s.output.vblankTiming == .learning)
        let v0 = s.vblank(after: s.clock.now)
        let v1 = s.vblank(after: v0)
        let v2 = s.vblank(after: v1)
        // Drawn at once: its flip is queued for v1 at the input's moment.
        s.touch(.moved, at: v0.adding(seconds: 0.001))
        #expect(s.kernelFlip == v1)
        // This one must wait for that flip, and is shown at v2: a refresh and more.
        let late = v0.adding(seconds: 0.008)
        s.touch(.moved, at: late)
        s.run(until: v2)
        #expect(s.output.lastFlipTime == v2)
        #expect(s.worst >= v2.microseconds - late.microseconds - 16)
        #expect(Double(s.worst) > LearnedVBlankTests.refresh + Double(LearnedVBlankTests.window))
    }

    @Test func afterAFewFlipsTheLoopIsPacedAndNoInputWaitsAnExtraFrame() throws {
        let s = try Stepper()
        s.startDragging()
        // A drag at 128 Hz: its flips teach the grid within a few refreshes.
        let flipsBefore = s.output.flipCount
        var learnedAfter: Int?
        let end = s.clock.now.adding(seconds: 0.5)
        while s.clock.now < end {
            s.touch(.moved, at: s.clock.now.adding(seconds: 1 / 128.0))
            if learnedAfter == nil, case .paced(let hz) = s.output.vblankTiming {
                #expect(abs(hz - 60) < 1e-6)
                learnedAfter = s.output.flipCount - flipsBefore
            }
        }
        let flips = try #require(learnedAfter, "never learned")
        #expect(flips <= VBlankGrid.confirmations + 1)
        // What the loop predicts is the kernel's grid (to the microsecond both round to).
        let now = s.clock.now
        let predicted = try #require(s.output.nextVBlank(after: now))
        #expect(abs(predicted.microseconds - s.vblank(after: now).microseconds) <= 1)

        // From here on: three seconds of the drag, every input shown within one refresh plus the window.
        s.resetStats()
        s.drag(every: 1 / 128.0, for: 3)
        #expect(s.latencies > 300)
        #expect(Double(s.worst) <= LearnedVBlankTests.refresh + Double(LearnedVBlankTests.window) + 50, "worst \(s.worst) µs")

        // The same two inputs that waited an extra frame before: now both make the next vblank.
        s.run(until: s.clock.now.adding(seconds: 0.1))
        let v0 = s.vblank(after: s.clock.now)
        let v1 = s.vblank(after: v0)
        s.resetStats()
        s.touch(.moved, at: v0.adding(seconds: 0.001))
        #expect(s.kernelFlip == nil, "not drawn at once: it waits for the repaint window")
        s.touch(.moved, at: v0.adding(seconds: 0.008))
        s.run(until: v1)
        #expect(s.output.lastFlipTime == v1)
        #expect(s.latencies == 2)
        #expect(s.worst <= v1.microseconds - v0.microseconds - 1_000 + 16)
    }

    @Test func whenTheVBlanksMoveTheGridIsForgottenFramesAreDrawnAtOnceAndItIsLearnedAgain() throws {
        let s = try Stepper()
        s.startDragging()
        s.drag(every: 1 / 128.0, for: 0.3)
        #expect(s.output.learned?.isTrusted == true)
        s.run(until: s.clock.now.adding(seconds: 0.1))
        // The kernel's vblanks start over 7 ms later, as after a mode set the display did not see.
        let moved = LearnedVBlankTests.kernel.phaseMicroseconds + 7_000
        s.output.restartVBlanks(phaseMicroseconds: moved)
        let truth = SimulatedVBlank(refreshHz: 60, phaseMicroseconds: moved)
        // A frame drawn on the old grid: its flip completes at a vblank off it, and the grid is forgotten.
        s.touch(.moved, at: s.clock.now.adding(seconds: 0.003))
        s.run(until: s.clock.now.adding(seconds: 0.04))
        #expect(s.output.vblankTiming == .learning)
        #expect(s.output.nextVBlank(after: s.clock.now) == nil)
        // Meanwhile drawn at once: the flip is in flight as soon as the input came.
        s.touch(.moved, at: s.clock.now.adding(seconds: 0.002))
        #expect(s.kernelFlip != nil)
        // A drag teaches the new grid, and the loop is paced on it.
        s.drag(every: 1 / 128.0, for: 0.3)
        #expect(s.output.learned?.isTrusted == true)
        let predicted = try #require(s.output.nextVBlank(after: s.clock.now))
        #expect(abs(predicted.microseconds - truth.nextVBlank(after: s.clock.now).microseconds) <= 1)
        s.resetStats()
        s.drag(every: 1 / 128.0, for: 1)
        #expect(Double(s.worst) <= LearnedVBlankTests.refresh + Double(LearnedVBlankTests.window) + 50, "worst \(s.worst) µs")
    }
}
