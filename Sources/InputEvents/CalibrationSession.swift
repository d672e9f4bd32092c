import KioskCore

/// Where `kiosk calibrate` puts its five targets: the four corners inset by a tenth of the
/// screen, then the centre, as ts_calibrate and xinput_calibrator do.
public enum CalibrationTargets {
    public static let names = ["top left", "top right", "bottom right", "bottom left", "centre"]

    public static func points(screen: Size) -> [Point] {
        let (l, r) = (screen.width * 0.1, screen.width * 0.9), (t, b) = (screen.height * 0.1, screen.height * 0.9)
        return [Point(x: l, y: t), Point(x: r, y: t), Point(x: r, y: b), Point(x: l, y: b),
                Point(x: screen.width / 2, y: screen.height / 2)]
    }
}

/// One calibration: a touch on each target in turn, from frames decoded without calibration.
///
/// Frames go in as the decoder gives them (positions are the panel's own, mapped onto `screen`
/// with no calibration, rotation or flip). Each target takes one touch, from its press to its
/// lift; where it was is the median of its samples, so the first contact of a resistive panel,
/// which is often off, does not count for much. A state machine in the style of the gesture
/// recognizers: frames in, progress out, no clock.
public struct CalibrationSession: Sendable {
    public enum Progress: Sendable, Equatable {
        /// Waiting for a touch on target `index`, or for its lift.
        case waiting(target: Int)
        /// Target `index` was touched and released; the next one is up (or the fit, after the last).
        case took(target: Int)
        /// Every target has its touch.
        case done
    }

    public let screen: Size
    public let targets: [Point]
    /// Per target taken: the touch's median position, normalised (0...1) in the panel's own terms.
    public private(set) var raw: [Point] = []
    private var touch: TouchID?
    private var xs: [Double] = []
    private var ys: [Double] = []

    public init(screen: Size) {
        self.screen = screen
        targets = CalibrationTargets.points(screen: screen)
    }

    public var current: Int { raw.count }

    /// Reads one frame; throws when a second finger comes down while one is on the glass.
    public mutating func handle(_ frame: TouchFrame) throws(CalibrationRejection) -> Progress {
        guard raw.count < targets.count else { return .done }
        for t in frame.touches {
            switch t.phase {
            case .began:
                if touch != nil { throw .twoTouches(target: raw.count) }
                touch = t.id
                xs.removeAll(keepingCapacity: true)
                ys.removeAll(keepingCapacity: true)
                sample(t.location)
            case .moved, .stationary:
                if t.id == touch { sample(t.location) }
            case .ended:
                guard t.id == touch else { continue }
                sample(t.location)
                touch = nil
                raw.append(Point(x: Self.median(xs) / screen.width, y: Self.median(ys) / screen.height))
                return raw.count == targets.count ? .done : .took(target: raw.count - 1)
            case .cancelled:
                // The panel went away or was reset: that touch does not count; the target stays.
                if t.id == touch { touch = nil }
            }
        }
        return .waiting(target: raw.count)
    }

    /// Fits the matrix and checks each target: one missed by more than `maximumMissMillimetres` rejects the session.
    public func fit(after: TouchCalibration, millimetresPerPixel: (x: Double, y: Double),
                    maximumMissMillimetres: Double) throws(CalibrationRejection) -> CalibrationFit {
        let fit: CalibrationFit
        do {
            fit = try CalibrationFit(raw: raw, targets: targets, screen: screen, after: after, millimetresPerPixel: millimetresPerPixel)
        } catch {
            throw .noFit(error)
        }
        if let worst = fit.residualMillimetres.indices.max(by: { fit.residualMillimetres[$0] < fit.residualMillimetres[$1] }),
           fit.residualMillimetres[worst] > maximumMissMillimetres {
            throw .missed(target: worst, millimetres: fit.residualMillimetres[worst], pixels: fit.residualPixels[worst],
                          limit: maximumMissMillimetres)
        }
        return fit
    }

    private mutating func sample(_ p: Point) {
        // Bounded: a finger resting for minutes on a 60 Hz panel keeps the last few thousand samples.
        if xs.count >= 4096 { xs.removeFirst(1024); ys.removeFirst(1024) }
        xs.append(p.x)
        ys.append(p.y)
    }

    static func median(_ values: [Double]) -> Double {
        let s = values.sorted()
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }
}

/// Why a calibration session was not taken, in words for the integrator.
public enum CalibrationRejection: Error, Equatable, CustomStringConvertible {
    case twoTouches(target: Int)
    case missed(target: Int, millimetres: Double, pixels: Double, limit: Double)
    case noFit(CalibrationFitError)

    public var description: String {
        switch self {
        case .twoTouches(let t):
            "two touches at once on target \(t + 1) (\(CalibrationTargets.names[t])): touch each target with one finger or a stylus, nothing else on the glass"
        case .missed(let t, let mm, let px, let limit):
            "target \(t + 1) (\(CalibrationTargets.names[t])) was missed by \(fixedDecimal(mm, 1)) mm (\(fixedDecimal(px, 1)) px) "
                + "after the fit, more than \(fixedDecimal(limit, 1)) mm: the touches do not agree with each other; touch each target at its centre and try again"
        case .noFit(let e): "no calibration fits: \(e)"
        }
    }
}
