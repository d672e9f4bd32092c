import KioskCore

/// A panel's refresh on a virtual clock: vblanks at a fixed rate, and a page flip queued at `t`
/// completing at the first vblank after `t`, as a real panel does it.
///
/// virtio-gpu completes flips at once, so this is the only paced display the tests can see. The
/// vblanks fall at `phase` plus whole periods on the clock, which has nothing to do with when a
/// touch panel's reports arrive: they are unsynchronised, as on the glass. (A trace written by a
/// program at exactly 60 Hz is the exception: try several phases.)
public struct SimulatedVBlank: Sendable {
    public let refreshHz: Int
    /// Where on the clock vblank 0 falls, in microseconds.
    public private(set) var phaseMicroseconds: Int64
    /// When the flip queued last completes; nil when none is in flight.
    public private(set) var pendingFlip: Instant?

    public init(refreshHz: Int, phaseMicroseconds: Int64 = 0) {
        precondition(refreshHz > 0, "refresh rate \(refreshHz)")
        self.refreshHz = refreshHz
        self.phaseMicroseconds = phaseMicroseconds
    }

    /// The first vblank strictly after `t`.
    public func nextVBlank(after t: Instant) -> Instant {
        // Vblank k is at k / hz seconds, to the microsecond.
        let since = t.microseconds - phaseMicroseconds
        var k = since * Int64(refreshHz) / 1_000_000 - 1
        while vblank(k) <= since { k += 1 }
        return Instant(microseconds: vblank(k) + phaseMicroseconds)
    }

    private func vblank(_ k: Int64) -> Int64 {
        (k * 1_000_000 + Int64(refreshHz) / 2) / Int64(refreshHz)
    }

    /// The vblanks start over at another phase, as when the mode is set again: what a display
    /// that learned them must notice. Only with no flip in flight.
    public mutating func restart(phaseMicroseconds phase: Int64) {
        precondition(pendingFlip == nil, "the vblanks restarted while a flip was in flight")
        phaseMicroseconds = phase
    }

    /// Queues a flip at `t`; it completes at the next vblank. One flip at a time, as with DRM.
    public mutating func queueFlip(at t: Instant) {
        precondition(pendingFlip == nil, "a flip was queued while another was in flight")
        pendingFlip = nextVBlank(after: t)
    }

    /// The time of the flip that has completed by `now`, if one has; it is then no longer pending.
    public mutating func completeFlip(by now: Instant) -> Instant? {
        guard let due = pendingFlip, due <= now else { return nil }
        pendingFlip = nil
        return due
    }
}
