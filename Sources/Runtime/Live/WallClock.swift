import KioskCore
#if canImport(Glibc)
import Glibc
#endif

/// The wall clock (CLOCK_REALTIME), for what people and Home Assistant read: when the kiosk
/// started, the last touch. The loop itself runs on the monotonic clock.
public enum WallClock {
    /// Seconds since the Unix epoch now.
    public static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Seconds since the Unix epoch at `instant` of `clock`, taken as now on the wall clock less
    /// the time since it (a step of the wall clock, NTP's first sync on a Pi, moves nothing already said).
    public static func seconds(at instant: Instant, now: Instant) -> Double {
        WallClock.now() - Double(now.microseconds - instant.microseconds) / 1e6
    }

    /// `seconds` since the epoch as ISO 8601 in UTC to the second: `2026-11-26T13:30:10+00:00`.
    public static func iso8601(_ seconds: Double) -> String {
        var t = time_t(seconds.rounded(.down))
        var parts = tm()
        gmtime_r(&t, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let year = String(Int(parts.tm_year) + 1900)
        return "\(String(repeating: "0", count: max(0, 4 - year.count)))\(year)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))"
            + "T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))+00:00"
    }

    /// `seconds` as `20261126-133010` (UTC), for file names.
    public static func fileStamp(_ seconds: Double) -> String {
        String(iso8601(seconds).prefix(19).compactMap { $0 == "-" || $0 == ":" ? nil : $0 == "T" ? "-" : $0 })
    }
}
