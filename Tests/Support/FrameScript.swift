import KioskCore

/// Fingers as `TouchFrame`s, for tests that drive the gesture engine or the scene directly (no
/// evdev in between; for that, `TouchScript`): which fingers are down and where, and each frame
/// made from the changes of some of them, the others reported stationary, at the clock's time.
public final class FrameScript {
    /// The tests' one virtual clock: time passes only when the test says so.
    public let clock: VirtualClock
    /// The fingers down, by number, where each last was.
    public private(set) var held: [Int: Point] = [:]

    public init(clock: VirtualClock) { self.clock = clock }

    public var now: Instant { clock.now }

    /// One frame at the clock's time: the fingers in `changes` (in finger order), then every other
    /// finger held, stationary (in finger order). A finger that ends or is cancelled is no longer held.
    public func frame(_ changes: [Int: (phase: TouchPhase, location: Point)]) -> TouchFrame {
        var touches: [Touch] = []
        for (finger, change) in changes.sorted(by: { $0.key < $1.key }) {
            touches.append(Touch(id: TouchID(finger), phase: change.phase, location: change.location))
        }
        for (finger, p) in held.sorted(by: { $0.key < $1.key }) where changes[finger] == nil {
            touches.append(Touch(id: TouchID(finger), phase: .stationary, location: p))
        }
        for (finger, change) in changes {
            held[finger] = change.phase.isFinal ? nil : change.location
        }
        return TouchFrame(time: clock.now, touches: touches)
    }
}
