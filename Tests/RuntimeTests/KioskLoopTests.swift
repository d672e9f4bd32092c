import Display
import Foundation
import Gestures
import KioskConfig
import KioskCore
import KioskTestSupport
import Render
@testable import Runtime
import KioskLog
import Scene
import Testing

/// The kiosk loop stepped by hand on a virtual clock, drawing into a headless display.
@Suite("The kiosk loop on a virtual clock")
struct KioskLoopTests {
    static let configPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("config/kiosk.toml").path

    /// The loop on the default scene; `output` (default: an 800x480 headless display) reads `clock`.
    final class Harness {
        let clock: VirtualClock
        let loop: KioskLoop
        let output: any FrameOutput
        /// Fingers on the loop: each report goes to `process`, then the loop ticks at its time.
        private(set) lazy var fingers = Fingers(clock: clock, firstFinger: 1, deliver: { [unowned self] frame in
            self.loop.process(frame)
            self.loop.tick(at: frame.time)
        })

        init(clock: VirtualClock = VirtualClock(), output given: (any FrameOutput)? = nil) throws {
            let configuration = try KioskConfiguration.load(path: KioskLoopTests.configPath)
            self.clock = clock
            output = try given ?? HeadlessDisplay(width: 800, height: 480, format: .xrgb8888, clock: clock)
            loop = try KioskLoop(replaying: configuration, output: output, traceDecisions: false, recordsEvents: false, clock: clock)
            loop.tick(at: clock.now)
        }
    }

    @Test func theFirstFrameIsTheWholeSceneAndAnIdleLoopDrawsNothingMore() throws {
        let h = try Harness()
        #expect(h.output.flipCount == 1)
        let expected = try PixelBuffer(width: 800, height: 480)
        try SceneRenderer().draw(scene: h.loop.scene, at: h.clock.now, into: expected)
        #expect(memcmp(expected.bytes, h.loop.shadow.bytes, expected.stride * 480) == 0)
        #expect(h.loop.nextWake() == nil, "nothing pending: the loop sleeps")
        h.loop.tick(at: h.clock.now.adding(seconds: 5))
        #expect(h.output.flipCount == 1, "no change, no frame")
    }

    @Test func aRestingFingerDrawsNothing() throws {
        let h = try Harness()
        let finger = h.fingers.down(Point(x: 160, y: 190), after: Fingers.frame)
        for i in 1...20 { h.fingers.move([finger[0]: Point(x: 160 + Double(i) * 3, y: 190)]) }
        let flips = h.output.flipCount
        #expect(flips > 10, "a drag draws frames")
        // Reports in which nothing changed: the finger is listed, stationary.
        for _ in 0..<10 { h.fingers.report(after: Fingers.frame) }
        #expect(h.output.flipCount == flips, "a finger at rest changes nothing on screen")
    }
}

/// A display that fails as a real one can: a page flip refused (DRM master taken by another
/// process, a VT switch) or the cable pulled; the real kernel in the VM cannot be made to do it.
final class FailingOutput: WrappedOutput {
    let inner: HeadlessDisplay
    /// While true, every present fails and recovery is refused.
    var isDown = false
    private(set) var failedPresents = 0
    private(set) var recoveries = 0

    init(_ inner: HeadlessDisplay) { self.inner = inner }

    var summary: String { "failing " + inner.summary }
    func present() throws(DisplayError) -> Instant? {
        if isDown {
            failedPresents += 1
            throw DisplayError(card: "card0", SystemCallError(call: "drmModePageFlip", subject: "Virtual-1", errno: Errno(rawValue: EACCES)))
        }
        return try inner.present()
    }
    func recover() throws(DisplayError) {
        guard !isDown else { throw DisplayError.masterRefused(card: "card0", errno: EBUSY, again: true) }
        recoveries += 1
    }
}

@Suite("The kiosk loop when the display fails")
struct DisplayFaultTests {
    @Test func inputGoesOnWhileTheDisplayIsDownAndAWholeFrameIsDrawnWhenItIsBack() throws {
        let clock = VirtualClock()
        let output = FailingOutput(try HeadlessDisplay(width: 800, height: 480, format: .xrgb8888, clock: clock))
        let h = try KioskLoopTests.Harness(clock: clock, output: output)
        let loop = h.loop
        #expect(output.flipCount == 1)

        // The display goes; a finger drags yellow meanwhile.
        output.isDown = true
        let finger = h.fingers.down(Point(x: 160, y: 190), after: Fingers.frame)
        for i in 1...30 { h.fingers.move([finger[0]: Point(x: 160 + Double(i) * 4, y: 190)]) }
        h.fingers.up(finger)
        #expect(output.failedPresents == 1, "one failure, then it waits for the retry instead of hammering the card")
        let yellow = try #require(loop.scene.viewID(named: "yellow"))
        #expect(try #require(loop.scene.views[yellow.rawValue].square).center.x > 270, "the scene went on without a display")
        #expect(output.flipCount == 1)
        #expect(loop.nextWake() != nil, "a retry is scheduled")

        // Still down at the first retry; back at the next.
        clock.now = clock.now.adding(seconds: 2.1)
        loop.tick(at: clock.now)
        #expect(output.recoveries == 0)
        output.isDown = false
        clock.now = clock.now.adding(seconds: 2.1)
        loop.tick(at: clock.now)
        #expect(output.recoveries == 1)
        #expect(output.flipCount == 2)
        // What is on screen is the whole scene as it is now, not only what moved last.
        let expected = try PixelBuffer(width: 800, height: 480)
        try SceneRenderer().draw(scene: loop.scene, at: clock.now, into: expected)
        #expect(memcmp(expected.bytes, output.inner.screen.bytes, expected.stride * 480) == 0)
    }
}

/// `kiosk run --log-level debug`: the gesture decision trace and the scene's events go to the log.
@Suite("The live loop's log")
struct LiveLoopLogTests {
    @Test func atDebugEveryGestureDecisionIsLogged() throws {
        let run = try LiveLoopRun("loop-log")
        run.drag(from: Point(x: 160, y: 190), by: 10, step: 5)
        let messages = run.handler.entries.map { "\($0.level) \($0.message)" }
        #expect(messages.contains { $0.hasPrefix("debug gesture ") && $0.contains("pan@yellow began") }, "\(messages)")
        #expect(messages.contains { $0.hasPrefix("debug gesture ") && $0.contains("tap@yellow failed") }, "\(messages)")
        #expect(messages.contains { $0.hasPrefix("debug scene ") && $0.contains("\"view\": \"yellow\"") }, "\(messages)")
        #expect(messages.contains { $0.hasPrefix("warning no touchscreen yet") }, "\(messages)")
    }
}
