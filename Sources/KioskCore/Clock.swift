#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Where a component reads the time: the monotonic clock live, a virtual clock in replays, tests
/// and benchmarks (swift-nio's `NIOPosix` and `NIOEmbedded` event loops, in one protocol).
public protocol InstantClock: Sendable {
    var now: Instant { get }
}

/// CLOCK_MONOTONIC: the clock evdev timestamps, page-flip events and the kernel's console use.
public struct MonotonicClock: InstantClock {
    public init() {}

    public var now: Instant { Self.now }

    public static var now: Instant {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Instant(microseconds: Int64(t.tv_sec) * 1_000_000 + Int64(t.tv_nsec) / 1000)
    }

    /// Now in seconds, to the nanosecond: the log's timestamps, so kiosk lines and kernel lines on
    /// the same serial console can be read against each other.
    @Sendable
    public static func seconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}

/// Time that passes only when its owner says so: a replay moves it from event to event, a test
/// by hand (swift-nio's `EmbeddedEventLoop.advanceTime(by:)`).
public final class VirtualClock: InstantClock {
    private let time: Mutex<Instant>

    public init(_ start: Instant = Instant(seconds: 100)) { time = Mutex(start) }

    /// A clock that starts `seconds` after the epoch.
    public convenience init(_ seconds: Double) { self.init(Instant(seconds: seconds)) }

    public var now: Instant {
        get { time.withLock { $0 } }
        set { time.withLock { $0 = newValue } }
    }

    public func advance(by seconds: Double) {
        time.withLock { $0 = $0.adding(seconds: seconds) }
    }

    /// The clock in seconds, as `LogWriter` takes it.
    public var read: @Sendable () -> Double { { self.now.seconds } }
}
