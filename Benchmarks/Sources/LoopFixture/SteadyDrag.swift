import KioskCore
import Runtime

/// A finger already down on yellow, dragging it back and forth.
public final class SteadyDrag: SteadyLoop {
    private static let finger = TouchID(1)
    private static let start = Point(x: 160, y: 190)
    private let resting = TouchFrame(time: .zero, touches: [Touch(id: finger, phase: .stationary, location: start)])

    public init(config: String = SteadyLoop.defaultConfig) throws {
        try super.init(config: config, down: { _ in
            TouchFrame(time: .zero, touches: [Touch(id: Self.finger, phase: .began, location: Self.start)])
        }, cycle: { _ in
            (0..<240).map { i in
                let t = Double(i < 120 ? i : 240 - i)
                return TouchFrame(time: .zero, touches: [Touch(id: Self.finger, phase: .moved, location: Self.start + Point(x: t, y: t / 2))])
            }
        })
    }

    /// One frame: the finger stays where it is.
    public func rest() { deliver(resting) }
}
