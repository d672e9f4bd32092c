import KioskCore

/// The physical size of the panel, which turns the engine's millimetre thresholds into pixels.
public struct PanelMetrics: Hashable, Sendable {
    public var widthPixels: Double
    public var heightPixels: Double
    public var widthMillimetres: Double
    public var heightMillimetres: Double

    public init(widthPixels: Double, heightPixels: Double, widthMillimetres: Double, heightMillimetres: Double) {
        self.widthPixels = widthPixels
        self.heightPixels = heightPixels
        self.widthMillimetres = widthMillimetres
        self.heightMillimetres = heightMillimetres
    }

    /// The Raspberry Pi 7" Touch Display: 800x480 pixels on a 154.2x85.9 mm active area.
    public static let raspberryPi7Inch = PanelMetrics(
        widthPixels: 800, heightPixels: 480, widthMillimetres: 154.2, heightMillimetres: 85.9)

    /// Pixels per millimetre, the mean of both axes (the 7" panel's pixels are square to 0.3%).
    public var pixelsPerMillimetre: Double {
        (widthPixels / widthMillimetres + heightPixels / heightMillimetres) / 2
    }

    public func pixels(millimetres: Double) -> Double { millimetres * pixelsPerMillimetre }
    public func millimetres(pixels: Double) -> Double { pixels / pixelsPerMillimetre }
}
