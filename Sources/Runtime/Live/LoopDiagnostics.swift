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
}
