import Foundation
import KioskCore
import KioskTestSupport
@testable import Runtime
import Scene
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// An extension with timers and, when given one, a pipe to read: what the loop woke it for.
final class TimerExtension: LoopExtension {
    /// Moments it asked to be woken at, earliest first.
    var deadlines: [Instant] = []
    /// The clock each time a deadline was reached, one entry per deadline.
    var fired: [Instant] = []
    /// The clock at each wake-up that served it.
    var served: [Instant] = []
    /// Asked for once a deadline fires: the next one, set from inside the wake-up.
    var then: ((Instant) -> Instant?)?
    var readFrom: Int32 = -1
    var bytesRead = 0

    func appendPollDescriptors(to fds: inout [pollfd]) {
        if readFrom >= 0 { fds.append(pollfd(fd: readFrom, events: Int16(POLLIN), revents: 0)) }
    }
    func service(_ ready: UnsafeBufferPointer<pollfd>, now: Instant, target: CommandTarget) {
        served.append(now)
        if ready.contains(where: { $0.fd == readFrom && $0.revents & Int16(POLLIN) != 0 }) {
            var byte: UInt8 = 0
            while read(readFrom, &byte, 1) == 1 { bytesRead += 1 }
        }
        while let due = deadlines.first, due <= now {
            deadlines.removeFirst()
            fired.append(now)
            if let next = then?(due) { deadlines.append(next) }
        }
    }
    var nextDeadline: Instant? { deadlines.first }
    func publish(_ events: ArraySlice<SceneEvent>, source: ChangeSource, scene: KioskScene, now: Instant) {}
    func stop(now: Instant) {}
}

/// The loop on a virtual clock (Runtime/Live/EmbeddedLoop.swift), as swift-nio's EmbeddedEventLoop:
/// `run()` is one wake-up now, `advanceTime` wakes it at each moment it asked for on the way.
@Suite("The embedded loop: virtual time, real descriptors")
final class EmbeddedLoopTests {
    let run: LiveLoopRun
    let timers = TimerExtension()
    var embedded: EmbeddedLoop { run.embedded }

    init() throws {
        run = try LiveLoopRun("embedded")
        run.loop.install(timers)
        run.embedded.run()
    }

    @Test func advanceTimeFiresATimerAtItsInstant() {
        let start = run.clock.now
        timers.deadlines = [start.adding(seconds: 2.5)]
        embedded.advanceTime(by: 10)
        #expect(timers.fired == [start.adding(seconds: 2.5)], "woken at the timer's own instant, not at the end")
        #expect(run.clock.now == start.adding(seconds: 10))
        #expect(timers.served.last == start.adding(seconds: 10), "and once more at the target")
    }

    /// Every wake-up in between, those set by a wake-up on the way included, each at its moment.
    @Test func aLongAdvanceTakesEveryWakeUpInBetween() {
        let start = run.clock.now
        timers.deadlines = [start.adding(seconds: 0.5)]
        timers.then = { $0.adding(seconds: 0.75) }
        embedded.advanceTime(to: start.adding(seconds: 60))
        let expected = stride(from: 0.5, to: 60, by: 0.75).map { start.adding(seconds: $0) }
        #expect(timers.fired == expected)
        #expect(timers.deadlines == [start.adding(seconds: 60.5)], "the next one, after the target, waits")
        #expect(run.clock.now == start.adding(seconds: 60))
    }

    @Test func aTargetAlreadyPastIsAWakeUpNowAndTheClockNeverGoesBack() {
        let start = run.clock.now
        embedded.advanceTime(to: start.adding(seconds: -5))
        #expect(run.clock.now == start)
        #expect(timers.served.last == start)
    }

    /// `run()` serves what is ready on a real descriptor at the clock's time, which stays put.
    @Test func runServesAReadyDescriptor() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
        timers.readFrom = ends[0]
        let start = run.clock.now
        #expect(write(ends[1], "abc", 3) == 3)
        embedded.run()
        #expect(timers.bytesRead == 3)
        #expect(run.clock.now == start)
        // A peer answering later: real time, bounded, the condition waited on.
        #expect(write(ends[1], "d", 1) == 1)
        #expect(embedded.run(seconds: 10) { timers.bytesRead == 4 })
    }

    /// The loop's timer is CLOCK_MONOTONIC's: a virtual deadline (kiosk's 100 s, long past on
    /// that clock) never arms it, so a wake-up waits on the descriptors for as long as it is told.
    @Test func aVirtualDeadlineNeverArmsTheRealTimer() {
        timers.deadlines = [run.clock.now.adding(seconds: 1)]
        #expect(run.loop.nextWake() != nil)
        let before = MonotonicClock.now
        embedded.run(waitingUpTo: 200)
        #expect(!run.loop.pollLoop.timerFired, "the real timer fired for a virtual instant")
        #expect(MonotonicClock.now.seconds(since: before) >= 0.2, "poll() waited its time: nothing was ready")
        #expect(timers.fired.isEmpty)
    }
}
