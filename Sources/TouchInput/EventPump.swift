import CLinuxSystem
import InputEvents
#if canImport(Glibc)
import Glibc
#endif

/// Reads one device until a time limit passes, SIGINT or SIGTERM arrives, or the device goes away.
///
/// For the tools (`kiosk record`, `kiosk touches`); the kiosk's own loop polls many fds at once.
/// Signals are taken through a signalfd in the same poll, so Ctrl-C ends a recording cleanly.
public enum EventPump {
    public enum Ending: Equatable, Sendable {
        case timeLimit, signal, deviceGone
    }

    public static func run(_ device: EvdevDevice, seconds: Double?, _ body: (InputEvent) -> Void) throws(InputDeviceError) -> Ending {
        var mask = sigset_t()
        sigemptyset(&mask)
        sigaddset(&mask, SIGINT)
        sigaddset(&mask, SIGTERM)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &mask, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        let signals = signalfd(-1, &mask, kiosk_SFD_CLOEXEC)
        guard signals >= 0 else { throw .system(call: "signalfd", path: device.path, errno: errno) }
        defer { close(signals) }

        let end = seconds.map { now() + $0 }
        while true {
            var timeout: Int32 = -1
            if let end {
                let left = end - now()
                if left <= 0 { return .timeLimit }
                timeout = Int32(min(left * 1000, 60_000).rounded(.up))
            }
            var fds = [pollfd(fd: device.fileDescriptor, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: signals, events: Int16(POLLIN), revents: 0)]
            let n = poll(&fds, 2, timeout)
            if n < 0 {
                if errno == EINTR { continue }
                throw .system(call: "poll", path: device.path, errno: errno)
            }
            if fds[1].revents != 0 { return .signal }
            if fds[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { return .deviceGone }
            if fds[0].revents & Int16(POLLIN) != 0 {
                do {
                    try device.read(body)
                } catch .gone {
                    return .deviceGone
                }
            }
        }
    }

    private static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
