import Display
import KioskCore
import KioskLog

/// An output that knows when its vblanks fall: the loop then draws late in the refresh, not at
/// the first input, so that inputs arriving during the refresh join the frame instead of waiting
/// on its flip for the next one.
public protocol PacedOutput: FrameOutput {
    /// The first vblank after `t`; nil when the output does not know (frames are shown at once).
    func nextVBlank(after t: Instant) -> Instant?
    /// When the flip in flight completes; nil when none is.
    var flipCompletion: Instant? { get }
    /// Whether the vblanks are known, for the log.
    var vblankTiming: VBlankTiming { get }
}

extension HeadlessDisplay: PacedOutput {}

/// A panel's vblanks as its page flips' times teach them (DRMDisplay+VBlank.swift); on a driver
/// without vblank times (virtio-gpu), never known: frames are drawn at once.
extension DRMDisplay: PacedOutput {}

extension KioskLoop {
    /// How long before a vblank the loop draws (weston's "repaint window"): the frame's own work
    /// must fit in it for the flip to make that vblank. Input that arrives before this point is
    /// shown at the vblank; input after it at the next one, so the worst wait is one refresh plus
    /// this window.
    public static let repaintWindowMicroseconds: Int64 = 2_000

    /// True when a frame drawn now is drawn in time and no earlier than needed. On a paced output,
    /// before the repaint window of the next vblank, it is false, and `repaintAt` holds the moment
    /// to draw (a wake-up). Outputs that do not know their vblanks draw at once.
    func repaintDue(at now: Instant) -> Bool {
        guard let paced = pipeline.paced, let vblank = paced.nextVBlank(after: now) else { return true }
        let deadline = Instant(microseconds: vblank.microseconds - Self.repaintWindowMicroseconds)
        if now >= deadline {
            repaintAt = nil
            return true
        }
        repaintAt = deadline
        return false
    }
}

extension KioskLoop {
    /// Says in the log when the output's vblank timing changed: at startup whether it can be known
    /// at all, when it is first learned, and (at debug) when it is forgotten and learned again.
    func notePacing() {
        guard let paced = pipeline.paced else { return }
        let timing = paced.vblankTiming
        guard timing != pacingSaid else { return }
        let before = pacingSaid
        pacingSaid = timing
        switch timing {
        case .unknown(let reason):
            log.info("display: vblank timing unknown, drawing at once", metadata: ["display.vblank": "\(reason)"])
        case .paced(let hz):
            let line: Logger.Message = "display: paced to vblanks at \(fixedDecimal(hz, 2)) Hz"
            if pacedOnce { log.debug(line) } else { log.info(line) }
            pacedOnce = true
        case .learning:
            if case .paced = before {
                log.debug("display: vblank timing forgotten, drawing at once until page flips teach it again")
            }
        }
    }
}
