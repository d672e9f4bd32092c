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
        let finger = TouchID(7)
        let p = Point(x: 160, y: 190)
        live.clock.advance(by: 0.1)
        live.loop.process(TouchFrame(time: live.clock.now, touches: [Touch(id: finger, phase: .began, location: p)]))
        live.loop.reloadPending = true
        live.clock.advance(by: 0.2)
        live.loop.tick(at: live.clock.now)
        #expect(live.loop.generation == 1, "a finger is down: the reload waits")
        live.loop.statsLine(at: live.clock.now)
        let stats = try #require(live.handler.entries.last { $0.message.description.hasPrefix("stats ") })
        #expect("\(stats.metadata["touches.down"] ?? "")" == "1")

        live.clock.advance(by: 0.1)
        live.loop.process(TouchFrame(time: live.clock.now, touches: [Touch(id: finger, phase: .ended, location: p)]))
        live.loop.tick(at: live.clock.now)
        #expect(live.loop.generation == 2, "lifted: the reload runs")
    }

    @Test func aTouchIsDownFromItsFirstFrameToTheOneThatEndsIt() {
        var fingers = FingersDown()
        let a = TouchID(1), b = TouchID(2)
        let p = Point(x: 1, y: 1)
        fingers.note(TouchFrame(time: .zero, touches: [Touch(id: a, phase: .began, location: p)]))
        fingers.note(TouchFrame(time: .zero, touches: [Touch(id: a, phase: .stationary, location: p), Touch(id: b, phase: .began, location: p)]))
        #expect(fingers.count == 2)
        fingers.note(TouchFrame(time: .zero, touches: [Touch(id: a, phase: .moved, location: p), Touch(id: b, phase: .cancelled, location: p)]))
        #expect(fingers.count == 1)
        // Frames of another source (one finger each) do not forget the fingers they do not list.
        fingers.note(TouchFrame(time: .zero, touches: [Touch(id: TouchID(9), phase: .began, location: p)]))
        fingers.note(TouchFrame(time: .zero, touches: [Touch(id: TouchID(9), phase: .ended, location: p)]))
        #expect(fingers.count == 1)
        fingers.note(TouchFrame(time: .zero, touches: [Touch(id: a, phase: .ended, location: p)]))
        #expect(fingers.count == 0)
    }
}
