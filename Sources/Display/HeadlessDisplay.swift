import KioskCore

/// A display without DRM: frames land in a `PixelBuffer` (`screen`), for replays, benchmarks, tests
/// and `[display] card = "headless"`. Frames are shown at once, or, with a `SimulatedVBlank`, at
/// the next vblank of a refresh on the clock, as a paced panel shows them.
public final class HeadlessDisplay: FrameOutput {
    /// What the panel would show, in the panel's own orientation.
    public let screen: PixelBuffer
    public private(set) var flipCount = 0
    /// When the last frame reached the screen, on `clock`.
    public private(set) var lastFlipTime = Instant.zero
    public private(set) var isPoweredOn = true
    /// The clock a flip reads.
    private let clock: any InstantClock
    /// With a refresh rate, flips complete at the next vblank on the clock, not at once.
    public private(set) var vblank: SimulatedVBlank?
    /// With `learnsVBlanks`, the vblanks as the flips' times taught them, as `DRMDisplay` learns
    /// a panel's: the simulated refresh is then the kernel's side, and the loop knows only this.
    public private(set) var learned: VBlankGrid?

    /// `learnsVBlanks`: the loop is not told the simulated vblanks, it learns them from the flips.
    public init(width: Int, height: Int, format: PixelFormat = .xrgb8888, vblank: SimulatedVBlank? = nil,
                learnsVBlanks: Bool = false, clock: any InstantClock = MonotonicClock()) throws(DrawingResourceError) {
        screen = try PixelBuffer(width: width, height: height, format: format)
        self.vblank = vblank
        self.clock = clock
        if learnsVBlanks, let vblank { learned = VBlankGrid(refreshHz: Double(vblank.refreshHz)) }
    }

    public var summary: String { "headless \(width)x\(height)@\(refreshHz) \(screen.format)" }
    public var width: Int { screen.width }
    public var height: Int { screen.height }
    public var refreshHz: Int { vblank?.refreshHz ?? 60 }
    public var pollDescriptor: Int32? { nil }

    /// Copies the damaged rectangles of `shadow` onto the screen, turned by `rotation`.
    public func copy(from shadow: PixelBuffer, damage: [Rect], rotation: DisplayRotation = .upright) {
        FrameCopy.copy(from: shadow, to: PixelTarget(screen), damage: damage, rotation: rotation)
    }

    /// Shown at once (its time returned), or, paced, queued for the next vblank (nil: a flip event follows).
    @discardableResult
    public func present() throws(DisplayError) -> Instant? {
        guard vblank != nil else { return flipDone(at: clock.now) }
        vblank?.queueFlip(at: clock.now)
        return nil
    }

    /// The one place a frame reaches the (memory) screen.
    private func flipDone(at time: Instant) -> Instant {
        flipCount += 1
        lastFlipTime = time
        return time
    }

    /// Paced: the flip that completed by now, as DRM's flip event says it.
    public func handleEvents(_ flipped: (Instant) -> Void) throws(DisplayError) {
        guard let shown = vblank?.completeFlip(by: clock.now) else { return }
        learned?.flipCompleted(at: shown)
        flipped(flipDone(at: shown))
    }

    /// The first vblank after `t`; nil when frames are shown at once, or while the vblanks are
    /// being learned.
    public func nextVBlank(after t: Instant) -> Instant? {
        guard learned == nil else { return learned?.nextVBlank(after: t) }
        return vblank?.nextVBlank(after: t)
    }
    /// When the flip in flight completes; nil when none is.
    public var flipCompletion: Instant? { vblank?.pendingFlip }
    /// Paced at the simulated rate, or as learned; unknown without a simulated refresh.
    public var vblankTiming: VBlankTiming {
        guard let vblank else { return .unknown(reason: "frames are shown at once") }
        guard let learned else { return .paced(hz: Double(vblank.refreshHz)) }
        return learned.isTrusted ? .paced(hz: learned.refreshHz) : .learning
    }
    /// The simulated vblanks start over at another phase (a mode set again): a display that
    /// learns them finds its grid wrong at the next flip.
    public func restartVBlanks(phaseMicroseconds phase: Int64) { vblank?.restart(phaseMicroseconds: phase) }
    public func setPower(on: Bool) throws(DisplayError) { isPoweredOn = on }
    public func recover() throws(DisplayError) {}
    @discardableResult
    public func restore() -> DisplayError? { nil }
}
