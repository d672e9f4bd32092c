import Gestures
import InputEvents
import KioskCore

/// The tests' touch script: fingers put down, moved and lifted on a virtual panel (an FT5406 unless
/// told otherwise), which writes the evdev events its kernel driver would, as an evemu trace.
///
/// Frames come at the panel's 60 Hz; every movement is spread over frames as a finger would.
public final class TouchScript {
    public private(set) var panel: SyntheticTouchscreen
    public static let frame = 1.0 / 60
    private var nextFinger = 0

    public init(device: DeviceDescription = SyntheticTouchscreen.ft5406, start: Instant = Instant(seconds: 10)) {
        panel = SyntheticTouchscreen(device: device, screen: Size(width: 800, height: 480), start: start)
    }

    public var now: Instant { panel.now }
    /// Millimetres on the default panel (the Raspberry Pi 7" display), in pixels.
    public func mm(_ millimetres: Double) -> Double { PanelMetrics.raspberryPi7Inch.pixels(millimetres: millimetres) }
    /// The trace as `kiosk record` would write it.
    public var traceText: String { panel.trace.text }

    // MARK: Fingers

    public func wait(_ seconds: Double) { panel.wait(seconds) }

    /// Puts fingers down at `points` in one report; returns their numbers.
    @discardableResult
    public func down(_ points: Point...) -> [Int] {
        let fingers = points.map { p -> Int in
            let f = nextFinger
            nextFinger += 1
            panel.down(f, at: p)
            return f
        }
        panel.sync()
        return fingers
    }

    public func up(_ fingers: [Int]) {
        panel.wait(Self.frame)
        for f in fingers { panel.up(f) }
        panel.sync()
    }

    /// Moves each finger along its own straight path, in `seconds`, a report per frame.
    public func move(_ paths: [(finger: Int, from: Point, to: Point)], over seconds: Double) {
        let steps = max(1, Int((seconds / Self.frame).rounded()))
        for step in 1...steps {
            panel.wait(seconds / Double(steps))
            let t = Double(step) / Double(steps)
            for p in paths { panel.move(p.finger, to: p.from + (p.to - p.from) * t) }
            panel.sync()
        }
    }

    public func tap(at p: Point) {
        let f = down(p)
        up(f)
    }

    public func drag(from a: Point, to b: Point, over seconds: Double) {
        let f = down(a)
        move([(f[0], a, b)], over: seconds)
        up(f)
    }

    /// Two fingers on a horizontal line through `center`, spreading from `from` to `to` pixels apart.
    public func pinch(center c: Point, from: Double, to: Double, over seconds: Double) {
        let a0 = c - Point(x: from / 2, y: 0), b0 = c + Point(x: from / 2, y: 0)
        let f = down(a0, b0)
        move([(f[0], a0, c - Point(x: to / 2, y: 0)), (f[1], b0, c + Point(x: to / 2, y: 0))], over: seconds)
        up(f)
    }

    /// Two fingers `radius` from `center` on opposite sides, turning by `angle` radians (clockwise positive).
    public func rotate(center c: Point, radius: Double, by angle: Double, over seconds: Double) {
        let f = down(c - Point(x: radius, y: 0), c + Point(x: radius, y: 0))
        let steps = max(1, Int((seconds / Self.frame).rounded()))
        for step in 1...steps {
            panel.wait(seconds / Double(steps))
            let arm = Point(x: radius, y: 0).rotated(by: angle * Double(step) / Double(steps))
            panel.move(f[0], to: c - arm)
            panel.move(f[1], to: c + arm)
            panel.sync()
        }
        up(f)
    }
}
