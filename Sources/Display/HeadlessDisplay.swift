import KioskCore

/// A display without DRM: frames land in a `PixelBuffer` (`screen`), for replays, benchmarks, tests
/// and `[display] card = "headless"`.
public final class HeadlessDisplay: FrameOutput {
    /// What the panel would show, in the panel's own orientation.
    public let screen: PixelBuffer
    public private(set) var flipCount = 0
    /// When the last frame reached the screen, on `clock`.
    public private(set) var lastFlipTime = Instant.zero
    public private(set) var isPoweredOn = true
    /// The clock a flip reads.
    private let clock: any InstantClock

    public init(width: Int, height: Int, format: PixelFormat = .xrgb8888, clock: any InstantClock = MonotonicClock()) throws(DrawingResourceError) {
        screen = try PixelBuffer(width: width, height: height, format: format)
        self.clock = clock
    }

    public var summary: String { "headless \(width)x\(height)@60 \(screen.format)" }
    public var width: Int { screen.width }
    public var height: Int { screen.height }
    public var refreshHz: Int { 60 }
    public var pollDescriptor: Int32? { nil }

    /// Copies the damaged rectangles of `shadow` onto the screen, turned by `rotation`.
    public func copy(from shadow: PixelBuffer, damage: [Rect], rotation: DisplayRotation = .upright) {
        FrameCopy.copy(from: shadow, to: PixelTarget(screen), damage: damage, rotation: rotation)
    }

    @discardableResult
    public func present() throws(DisplayError) -> Instant? { flipDone() }

    /// The one place a frame reaches the (memory) screen: at once, as presented.
    private func flipDone() -> Instant {
        flipCount += 1
        lastFlipTime = clock.now
        return lastFlipTime
    }

    public func handleEvents(_ flipped: (Instant) -> Void) throws(DisplayError) {}
    public func setPower(on: Bool) throws(DisplayError) { isPoweredOn = on }
    public func recover() throws(DisplayError) {}
    @discardableResult
    public func restore() -> DisplayError? { nil }
}
