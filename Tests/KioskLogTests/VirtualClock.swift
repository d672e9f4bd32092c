import Synchronization

/// Seconds that pass only when a test says so.
final class VirtualClock: Sendable {
    private let seconds: Mutex<Double>

    init(_ start: Double = 100) { seconds = Mutex(start) }

    var now: Double { seconds.withLock { $0 } }

    func advance(by interval: Double) {
        seconds.withLock { $0 += interval }
    }

    /// The clock as `LogWriter` takes it.
    var read: @Sendable () -> Double { { self.now } }
}
