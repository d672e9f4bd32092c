import Display
import Gestures
import KioskCore
import Render

/// Where the loop's frames go: a DRM panel, or memory when there is none.
///
/// `present()` may complete later (a page flip); the loop polls `pollDescriptor` and calls
/// `handleEvents()`, and draws the next frame only once `isFlipPending` is false.
public protocol FrameOutput: AnyObject {
    /// `card0 connector Virtual-1 mode 800x480@60 xrgb8888`: the startup log line's words.
    var summary: String { get }
    var width: Int { get }
    var height: Int { get }
    /// Refreshes a second: one refresh is the default frame budget.
    var refreshHz: Int { get }
    /// Polled for page-flip events; nil when frames are shown at once.
    var pollDescriptor: Int32? { get }
    var isFlipPending: Bool { get }
    /// When the last frame reached the screen, on the monotonic clock.
    var lastFlipTime: Instant { get }
    var flipCount: Int { get }
    func copy(from shadow: PixelBuffer, damage: [Rect], rotation: DisplayRotation) throws(DisplayError)
    func present() throws(DisplayError)
    func handleEvents() throws(DisplayError)
    /// Blanks (false) or wakes (true) the panel.
    func setPower(on: Bool) throws(DisplayError)
    /// After a failed present: false while the display cannot be driven (master lost, unplugged).
    func recover() throws(DisplayError)
    /// Puts the display back as it was before kiosk; safe to call twice. Returns what could not
    /// be put back, nil when all was.
    @discardableResult
    func restore() -> DisplayError?
    /// The connector read again after a display hotplug event; nil for an output without one.
    func probeConnection() -> DisplayConnection?
}

extension FrameOutput {
    public func probeConnection() -> DisplayConnection? { nil }
}

extension DRMDisplay: FrameOutput {
    public var summary: String { "\(cardName) connector \(connectorName) mode \(mode) \(format)" }
    public var width: Int { mode.width }
    public var height: Int { mode.height }
    public var refreshHz: Int { mode.refresh > 0 ? mode.refresh : 60 }
    public var pollDescriptor: Int32? { fileDescriptor }
    public var lastFlipTime: Instant { Instant(microseconds: lastFlipMicroseconds) }

    public func probeConnection() -> DisplayConnection? { readConnection() }

    public func recover() throws(DisplayError) {
        guard isConnectorConnected() else { throw DisplayError("\(cardName): \(connectorName): nothing is connected") }
        // Whatever failed, take master again (a no-op when still held) and set the mode afresh.
        noteMasterLost()
        try reacquire()
    }
}

/// Frames drawn into memory and shown at once, or at the next vblank of a simulated refresh: a
/// bench without a panel, and the tests.
public final class HeadlessOutput: FrameOutput {
    public let display: HeadlessDisplay
    public private(set) var flipCount = 0
    public private(set) var lastFlipTime = Instant.zero
    public private(set) var isPoweredOn = true
    /// The clock a "flip" reads: without `vblank`, frames are on screen as soon as they are presented.
    private let now: () -> Instant

    /// With a refresh rate, flips complete at the next vblank on the clock, not at once.
    public private(set) var vblank: SimulatedVBlank?

    public init(width: Int, height: Int, format: PixelFormat, vblank: SimulatedVBlank? = nil, now: @escaping () -> Instant) throws(RenderError) {
        display = try HeadlessDisplay(width: width, height: height, format: format)
        self.vblank = vblank
        self.now = now
    }

    public var summary: String { "headless \(width)x\(height)@\(refreshHz) \(display.screen.format)" }
    public var width: Int { display.screen.width }
    public var height: Int { display.screen.height }
    public var refreshHz: Int { vblank?.refreshHz ?? 60 }
    public var pollDescriptor: Int32? { nil }
    public var isFlipPending: Bool { vblank?.pendingFlip != nil }
    public func copy(from shadow: PixelBuffer, damage: [Rect], rotation: DisplayRotation) throws(DisplayError) {
        display.copy(from: shadow, damage: damage, rotation: rotation)
    }
    public func present() throws(DisplayError) {
        if vblank != nil { return vblank!.queueFlip(at: now()) }
        flipCount += 1
        lastFlipTime = now()
    }
    public func handleEvents() throws(DisplayError) {
        guard let shown = vblank?.completeFlip(by: now()) else { return }
        flipCount += 1
        lastFlipTime = shown
    }
    public func setPower(on: Bool) throws(DisplayError) { isPoweredOn = on }
    public func recover() throws(DisplayError) {}
    @discardableResult
    public func restore() -> DisplayError? { nil }
}
