import Glibc

/// Seconds on CLOCK_MONOTONIC, the clock the kernel's own console timestamps roughly follow, so
/// kiosk lines and kernel lines on the same serial console can be read against each other.
public enum MonotonicClock {
    @Sendable
    public static func seconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
