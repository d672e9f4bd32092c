import Foundation
import KioskCore
import KioskTestSupport
@testable import Runtime
import Testing

/// The fingers on the glass are counted from the touch frames the loop is given, whatever their
/// source: a replay's and a test's frames count as a touchscreen's do.
@Suite("Fingers down, counted from the frames")
struct FingersDownTests {
    @Test func aReloadWaitsForTheFingerOfAFrameDeliveredByHand() throws {
        let live = try LiveLoop()
        // Frames handed to the loop's `process`, nothing else.
        let fingers = Fingers(clock: live.clock, firstFinger: 7, deliver: { live.loop.process($0) })
        let finger = fingers.down(Point(x: 160, y: 190), after: 0.1)
        live.loop.reloadPending = true
        live.clock.advance(by: 0.2)
        live.loop.tick(at: live.clock.now)
        #expect(live.loop.generation == 1, "a finger is down: the reload waits")
        live.loop.statsLine(at: live.clock.now)
        let stats = try #require(live.handler.entries.last { $0.message.description.hasPrefix("stats ") })
        #expect("\(stats.metadata["touches.down"] ?? "")" == "1")

        fingers.up(finger, after: 0.1)
        live.loop.tick(at: live.clock.now)
        #expect(live.loop.generation == 2, "lifted: the reload runs")
    }

    @Test func aTouchIsDownFromItsFirstFrameToTheOneThatEndsIt() {
        var counted = FingersDown()
        let clock = VirtualClock(.zero)
        let fingers = Fingers(clock: clock, firstFinger: 1, deliver: { counted.note($0) })
        let p = Point(x: 1, y: 1)
        let a = fingers.down(p, after: 0)[0]
        // a listed stationary, b began.
        let b = fingers.down(p, after: 0)[0]
        #expect(counted.count == 2)
        fingers.report([a: .move(p), b: .cancel], after: 0)
        #expect(counted.count == 1)
        // Frames of another source (one finger each) do not forget the fingers they do not list.
        let other = Fingers(clock: clock, firstFinger: 9, deliver: { counted.note($0) })
        other.up(other.down(p), after: 0)
        #expect(counted.count == 1)
        fingers.up([a], after: 0)
        #expect(counted.count == 0)
    }
}
