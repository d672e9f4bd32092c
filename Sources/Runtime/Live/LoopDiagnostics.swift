import KioskCore
#if canImport(Glibc)
import Glibc
#endif

/// What the loop knows of its own health, for an extension to report (MQTT's diagnostics): the
/// figures of the last stats line (before the first, of the interval so far), the overruns since
/// start, the touchscreen, and when the kiosk started.
public struct LoopDiagnostics: Sendable, Equatable {
    /// Frames drawn per second over the interval.
    public var framesPerSecond: Double
    /// The 99th percentile of input-to-flip latency over the interval, in milliseconds; nil when
    /// no input was shown in it.
    public var latencyP99Milliseconds: Double?
    /// Stage overruns since the kiosk started, every stage together.
    public var overruns: Int
    /// Whether a touchscreen is open now.
    public var touchscreenConnected: Bool
    /// When the kiosk started, in seconds since the Unix epoch (the wall clock, read once at start).
    public var startedAt: Double

    public init(framesPerSecond: Double, latencyP99Milliseconds: Double?, overruns: Int, touchscreenConnected: Bool, startedAt: Double) {
        self.framesPerSecond = framesPerSecond
        self.latencyP99Milliseconds = latencyP99Milliseconds
        self.overruns = overruns
        self.touchscreenConnected = touchscreenConnected
        self.startedAt = startedAt
    }

    /// The wall clock now, in seconds since the Unix epoch (CLOCK_REALTIME).
    public static func wallClockSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_REALTIME, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// `seconds` since the Unix epoch as ISO 8601 in UTC, to the second: `2026-11-26T13:30:11+00:00`
    /// (what Home Assistant's timestamp sensor takes).
    public static func iso8601(_ seconds: Double) -> String {
        var t = time_t(seconds.rounded(.down))
        var parts = tm()
        gmtime_r(&t, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let year = String(Int(parts.tm_year) + 1900)
        return "\(String(repeating: "0", count: max(0, 4 - year.count)))\(year)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))"
            + "T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))+00:00"
    }
}
