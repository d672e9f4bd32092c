import KioskCore
import Synchronization

/// Time that passes only when a test says so: the tests' one virtual clock, read by the code under
/// test through a closure (`{ clock.now }`, or `read` for a clock in seconds).
public final class VirtualClock: Sendable {
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
