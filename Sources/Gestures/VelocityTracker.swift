import KioskCore

/// Estimates velocity as the slope of a least-squares line through the most recent samples.
///
/// Samples live in a fixed ring buffer, so adding one never allocates; only those within
/// `window` seconds of the newest take part in the fit.
public struct VelocityTracker: Sendable {
    private var times: [Double]
    private var xs: [Double]
    private var ys: [Double]
    private var next = 0
    private var count = 0
    public let window: Double

    public init(capacity: Int = GestureConstants.velocitySampleCapacity, window: Double = GestureConstants.velocityWindowSeconds) {
        times = Array(repeating: 0, count: capacity)
        xs = times
        ys = times
        self.window = window
    }

    public mutating func reset() {
        next = 0
        count = 0
    }

    /// Adds a sample of a 2-D quantity (a position) at `time`.
    public mutating func add(_ value: Point, at time: Instant) {
        times[next] = time.seconds
        xs[next] = value.x
        ys[next] = value.y
        next = (next + 1) % times.count
        count = min(count + 1, times.count)
    }

    /// Adds a sample of a scalar quantity (a scale, an angle).
    public mutating func add(_ value: Double, at time: Instant) {
        add(Point(x: value, y: 0), at: time)
    }

    /// How many samples lie within the window of the newest.
    public var samplesInWindow: Int {
        guard count > 0 else { return 0 }
        let newest = times[(next - 1 + times.count) % times.count]
        var n = 0
        for i in 0..<count {
            let t = times[(next - 1 - i + 2 * times.count) % times.count]
            if newest - t > window { break }
            n += 1
        }
        return n
    }

    /// Units per second, fitted over the window; zero with fewer than two samples in it.
    public var velocity: Point {
        let n = samplesInWindow
        guard n >= 2 else { return .zero }
        let newest = times[(next - 1 + times.count) % times.count]
        var st = 0.0, sx = 0.0, sy = 0.0, stt = 0.0, stx = 0.0, sty = 0.0
        for i in 0..<n {
            let k = (next - 1 - i + 2 * times.count) % times.count
            let t = times[k] - newest
            st += t
            sx += xs[k]
            sy += ys[k]
            stt += t * t
            stx += t * xs[k]
            sty += t * ys[k]
        }
        let m = Double(n)
        let denominator = m * stt - st * st
        guard denominator > 1e-12 else { return .zero }
        return Point(x: (m * stx - st * sx) / denominator, y: (m * sty - st * sy) / denominator)
    }

    /// The scalar velocity, for trackers fed with `add(_: Double, at:)`.
    public var scalarVelocity: Double { velocity.x }
}
