import KioskCore

/// How a touchscreen's calibration is made from what the integrator gave: a matrix or a tslib
/// pointercal file, then the panel's turn and flips. `kiosk run` (from `[input]`) and `kiosk
/// touches` (from its options) build their calibration here and nowhere else.
public struct CalibrationRecipe: Sendable, Equatable {
    /// libinput's six numbers, the first two rows of the 3x3 matrix.
    public var matrix: [Double]?
    /// A tslib pointercal file; it needs the device's axis ranges, so it applies once one is found.
    public var pointercal: String?
    /// Degrees clockwise: 0, 90, 180 or 270.
    public var rotation: Int
    public var flipX: Bool
    public var flipY: Bool

    public init(matrix: [Double]? = nil, pointercal: String? = nil, rotation: Int = 0, flipX: Bool = false, flipY: Bool = false) {
        self.matrix = matrix
        self.pointercal = pointercal
        self.rotation = rotation
        self.flipX = flipX
        self.flipY = flipY
    }

    /// The calibration for `device` on a screen of `screen` pixels: the pointercal file when one is
    /// given and the device is known, else the matrix (or none), then turned and flipped.
    /// Throws `FileError` for a pointercal file that cannot be used, `CalibrationError` for the rest.
    public func calibration(for device: DeviceDescription?, screen: Size) throws -> TouchCalibration {
        var base = TouchCalibration.identity
        if let pointercal, let device {
            base = try TouchCalibration(pointercalFile: pointercal, device: device, screen: (screen.width, screen.height))
        } else if let matrix {
            base = try TouchCalibration(matrix: matrix)
        }
        return try base.rotated(clockwise: rotation).flipped(horizontally: flipX, vertically: flipY)
    }
}
