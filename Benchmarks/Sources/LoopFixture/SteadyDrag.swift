import KioskCore
import KioskTestSupport
import Runtime

/// A finger already down on yellow, dragging it back and forth.
public final class SteadyDrag: SteadyLoop {
    private static let start = Point(x: 160, y: 190)
    /// The finger held where it went down, reported again unmoved.
    private let resting = Fingers.frames { fingers in
        fingers.down(SteadyDrag.start)
        fingers.report()
    }[1]

    public init(config: String = SteadyLoop.defaultConfig) throws {
        try super.init(config: config) { _, fingers in
            let finger = fingers.down(Self.start)[0]
            for i in 0..<240 {
                let t = Double(i < 120 ? i : 240 - i)
                fingers.move([finger: Self.start + Point(x: t, y: t / 2)])
            }
        }
    }

    /// One frame: the finger stays where it is.
    public func rest() { deliver(resting) }
}
