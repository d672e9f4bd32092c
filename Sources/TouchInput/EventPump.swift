import CLinuxSystem
import InputEvents
import KioskCore
#if canImport(Glibc)
import Glibc
#endif

/// Polls descriptors until a time limit passes or SIGINT/SIGTERM arrives, for the tools
/// (`kiosk record`, `kiosk touches`); the kiosk's own loop is the runtime's. Signals are taken
/// through a signalfd in the same poll, so Ctrl-C ends a recording cleanly.
public enum EventPump {
    public enum Ending: Equatable, Sendable {
        case timeLimit, signal, deviceGone
    }

    /// Calls `ready` whenever one of `descriptors()` (asked afresh each round) can be read, or
    /// when the moment `wake()` gives (on the monotonic clock) has come; `ready` returns an ending
    /// to stop early.
    public static func run(
        seconds: Double?, descriptors: () -> [Int32], wake: () -> Instant? = { nil },
        _ ready: () throws(InputDeviceError) -> Ending?
    ) throws(InputDeviceError) -> Ending {
        var mask = sigset_t()
        sigemptyset(&mask)
        sigaddset(&mask, SIGINT)
        sigaddset(&mask, SIGTERM)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &mask, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        let signals = signalfd(-1, &mask, kiosk_SFD_CLOEXEC | kiosk_SFD_NONBLOCK)
        guard signals >= 0 else { throw .system(call: "signalfd", path: "signals", errno: errno) }
        defer { close(signals) }

        let end = seconds.map { now() + $0 }
        while true {
            var timeout: Int32 = -1
            if let end {
                let left = end - now()
                if left <= 0 { return .timeLimit }
                timeout = Int32(min(left * 1000, 60_000).rounded(.up))
            }
            let due = wake()
            if let due {
                let left = Int32(max(0, min(due.seconds - now(), 60)) * 1000 + 1)
                timeout = timeout < 0 ? left : min(timeout, left)
            }
            var fds = [pollfd(fd: signals, events: Int16(POLLIN), revents: 0)]
            for fd in descriptors() { fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
            let n: Int32
            switch systemCall({ poll(&fds, nfds_t(fds.count), timeout) }) {
            case .success(let ready): n = ready
            case .failure(let errno): throw .system(call: "poll", path: "input", errno: errno.rawValue)
            }
            if fds[0].revents != 0 {
                // Taken from the queue, or the signal would still be pending when the mask is
                // restored, and end the process before a recording is written.
                var info = signalfd_siginfo()
                while read(signals, &info, MemoryLayout<signalfd_siginfo>.size) > 0 {}
                return .signal
            }
            if n > 0 || due.map({ now() >= $0.seconds }) == true, let ending = try ready() { return ending }
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

    static func now() -> Double { MonotonicClock.now.seconds }
}
