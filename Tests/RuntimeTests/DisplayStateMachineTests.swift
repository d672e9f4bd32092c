import Display
import Foundation
import KioskCore
import KioskTestSupport
import Render
@testable import Runtime
import Testing

/// The display's state machine alone: events in, actions out, no display or clock.
@Suite("The display's state machine")
struct DisplayStateMachineTests {
    let t0 = Instant(seconds: 100)

    @Test func aQueuedFlipHoldsTheNextFrameUntilItsEventAndThenTheFrameIsShown() {
        var m = DisplayStateMachine()
        #expect(m.canDraw)
        guard case .none = m.presented(shownAt: nil) else { Issue.record("a queued flip shows nothing yet"); return }
        #expect(!m.canDraw && m.isFlipPending)
        guard case .frameShown(let at) = m.flipDone(at: t0) else { Issue.record("the flip's event shows the frame"); return }
        #expect(at == t0 && m.canDraw)
        guard case .none = m.flipDone(at: t0) else { Issue.record("a second event for the same flip is nothing"); return }
        guard case .frameShown = m.presented(shownAt: t0) else { Issue.record("a frame shown at once is shown"); return }
        #expect(m.canDraw)
    }

    @Test func blankedWhileAFlipIsPendingItWakesStillWaitingForThatFlip() {
        var m = DisplayStateMachine()
        _ = m.presented(shownAt: nil)
        guard case .powerOff = m.blank() else { Issue.record("blanking powers the panel off"); return }
        #expect(m.statusWord == "blank" && !m.canDraw)
        guard case .powerOn = m.wake() else { Issue.record("waking powers it on"); return }
        #expect(!m.canDraw && m.isFlipPending, "the flip queued before blanking is still pending: drawing now would be refused")
        _ = m.flipDone(at: t0)
        #expect(m.canDraw)
    }

    @Test func aLostDisplayIsSaidOnceAndRetriedEveryTwoSecondsUntilItIsBack() {
        var m = DisplayStateMachine()
        guard case .lost(_, true) = m.failed(DisplayError("flip refused"), at: t0) else { Issue.record("said the first time"); return }
        guard case .lost(_, false) = m.failed(DisplayError("flip refused"), at: t0) else { Issue.record("not said again"); return }
        #expect(m.retryDeadline == t0.adding(seconds: 2) && m.statusWord == "down" && !m.canDraw && !m.readsEvents)
        guard case .none = m.tick(at: t0.adding(seconds: 1.9)) else { Issue.record("not before its time"); return }
        guard case .recover = m.tick(at: t0.adding(seconds: 2)) else { Issue.record("retried when due"); return }
        _ = m.recoveryFailed(at: t0.adding(seconds: 2))
        #expect(m.retryDeadline == t0.adding(seconds: 4))
        guard case .drawWhole = m.recovered() else { Issue.record("back: a whole frame"); return }
        #expect(m.canDraw && m.retryDeadline == nil)
    }

    @Test func unpluggedItIsNeitherRetriedNorDrawnUntilPluggedInAgain() {
        var m = DisplayStateMachine()
        guard case .sayUnplugged = m.unplugged() else { Issue.record("said"); return }
        guard case .none = m.unplugged() else { Issue.record("said once"); return }
        guard case .none = m.failed(DisplayError("x"), at: t0) else { Issue.record("no retry while unplugged"); return }
        #expect(m.retryDeadline == nil && !m.canDraw)
        guard case .recover = m.pluggedIn() else { Issue.record("plugged in: taken again"); return }
        var up = DisplayStateMachine()
        guard case .sayStillConnected = up.pluggedIn() else { Issue.record("an event for a display that is up"); return }
    }
}

/// A panel whose page flips complete later, when the test says, as the kernel's events would.
final class FlippingOutput: WrappedOutput {
    let inner: HeadlessDisplay
    private let pipe: [Int32]
    private var done: Instant?
    private(set) var presents = 0

    init(_ inner: HeadlessDisplay) {
        self.inner = inner
        var fds: [Int32] = [0, 0]
        _ = Glibc.pipe(&fds)
        pipe = fds
    }

    deinit { pipe.forEach { close($0) } }

    var summary: String { "flipping " + inner.summary }
    var pollDescriptor: Int32? { pipe[0] }
    func present() throws(DisplayError) -> Instant? {
        presents += 1
        _ = try inner.present()
        return nil
    }
    /// The kernel says the queued flip is done at `time`.
    func flip(at time: Instant) { done = time }
    func handleEvents(_ flipped: (Instant) -> Void) throws(DisplayError) {
        if let t = done { flipped(t) }
        done = nil
    }
    func recover() throws(DisplayError) {}
}

/// The live loop on a panel with real page flips: a frame waits for the flip of the one before,
/// which arrives as an event, and the inputs' latency runs to that flip.
@Suite("The live loop and page flips")
struct PageFlipLoopTests {
    @Test func theNextFrameWaitsForTheFlipEventAndLatencyRunsToIt() throws {
        let clock = VirtualClock()
        let output = FlippingOutput(try HeadlessDisplay(width: 800, height: 480, format: .xrgb8888, clock: clock))
        let run = try LiveLoopRun("flips", clock: clock, output: output)
        run.loop.tick(at: clock.now)
        #expect(output.presents == 1, "the first frame")
        run.drag(from: Point(x: 160, y: 190), by: 10)
        #expect(output.presents == 1, "no frame while the first one's flip is pending")
        #expect(run.loop.stats.latency.totalCount == 0)

        output.flip(at: clock.now)
        run.embedded.run()
        #expect(output.presents == 2, "the flip's event lets the next frame be drawn, with the drag's effect")
        #expect(run.loop.stats.latency.totalCount == 0, "the drag's inputs are in that frame, not yet on the glass")
        clock.advance(by: 0.016)
        output.flip(at: clock.now)
        run.embedded.run()
        #expect(run.loop.stats.latency.totalCount == 12, "each of the drag's 12 inputs measured to the flip that showed it")
    }
}

/// Blanking falls due while the display is down: there is nothing to blank, so no touch may be
/// swallowed as the one that wakes it.
@Suite("The live loop blanking a display that is down")
struct BlankingWhileDownTests {
    @Test func aTouchAfterTheBlankingTimeOfADisplayThatIsDownIsDelivered() throws {
        let clock = VirtualClock()
        let output = FailingOutput(try HeadlessDisplay(width: 800, height: 480, format: .xrgb8888, clock: clock))
        let run = try LiveLoopRun("blank-down", log: "stats_interval = 0\n[display]\nblank_after = 5\n", clock: clock, output: output)
        run.loop.tick(at: clock.now)
        output.isDown = true
        run.drag(from: Point(x: 160, y: 190), by: 2)
        #expect(run.loop.display.statusWord == "down")
        clock.advance(by: 6)
        run.loop.tick(at: clock.now)
        #expect(!run.handler.entries.contains { "\($0.message)".hasPrefix("display blanked") }, "nothing to blank")

        let yellow = try #require(run.loop.scene.viewID(named: "yellow"))
        let before = run.loop.scene.views[yellow.rawValue].center
        run.drag(from: before, by: 10, step: 5)
        #expect(run.loop.scene.views[yellow.rawValue].center.x > before.x + 20, "the drag reached the scene, not swallowed as a wake")
    }
}
