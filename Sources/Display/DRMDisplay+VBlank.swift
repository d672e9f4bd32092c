import CDRM
import Glibc
import KioskCore

/// What `drmWaitVBlank` said of the last vblank.
enum VBlankQuery {
    case at(Instant)
    case failed(errno: Int32)
}

// The panel's vblanks, learned from the kernel's times of them (VBlankGrid): a page flip's
// completion event carries the time of the vblank that showed it, and when the display has been
// idle the kernel is asked for its last vblank. The loop draws late in the refresh only while
// they fall on the mode's grid; on a driver without vblank interrupts (virtio-gpu) it never does.
extension DRMDisplay {
    /// Sets up the grid for the mode, or says why there can be none: called once the card is open.
    func learnVBlankTiming() {
        guard let period = modePeriodMicroseconds else {
            vblankUnknownReason = "the mode \(mode) has no timings"
            return
        }
        guard vblankTimesAreMonotonic() == true else {
            // The times would be wall-clock (or unknown), not the loop's CLOCK_MONOTONIC.
            vblankUnknownReason = "the kernel's vblank times are not CLOCK_MONOTONIC"
            return
        }
        switch lastVBlank() {
        case .failed(let code) where code == EOPNOTSUPP || code == ENOTSUP || code == ENOSYS:
            vblankUnknownReason = "drmWaitVBlank: \(Errno(rawValue: code)); the driver has no vblank interrupts"
        case .failed:
            // EINVAL: the CRTC may be off until the mode is set (older kernels also say EINVAL
            // for a driver without vblank interrupts): asked again once it is.
            grid = VBlankGrid(periodMicroseconds: period)
            vblankAskAgain = true
        case .at:
            grid = VBlankGrid(periodMicroseconds: period)
        }
    }

    /// After the first mode set: a kernel that still gives no vblank time, whatever the errno,
    /// gives none; flip times alone cannot tell vblanks from a panel reporting at the refresh rate.
    func askForVBlanksAgain() {
        guard vblankAskAgain else { return }
        vblankAskAgain = false
        if case .failed(let code) = lastVBlank() {
            grid = nil
            vblankUnknownReason = "drmWaitVBlank: \(Errno(rawValue: code)) with the mode set; no vblank times"
        }
    }

    /// How long the grid stays good without a time from the kernel: a panel's clock may differ
    /// from the mode's by a few hundred ppm, 0.5 ms in a few seconds.
    static let vblankQueryAfterMicroseconds: Int64 = 1_000_000

    /// The first vblank after `t`; nil while the grid is not known (frames are then drawn at once).
    /// When the last time the grid saw is old, or it is not trusted yet, the kernel is asked for
    /// its last vblank first (at most once a refresh, never during a flip).
    public func nextVBlank(after t: Instant) -> Instant? {
        guard isPoweredOn, front != nil, var g = grid else { return nil }
        let stale = g.lastVBlank.map { t.microseconds - $0.microseconds > Self.vblankQueryAfterMicroseconds } ?? true
        if stale || !g.isTrusted, !isFlipPending,
           lastVBlankQuery.map({ Double(t.microseconds - $0.microseconds) >= g.periodMicroseconds }) ?? true {
            lastVBlankQuery = t
            if case .at(let vblank) = lastVBlank(), vblank <= t {
                g.vblankReported(at: vblank)
                grid = g
            }
        }
        return g.nextVBlank(after: t)
    }

    /// When the flip in flight is expected to complete: the first vblank after it was queued;
    /// nil when none is in flight or the vblanks are not known.
    public var flipCompletion: Instant? {
        guard isFlipPending, let queued = flipQueuedAt, isPoweredOn else { return nil }
        return grid?.nextVBlank(after: queued)
    }

    /// Whether frames are paced to the panel's vblanks, and at what rate.
    public var vblankTiming: VBlankTiming {
        if let reason = vblankUnknownReason { return .unknown(reason: reason) }
        guard isPoweredOn, let grid, grid.isTrusted else { return .learning }
        return .paced(hz: grid.refreshHz)
    }
}
