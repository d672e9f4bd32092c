import Foundation
import InputEvents
import KioskCore
import Runtime
import Testing
import TouchInput
#if canImport(Glibc)
import Glibc
#endif

/// The one poll() kiosk's loops wait in (Runtime/PollLoop.swift): `kiosk run`'s, through
/// KioskLoop.runOnce, and the tools' (`calibrate`, `touches`, `record`), through `PollLoop.run`.
/// Signals are raised at the calling thread only (`raise`): the test process's other threads
/// never see them.
@Suite("The poll loop", .serialized)
struct PollLoopTests {
    /// The tools' loop (`kiosk touches --follow`) wakes for a deadline too, with no descriptor
    /// ready: its timer is armed for it.
    @Test func theToolsLoopWakesForADeadline() throws {
        let start = MonotonicClock.now
        var calls = 0
        let ending = try PollLoop.run(seconds: 30, descriptors: { [] }, wake: { start.adding(seconds: 0.05) }) {
            () throws(InputDeviceError) -> PollLoop.Ending? in
            calls += 1
            return .deviceGone
        }
        #expect(ending == .deviceGone)
        #expect(calls == 1)
        let took = MonotonicClock.now.seconds(since: start)
        #expect(took >= 0.05 && took < 10, "woke after \(took) s")
    }

    @Test func theToolsLoopEndsAtItsTimeLimitWithoutCallingForNothing() throws {
        let start = MonotonicClock.now
        var calls = 0
        let ending = try PollLoop.run(seconds: 0.05, descriptors: { [] }) { () throws(InputDeviceError) -> PollLoop.Ending? in
            calls += 1
            return nil
        }
        #expect(ending == .timeLimit && calls == 0)
        #expect(MonotonicClock.now.seconds(since: start) >= 0.05)
    }

    /// A readable descriptor calls `ready`; Ctrl-C (SIGINT) ends the loop as `.signal`, taken from
    /// the queue so it is not pending when the mask is put back.
    @Test func aReadableDescriptorIsServedAndSIGINTEndsTheLoop() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        #expect(write(ends[1], "x", 1) == 1)
        var reads = 0
        var before = sigset_t()
        pthread_sigmask(SIG_SETMASK, nil, &before)
        let ending = try PollLoop.run(seconds: 30, descriptors: { [ends[0]] }) { () throws(InputDeviceError) -> PollLoop.Ending? in
            var byte: UInt8 = 0
            reads += read(ends[0], &byte, 1) == 1 ? 1 : 0
            // Now Ctrl-C, at this thread, while the loop has SIGINT blocked.
            raise(SIGINT)
            return nil
        }
        #expect(ending == .signal && reads == 1)
        var pending = sigset_t()
        sigpending(&pending)
        #expect(sigismember(&pending, SIGINT) == 0, "SIGINT was taken, not left pending")
        var after = sigset_t()
        pthread_sigmask(SIG_SETMASK, nil, &after)
        #expect(sigismember(&after, SIGINT) == sigismember(&before, SIGINT) && sigismember(&after, SIGTERM) == sigismember(&before, SIGTERM),
                "the thread's mask is back as it was")
    }

    /// KioskLoop's use: each signal that came is given once, in order, and the timer fires at
    /// the wake-up it was armed for.
    @Test func signalsAreGivenInOrderAndTheTimerFiresAtItsWakeUp() throws {
        let loop = PollLoop(signals: [SIGHUP, SIGUSR1])
        try loop.open()
        defer { loop.close() }
        loop.begin(wakeAt: nil)
        raise(SIGUSR1)
        raise(SIGHUP)
        #expect(try loop.wait(milliseconds: 5000).get() >= 1)
        var got: [Int32] = []
        loop.takeSignals { got.append($0) }
        #expect(Set(got) == [SIGHUP, SIGUSR1] && got.count == 2, "\(got)")
        #expect(!loop.timerFired)

        let due = MonotonicClock.now.adding(seconds: 0.03)
        loop.begin(wakeAt: due)
        #expect(try loop.wait(milliseconds: 5000).get() == 1)
        #expect(loop.timerFired && MonotonicClock.now >= due)
        loop.takeSignals { got.append($0) }
        #expect(got.count == 2, "the timer is no signal")
        loop.begin(wakeAt: nil)
        #expect(try loop.wait(milliseconds: 20).get() == 0, "the timer was read: it does not wake the next poll")
    }
}
