import KioskCore

/// Where the loop's frames go: a DRM panel (`DRMDisplay`), or memory when there is none
/// (`HeadlessDisplay`).
///
/// A frame is `copy`'d into the back buffer and `present`ed. A panel shows it at its next
/// vblank: `present()` returns nil, and the completed flip reaches `handleEvents(_:)` once
/// `pollDescriptor` is readable. Until then the next frame must wait.
public protocol FrameOutput: AnyObject {
    /// `card0 connector Virtual-1 mode 800x480@60 xrgb8888`: the startup log line's words.
    var summary: String { get }
    var width: Int { get }
    var height: Int { get }
    /// Refreshes a second: one refresh is the default frame budget.
    var refreshHz: Int { get }
    /// Polled for page-flip events; nil when frames are shown as soon as they are presented.
    var pollDescriptor: Int32? { get }
    /// Page flips completed so far.
    var flipCount: Int { get }
    /// Writes the damaged rectangles of `shadow` (shadow coordinates) into the back buffer.
    func copy(from shadow: PixelBuffer, damage: [Rect], rotation: DisplayRotation) throws(DisplayError)
    /// Shows the back buffer. Returns when it reached the screen if it did at once; nil when a
    /// page flip is queued, whose completion `handleEvents(_:)` reports.
    @discardableResult
    func present() throws(DisplayError) -> Instant?
    /// Reads the events waiting on `pollDescriptor` and calls `flipped` with the time of each
    /// page flip completed; returns at once when there are none.
    func handleEvents(_ flipped: (Instant) -> Void) throws(DisplayError)
    /// Blanks (false) or wakes (true) the panel.
    func setPower(on: Bool) throws(DisplayError)
    /// After a failed present or an unplug: takes the display again and forgets what its buffers
    /// held, so the next frame is whole. Throws while the display cannot be driven (master held
    /// by another process, nothing connected).
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

    public func probeConnection() -> DisplayConnection? { readConnection() }

    public func recover() throws(DisplayError) {
        guard isConnectorConnected() else { throw DisplayError(card: cardName, .nothingConnected(connector: connectorName, named: false)) }
        // Whatever failed, take master again (a no-op when still held) and set the mode afresh.
        noteMasterLost()
        try reacquire()
    }
}
