import KioskCore

/// `KioskLoop` on a `VirtualClock`, stepped by its owner as swift-nio's `EmbeddedEventLoop` is:
/// kiosk's time moves only when `advanceTime` says so, while the loop's descriptors stay real
/// (the control socket's clients, hooks' pipes, MQTT's socket, the screenshot child's pipe).
///
/// Every wake-up is the loop's own, `KioskLoop.runOnce`: `run()` is one now, its poll not waiting;
/// `advanceTime(to:)` moves the clock to each moment the loop asked to wake (`nextWake()`) before
/// the target, a wake-up at each, then to the target, one more there; `run(until:)` wakes it in
/// real time, each poll bounded, until a condition holds (a child, a broker or a peer answering).
/// A virtual clock never arms the loop's timer: its instants are not the monotonic clock's.
public final class EmbeddedLoop {
    public let loop: KioskLoop
    public let clock: VirtualClock
    /// The wake-ups one `advanceTime` takes at most: a timer that never stops asking ends there.
    public static let maximumWakeUps = 100_000

    /// `loop` must read `clock` (built with `clock:` set to it).
    public init(_ loop: KioskLoop, clock: VirtualClock) {
        precondition((loop.clock as? VirtualClock) === clock, "an embedded loop steps the clock its loop reads")
        self.loop = loop
        self.clock = clock
    }

    /// One wake-up at the clock's time: what is ready on the loop's descriptors served (the poll
    /// waits up to `milliseconds` of real time, none by default), then every stage. An ending when
    /// a signal asked to stop.
    @discardableResult
    public func run(waitingUpTo milliseconds: Int32 = 0) -> KioskLoop.Ending? {
        loop.runOnce(milliseconds: max(0, milliseconds))
    }

    /// `advanceTime(to:)` `seconds` from now.
    public func advanceTime(by seconds: Double) {
        advanceTime(to: clock.now.adding(seconds: seconds))
    }

    /// Moves the clock to each moment the loop wakes for before `target`, one wake-up at each, in
    /// order (a timer set by one is taken if due before `target`), then to `target` for one more.
    /// The clock never goes back: a `target` already past is a wake-up now.
    public func advanceTime(to target: Instant) {
        var wakeUps = 0
        while let wake = loop.nextWake(), wake < target, wakeUps < Self.maximumWakeUps {
            clock.now = max(clock.now, wake)
            run()
            wakeUps += 1
        }
        clock.now = max(clock.now, target)
        run()
    }

    /// Wake-ups at the clock's time (it stays put), each waiting up to `milliseconds` of real
    /// time for a descriptor, until `condition` holds or `seconds` of real time pass: for what a
    /// child, a broker or a socket's peer answers. Whether `condition` held.
    @discardableResult
    public func run(seconds: Double = 20, waitingUpTo milliseconds: Int32 = 10, until condition: () -> Bool) -> Bool {
        loop.runOnce(seconds: seconds, waitingUpTo: milliseconds, until: condition)
    }
}

extension KioskLoop {
    /// `runOnce` until `condition` holds or `seconds` of real time pass, each poll waiting up to
    /// `milliseconds`; on any clock (a test of the live loop on the monotonic one uses it too).
    /// Whether `condition` held.
    @discardableResult
    public func runOnce(seconds: Double, waitingUpTo milliseconds: Int32, until condition: () -> Bool) -> Bool {
        let end = MonotonicClock.seconds() + seconds
        while !condition() {
            guard MonotonicClock.seconds() < end else { return false }
            _ = runOnce(milliseconds: milliseconds)
        }
        return true
    }
}
