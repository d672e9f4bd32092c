import KioskCore

/// libinput's calibration matrix fitted by least squares to where a finger touched five targets.
///
/// Works in normalised coordinates (0...1 across each axis), as `TouchCalibration` does: the raw
/// positions are the panel's own (no calibration), the targets are where they were drawn. The
/// touches' rotation and flips (`[input] rotation`, `flip_x`, `flip_y`) come after the matrix, so
/// the fit aims at the targets with that turn undone; the matrix is then exactly what
/// `[input] calibration` takes.
public struct CalibrationFit: Sendable, Equatable {
    /// The fitted matrix, a b c d e f.
    public let calibration: TouchCalibration
    /// Per target: how far the fitted matrix puts its tap from it, in screen pixels.
    public let residualPixels: [Double]
    /// Per target: the same in millimetres on the glass.
    public let residualMillimetres: [Double]
    /// The panel's X runs along the screen's vertical (and its Y along the horizontal).
    public let axesSwapped: Bool
    /// The screen's x grows against the panel's own axis that carries it.
    public let mirroredX: Bool
    public let mirroredY: Bool

    /// Fits `raw` (normalised panel positions, one per target) to `targets` (screen pixels).
    ///
    /// `after` is the rotation and flips applied after the matrix; `millimetresPerPixel` converts residuals.
    public init(raw: [Point], targets: [Point], screen: Size, after: TouchCalibration = .identity,
                millimetresPerPixel: (x: Double, y: Double)) throws(CalibrationFitError) {
        guard raw.count == targets.count, raw.count >= 3 else { throw .tooFewPoints(min(raw.count, targets.count)) }
        guard raw.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { throw .notFinite }
        guard let undo = Self.inverse(after.matrix) else { throw .degenerate }
        // Where each target must land before the rotation and flips: the fit's aim.
        let aims = targets.map { t -> Point in
            let n = (t.x / screen.width, t.y / screen.height)
            return Point(x: undo[0] * n.0 + undo[1] * n.1 + undo[2], y: undo[3] * n.0 + undo[4] * n.1 + undo[5])
        }
        guard let row1 = Self.leastSquares(raw, aims.map(\.x)), let row2 = Self.leastSquares(raw, aims.map(\.y)) else {
            throw .degenerate
        }
        let m = row1 + row2
        let determinant = m[0] * m[4] - m[1] * m[3]
        // Taps on one line (or one spot) give no plane to map: the panel moved along one axis only.
        guard abs(determinant) > 1e-6, m.allSatisfy(\.isFinite) else { throw .degenerate }
        let calibration: TouchCalibration
        do { calibration = try TouchCalibration(matrix: m) } catch { throw .notFinite }
        self.calibration = calibration
        let whole = calibration.then(after)
        var pixels: [Double] = [], millimetres: [Double] = []
        for (r, t) in zip(raw, targets) {
            let p = whole.apply(r.x, r.y)
            let dx = p.x * screen.width - t.x, dy = p.y * screen.height - t.y
            pixels.append((dx * dx + dy * dy).squareRoot())
            let mx = dx * millimetresPerPixel.x, my = dy * millimetresPerPixel.y
            millimetres.append((mx * mx + my * my).squareRoot())
        }
        residualPixels = pixels
        residualMillimetres = millimetres
        axesSwapped = abs(m[1]) > abs(m[0]) && abs(m[3]) > abs(m[4])
        mirroredX = (axesSwapped ? m[1] : m[0]) < 0
        mirroredY = (axesSwapped ? m[3] : m[4]) < 0
    }

    /// `[a, b, c]` minimising Σ (a·u + b·v + c − w)²: the 3x3 normal equations, solved by Cramer's rule.
    static func leastSquares(_ raw: [Point], _ w: [Double]) -> [Double]? {
        var suu = 0.0, suv = 0.0, svv = 0.0, su = 0.0, sv = 0.0, suw = 0.0, svw = 0.0, sw = 0.0
        for (p, w) in zip(raw, w) {
            suu += p.x * p.x; suv += p.x * p.y; svv += p.y * p.y
            su += p.x; sv += p.y
            suw += p.x * w; svw += p.y * w; sw += w
        }
        let n = Double(raw.count)
        let a = [[suu, suv, su], [suv, svv, sv], [su, sv, n]], rhs = [suw, svw, sw]
        func det(_ m: [[Double]]) -> Double {
            m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
        }
        let d = det(a)
        // Relative to the sums' scale: normalised taps spread over the screen give a determinant near n·0.01.
        guard abs(d) > 1e-12 * max(1, n * n * n) else { return nil }
        return (0..<3).map { column in
            var m = a
            for row in 0..<3 { m[row][column] = rhs[row] }
            return det(m) / d
        }
    }

    /// The inverse of a 2x3 affine map, nil when it has none.
    static func inverse(_ m: [Double]) -> [Double]? {
        let d = m[0] * m[4] - m[1] * m[3]
        guard abs(d) > 1e-12 else { return nil }
        let a = m[4] / d, b = -m[1] / d, c = -m[3] / d, e = m[0] / d
        return [a, b, -(a * m[2] + b * m[5]), c, e, -(c * m[2] + e * m[5])]
    }

    /// What the axes are, in words: "swapped (the panel's X runs along the screen's Y), mirrored left-right".
    public var orientationText: String {
        var parts: [String] = [axesSwapped ? "swapped (the panel's X runs along the screen's vertical, its Y along the horizontal)" : "not swapped"]
        if mirroredX { parts.append("mirrored left-right") }
        if mirroredY { parts.append("mirrored top-bottom") }
        return parts.joined(separator: ", ")
    }
}

/// Why no matrix could be fitted.
public enum CalibrationFitError: Error, Equatable, CustomStringConvertible {
    case tooFewPoints(Int)
    case notFinite
    case degenerate

    public var description: String {
        switch self {
        case .tooFewPoints(let n): "a fit needs a touch on each of at least 3 targets, found \(n)"
        case .notFinite: "the touches' positions are not finite numbers"
        case .degenerate: "the touches do not span the screen: they lie on one line or one spot, as when one of the panel's axes does not move (a broken wire of a resistive panel?)"
        }
    }
}

extension TouchCalibration {
    /// `next ∘ self`: this map, then `next`'s.
    public func then(_ next: TouchCalibration) -> TouchCalibration {
        let m = matrix, n = next.matrix
        // Built from finite numbers; a product of finite numbers can overflow only far beyond any calibration.
        return (try? TouchCalibration(matrix: [
            n[0] * m[0] + n[1] * m[3], n[0] * m[1] + n[1] * m[4], n[0] * m[2] + n[1] * m[5] + n[2],
            n[3] * m[0] + n[4] * m[3], n[3] * m[1] + n[4] * m[4], n[3] * m[2] + n[4] * m[5] + n[5],
        ])) ?? self
    }

    /// The matrix as udev's hwdb or a rule sets it for libinput:
    /// `ENV{LIBINPUT_CALIBRATION_MATRIX}="a b c d e f"`.
    public var udevLine: String {
        "ENV{LIBINPUT_CALIBRATION_MATRIX}=\"\(matrix.map { Self.short($0) }.joined(separator: " "))\""
    }

    /// tslib's `pointercal` for a device whose raw axes are `x` and `y`, calibrated on `screen`:
    /// `a b c d e f s xres yres` with `x_px = (a·X + b·Y + c) / s`, integers as ts_calibrate writes them.
    public func pointercal(x: AxisInfo, y: AxisInfo, screen: Size) -> String {
        let s = 65536.0
        let rx = Double(x.maximum) - Double(x.minimum) + 1, ry = Double(y.maximum) - Double(y.minimum) + 1
        let mx = Double(x.minimum), my = Double(y.minimum)
        let m = matrix
        // u = (X − mx)/rx: x_px = W·(m0·u + m1·v + m2).
        let a = screen.width * m[0] / rx, b = screen.width * m[1] / ry
        let c = screen.width * (m[2] - m[0] * mx / rx - m[1] * my / ry)
        let d = screen.height * m[3] / rx, e = screen.height * m[4] / ry
        let f = screen.height * (m[5] - m[3] * mx / rx - m[4] * my / ry)
        let numbers = [a, b, c, d, e, f].map { Int(($0 * s).rounded()) }
        return (numbers + [Int(s), Int(screen.width), Int(screen.height)]).map(String.init).joined(separator: " ")
    }

    /// A number with up to six decimals, no exponent: 0.000123, 1.0625, -12.5, 1.0.
    public static func short(_ x: Double) -> String {
        guard x.isFinite, abs(x) < 1e12 else { return "\(x)" }
        let n = Int((x * 1_000_000).rounded())
        let whole = abs(n) / 1_000_000
        var fraction = String(abs(n) % 1_000_000)
        fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
        while fraction.count > 1, fraction.hasSuffix("0") { fraction.removeLast() }
        return (n < 0 ? "-" : "") + "\(whole).\(fraction)"
    }
}
