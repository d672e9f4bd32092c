import KioskCore

/// A display without DRM: frames land in a `PixelBuffer`, for replays and tests.
public final class HeadlessDisplay {
    /// What the panel would show, in the panel's own orientation.
    public let screen: PixelBuffer

    public init(width: Int, height: Int, format: PixelFormat = .xrgb8888) throws(DrawingResourceError) {
        screen = try PixelBuffer(width: width, height: height, format: format)
    }

    /// Copies the damaged rectangles of `shadow` onto the screen, turned by `rotation`.
    public func copy(from shadow: PixelBuffer, damage: [Rect], rotation: DisplayRotation = .upright) {
        FrameCopy.copy(from: shadow, to: PixelTarget(screen), damage: damage, rotation: rotation)
    }
}
