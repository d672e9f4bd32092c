import KioskCore

/// Where a touch lands on the screen: calibration, then the panel's orientation, as one affine map.
///
/// Works on normalised coordinates (0...1 across each axis), in libinput's
/// LIBINPUT_CALIBRATION_MATRIX convention: `x' = a·x + b·y + c`, `y' = d·x + e·y + f`. Rotation
/// and flips are applied after the calibration, and are set apart from the display's rotation
/// (a panel mounted upside down behind a display rotated in software needs both).
public struct TouchCalibration: Hashable, Sendable, CustomStringConvertible {
    /// a b c d e f.
    public private(set) var matrix: [Double]

    public static let identity = TouchCalibration(uncheckedMatrix: [1, 0, 0, 0, 1, 0])

    private init(uncheckedMatrix: [Double]) { matrix = uncheckedMatrix }

    /// A calibration matrix of six numbers, as libinput's udev property takes it.
    public init(matrix: [Double]) throws(CalibrationError) {
        guard matrix.count == 6 else { throw .matrixSize(matrix.count) }
        guard matrix.allSatisfy(\.isFinite) else { throw .notFinite }
        self.matrix = matrix
    }

    /// Reads tslib's `/etc/pointercal`: `a b c d e f s [xres yres]`, mapping raw device units to
    /// screen pixels as `x = (a·X + b·Y + c) / s`; turned into normalised terms with the device's
    /// axis ranges and the resolution it was calibrated at (its own, or `screen` when it has none).
    public init(pointercal text: String, x: AxisInfo, y: AxisInfo, screen: (width: Double, height: Double)) throws(CalibrationError) {
        let numbers = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).map { Double($0) }
        guard numbers.count == 7 || numbers.count == 9, numbers.allSatisfy({ $0 != nil }) else {
            throw .pointercal("expected 7 integers 'a b c d e f s' (or 9, with the resolution), found '\(text.split(separator: "\n").first ?? "")'")
        }
        let n = numbers.map { $0! }
        guard n.allSatisfy(\.isFinite) else { throw .pointercal("expected finite numbers, found '\(text.split(separator: "\n").first ?? "")'") }
        let (a, b, c, d, e, f, s) = (n[0], n[1], n[2], n[3], n[4], n[5], n[6])
        guard s != 0 else { throw .pointercal("the divisor s is 0") }
        let width = n.count == 9 ? n[7] : screen.width, height = n.count == 9 ? n[8] : screen.height
        // Raw X = minX + u·rangeX, so x_px = (a·(minX + u·rX) + b·(minY + v·rY) + c) / s, and x' = x_px / width.
        let rx = Double(x.maximum) - Double(x.minimum) + 1, ry = Double(y.maximum) - Double(y.minimum) + 1
        let mx = Double(x.minimum), my = Double(y.minimum)
        let matrix = [
            a * rx / (s * width), b * ry / (s * width), (a * mx + b * my + c) / (s * width),
            d * rx / (s * height), e * ry / (s * height), (d * mx + e * my + f) / (s * height),
        ]
        // Numbers near the limits of a Double overflow here: a matrix of infinities puts every touch nowhere.
        guard matrix.allSatisfy(\.isFinite), width > 0, height > 0 else {
            throw .pointercal("the numbers give no usable calibration (too large, or a resolution of 0)")
        }
        self.matrix = matrix
    }

    /// A tslib `pointercal` for `device`, over the axes its touches are read from.
    public init(pointercal text: String, device d: DeviceDescription, screen: (width: Double, height: Double)) throws(CalibrationError) {
        let multitouch = d.isMultitouchB || d.isMultitouchA
        let (x, y) = multitouch ? (AbsoluteAxis.multitouchPositionX, AbsoluteAxis.multitouchPositionY) : (.x, .y)
        guard let xInfo = d.axes[x], let yInfo = d.axes[y] else {
            throw .pointercal("the device '\(d.name)' has no \(x.name)/\(y.name) to calibrate")
        }
        try self.init(pointercal: text, x: xInfo, y: yInfo, screen: screen)
    }

    /// The largest pointercal file read: it holds one line of numbers.
    public static let maximumPointercalSize = 64 << 10

    /// The tslib pointercal file at `path` for `device`; errors name the file.
    public init(pointercalFile path: String, device d: DeviceDescription, screen: (width: Double, height: Double)) throws(FileError) {
        let text = try TextFile.readText(path, what: "the pointercal file", limit: Self.maximumPointercalSize)
        do throws(CalibrationError) {
            self = try TouchCalibration(pointercal: text, device: d, screen: screen)
        } catch {
            throw FileError(path: path, line: 1, .malformed("\(error)"))
        }
    }

    public var isIdentity: Bool { self == .identity }

    /// Where normalised `(x, y)` lands, normalised.
    @inline(__always)
    public func apply(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
        (matrix[0] * x + matrix[1] * y + matrix[2], matrix[3] * x + matrix[4] * y + matrix[5])
    }

    /// This calibration followed by turning the touches `degrees` clockwise (0, 90, 180 or 270),
    /// as libinput's rotation matrices do: 90° takes (x, y) to (1 − y, x).
    public func rotated(clockwise degrees: Int) throws(CalibrationError) -> TouchCalibration {
        let turn: [Double]
        switch ((degrees % 360) + 360) % 360 {
        case 0: return self
        case 90: turn = [0, -1, 1, 1, 0, 0]
        case 180: turn = [-1, 0, 1, 0, -1, 1]
        case 270: turn = [0, 1, 0, -1, 0, 1]
        default: throw .rotation(degrees)
        }
        return then(turn)
    }

    /// This calibration followed by mirroring left-right and/or top-bottom.
    public func flipped(horizontally: Bool, vertically: Bool) -> TouchCalibration {
        then([horizontally ? -1 : 1, 0, horizontally ? 1 : 0, 0, vertically ? -1 : 1, vertically ? 1 : 0])
    }

    /// `next ∘ self`, both 2x3 affine maps.
    private func then(_ next: [Double]) -> TouchCalibration {
        let m = matrix, n = next
        return TouchCalibration(uncheckedMatrix: [
            n[0] * m[0] + n[1] * m[3], n[0] * m[1] + n[1] * m[4], n[0] * m[2] + n[1] * m[5] + n[2],
            n[3] * m[0] + n[4] * m[3], n[3] * m[1] + n[4] * m[4], n[3] * m[2] + n[4] * m[5] + n[5],
        ])
    }

    public var description: String { matrix.map { "\($0)" }.joined(separator: " ") }
}

/// A calibration that cannot be used, and what was expected.
public enum CalibrationError: Error, Equatable, CustomStringConvertible {
    case matrixSize(Int)
    case notFinite
    case rotation(Int)
    case pointercal(String)

    public var description: String {
        switch self {
        case .matrixSize(let n): "a calibration matrix has 6 numbers (a b c d e f), found \(n)"
        case .notFinite: "a calibration matrix must hold finite numbers"
        case .rotation(let d): "touch rotation must be 0, 90, 180 or 270 degrees, found \(d)"
        case .pointercal(let why): "pointercal: \(why)"
        }
    }
}
