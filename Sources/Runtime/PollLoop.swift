import CLinuxSystem
import InputEvents
import KioskCore
import TouchInput
#if canImport(Glibc)
import Glibc
#endif

/// The one `poll()` every loop of kiosk waits in: `kiosk run`'s (KioskLoop) and the tools'
/// (`calibrate`, `touches`, `record`). It owns what every loop needs besides its own descriptors:
/// the signals, taken as a file in the same poll (no handler runs in the middle of a frame), and
/// a timer armed for the next moment something must happen without input (absolute, on the
/// monotonic clock evdev stamps its events with).
///
/// A wake-up: `begin(wakeAt:)`, `add` each descriptor wanted now, `wait`, then `takeSignals` and
/// serve the descriptors `fds` says are ready. `fds` is kept from one wake-up to the next: a
/// steady wake-up allocates nothing.
public final class PollLoop {
    /// The descriptors of this wake-up, the signals' and the timer's first; after `wait`, each
    /// with what is ready on it.
    public internal(set) var fds: [pollfd] = []
    private var signals: Int32 = -1
    private var timer: Int32 = -1
    private var previousMask = sigset_t()
    private let caught: [Int32]

    /// A loop that takes `signals` (blocked for the thread while it is open) through its poll.
    public init(signals: [Int32]) {
        caught = signals
        fds.reserveCapacity(16)
    }

    deinit { close() }

    public var isOpen: Bool { signals >= 0 }

    /// Blocks the signals and opens their signalfd and the timer; does nothing when open.
    public func open() throws(SystemCallError) {
        guard signals < 0 else { return }
        var mask = sigset_t()
        sigemptyset(&mask)
        for s in caught { sigaddset(&mask, s) }
        pthread_sigmask(SIG_BLOCK, &mask, &previousMask)
        do throws(SystemCallError) {
            signals = try systemCall("signalfd", on: caught.map(Self.name).joined(separator: " ")) {
                signalfd(-1, &mask, kiosk_SFD_CLOEXEC | kiosk_SFD_NONBLOCK)
            }
            timer = try systemCall("timerfd_create", on: "CLOCK_MONOTONIC") { timerfd_create(CLOCK_MONOTONIC, Int32(TFD_CLOEXEC | TFD_NONBLOCK)) }
        } catch {
            if signals >= 0 { Glibc.close(signals) }
            signals = -1
            pthread_sigmask(SIG_SETMASK, &previousMask, nil)
            throw error
        }
    }

    /// Closes both and puts the thread's signal mask back; safe to call twice.
    public func close() {
        if signals >= 0 {
            // Signals still pending (a second SIGTERM) are taken here, not by their default action
            // once the mask is back: the exit stays clean.
            var info = signalfd_siginfo()
            while read(signals, &info, MemoryLayout<signalfd_siginfo>.size) > 0 {}
            Glibc.close(signals)
            signals = -1
            pthread_sigmask(SIG_SETMASK, &previousMask, nil)
        }
        if timer >= 0 { Glibc.close(timer) }
        timer = -1
    }

    /// Starts a wake-up: the timer armed for `wake` (nil: disarmed; a moment already past fires at
    /// once), the list holding the signals and the timer.
    public func begin(wakeAt wake: Instant?) {
        if timer >= 0 {
            var spec = itimerspec()
            if let wake {
                let us = max(wake.microseconds, 1)
                spec.it_value = timespec(tv_sec: Int(us / 1_000_000), tv_nsec: Int(us % 1_000_000) * 1000)
            }
            timerfd_settime(timer, Int32(TFD_TIMER_ABSTIME), &spec, nil)
        }
        fds.removeAll(keepingCapacity: true)
        fds.append(pollfd(fd: signals, events: Int16(POLLIN), revents: 0))
        fds.append(pollfd(fd: timer, events: Int16(POLLIN), revents: 0))
    }

    /// Adds `fd` to this wake-up's poll, for `events` (readable by default).
    public func add(_ fd: Int32, events: Int16 = Int16(POLLIN)) {
        fds.append(pollfd(fd: fd, events: events, revents: 0))
    }

    /// Adds `fd` only while the list has room without growing (a steady wake-up allocates nothing).
    public func addIfRoom(_ fd: Int32, events: Int16) {
        if fds.count < fds.capacity { add(fd, events: events) }
    }

    /// Waits until a descriptor is ready, the timer fires, a signal comes, or `milliseconds`
    /// pass (-1: no limit); the number of descriptors ready.
    @discardableResult
    public func wait(milliseconds: Int32 = -1) -> Result<Int32, Errno> {
        systemCall { fds.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), milliseconds) } }
    }

    /// After `wait`: the timer's expirations read, and each signal that came given to `each`, in
    /// order (a storm of one signal is as many calls: the caller collapses them).
    public func takeSignals(_ each: (Int32) -> Void) {
        if timer >= 0 {
            var expirations: UInt64 = 0
            _ = read(timer, &expirations, 8)
        }
        guard signals >= 0 else { return }
        var info = signalfd_siginfo()
        while read(signals, &info, MemoryLayout<signalfd_siginfo>.size) == MemoryLayout<signalfd_siginfo>.size {
            each(Int32(info.ssi_signo))
        }
    }

    /// Whether the timer fired in the last `wait`.
    public var timerFired: Bool { fds.count > 1 && fds[1].revents != 0 }

    static func name(_ signal: Int32) -> String {
        switch signal {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        case SIGHUP: "SIGHUP"
        case SIGUSR1: "SIGUSR1"
        default: "signal \(signal)"
        }
    }
}

// The tools' loop: one touchscreen (or a few), a time limit, Ctrl-C.
extension PollLoop {
    /// How a tool's loop ended.
    public enum Ending: Equatable, Sendable {
        case timeLimit, signal, deviceGone
    }

    /// Calls `ready` whenever one of `descriptors()` (asked afresh each round) can be read, or
    /// when the moment `wake()` gives (on the monotonic clock) has come; `ready` returns an ending
    /// to stop early. SIGINT and SIGTERM end it, so Ctrl-C ends a recording cleanly.
    public static func run(
        seconds: Double?, descriptors: () -> [Int32], wake: () -> Instant? = { nil },
        _ ready: () throws(InputDeviceError) -> Ending?
    ) throws(InputDeviceError) -> Ending {
        let loop = PollLoop(signals: [SIGINT, SIGTERM])
        do {
            try loop.open()
        } catch {
            throw .system(SystemCallError(call: error.call, subject: "signals", errno: error.errno))
        }
        defer { loop.close() }
        let end = seconds.map { MonotonicClock.now.adding(seconds: $0) }
        while true {
            let due = wake()
            var next = due
            if let end, next.map({ end < $0 }) ?? true { next = end }
            loop.begin(wakeAt: next)
            for fd in descriptors() { loop.add(fd) }
            let n: Int32
            switch loop.wait() {
            case .success(let ready): n = ready
            case .failure(let errno): throw .system(SystemCallError(call: "poll", subject: "input", errno: errno))
            }
            var signalled = false
            loop.takeSignals { _ in signalled = true }
            if signalled { return .signal }
            let now = MonotonicClock.now
            if let end, now >= end { return .timeLimit }
            let inputReady = loop.fds.dropFirst(2).contains { $0.revents != 0 }
            if n > 0 && inputReady || due.map({ now >= $0 }) == true, let ending = try ready() { return ending }
        }
    }

    /// Reads one device until the time limit, a signal, or the device going away.
    public static func run(_ device: EvdevDevice, seconds: Double?, _ body: (InputEvent) -> Void) throws(InputDeviceError) -> Ending {
        try run(seconds: seconds, descriptors: { [device.fileDescriptor] }) { () throws(InputDeviceError) -> Ending? in
            do throws(InputDeviceError) {
                try device.read(body)
                return nil
            } catch .gone {
                return .deviceGone
            } catch {
                throw error
            }
        }
    }
}
