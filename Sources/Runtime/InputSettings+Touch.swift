import InputEvents
import KioskConfig
import KioskCore
import Display
import Gestures

// One place where `[input]` becomes the decoder's calibration and filters: `run`, `replay`,
// `touches` and `calibrate` all take them from here, so what they print is what the gestures get.
extension InputSettings {
    /// The matrix (or identity), then the touches' rotation (or the one matching `[display]
    /// rotation`), then the flips. A pointercal needs the device: pass it, or it is not read.
    public func touchCalibration(displayRotation: Int, device: DeviceDescription? = nil, screen: Size) throws -> TouchCalibration {
        var base = TouchCalibration.identity
        if let calibration { base = try TouchCalibration(matrix: calibration) }
        if let pointercal, let device {
            base = try TouchCalibration(pointercalFile: pointercal, device: device, screen: (screen.width, screen.height))
        }
        return try base.then(touchOrientation(displayRotation: displayRotation))
    }

    /// What comes after the matrix: the touches' rotation and flips alone.
    public func touchOrientation(displayRotation: Int) throws -> TouchCalibration {
        try TouchCalibration.identity.rotated(clockwise: touchRotation(displayRotation: displayRotation))
            .flipped(horizontally: flipX, vertically: flipY)
    }

    /// The touches' turn: `[input] rotation` when given, else the one that matches the display's.
    public func touchRotation(displayRotation: Int) -> Int {
        rotation ?? DisplayRotation(degrees: displayRotation).map(\.matchingTouchRotation) ?? 0
    }

    /// The jitter, pressure and whole-touch filters, sizes in millimetres through `panel`.
    public func touchFilters(panel: PanelMetrics) -> TouchFilters {
        TouchFilters(jitterUnits: Int32(jitterUnits), minimumPressure: minimumPressure > 0 ? Int32(minimumPressure) : nil,
                     minimumTouchDuration: minimumTouchDuration, maximumTouchSizeMillimetres: maximumTouchSizeMillimetres,
                     ignoreRegions: ignore.map { Rect(x: $0[0], y: $0[1], width: $0[2], height: $0[3]) },
                     millimetresPerPixel: panel.widthMillimetres / panel.widthPixels)
    }
}
