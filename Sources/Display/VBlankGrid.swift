import KioskCore

/// A panel's vblanks as learned from the kernel's times of them: a grid of one refresh period
/// (from the mode, exact) laid through the last vblank seen, trusted only while every time seen
/// falls on it.
///
/// A page flip's completion event carries the time of the vblank that showed it, so a panel that
/// flips teaches its grid. Each time seen must lie a whole number of periods after the one before
/// it, within `toleranceMicroseconds`; `confirmations` in a row make the grid trusted, and one
/// time off the grid makes it forgotten (it starts again from that time). virtio-gpu completes
/// flips at arbitrary moments, so its times never make a grid; a mode change, a blanked panel or
/// a recovered display start afresh (`forget()`). Until the grid is trusted `nextVBlank(after:)`
/// is nil: frames are drawn at once.
public struct VBlankGrid: Sendable, Equatable {
    /// One refresh, in microseconds (16 683.3 for 1080p at 59.94 Hz).
    public let periodMicroseconds: Double
    /// How far a time may lie from the grid and still be on it.
    public static let toleranceMicroseconds = 500.0
    /// Times in a row on the grid (after the first) before it is trusted.
    public static let confirmations = 4

    /// The last vblank seen on the grid, where the grid puts it: each time seen moves it only a
    /// part of the way from the grid's prediction (a quarter, once a few were seen), so one
    /// jittered time does not shift the next predictions by all its jitter. Nil when nothing is known.
    public private(set) var lastVBlank: Instant?
    /// Times seen on the grid in a row since it was last forgotten, the first not counted.
    public private(set) var streak = 0

    /// A grid for a mode of `periodMicroseconds` per refresh.
    public init(periodMicroseconds: Double) {
        precondition(periodMicroseconds > 0, "refresh period \(periodMicroseconds) µs")
        self.periodMicroseconds = periodMicroseconds
    }

    /// A grid for a refresh rate given in whole or fractional Hz (a simulated panel's).
    public init(refreshHz: Double) {
        self.init(periodMicroseconds: 1_000_000 / refreshHz)
    }

    /// A mode's exact refresh period, from its timings as the kernel has them (`drmModeModeInfo`):
    /// the pixel clock in kHz over the pixels of a whole frame, blanking included. Not `vrefresh`,
    /// which is rounded to whole Hz (a 59.94 Hz mode says 60, and in 10 s the two drift apart by
    /// 10 ms). An interlaced mode has a vblank every field (half a frame); a double-scanned one
    /// scans each line twice (twice the frame). Nil when the timings are missing.
    public static func periodMicroseconds(pixelClockKHz: Int, horizontalTotal: Int, verticalTotal: Int,
                                          interlaced: Bool = false, doubleScan: Bool = false) -> Double? {
        guard pixelClockKHz > 0, horizontalTotal > 0, verticalTotal > 0 else { return nil }
        var period = Double(horizontalTotal) * Double(verticalTotal) * 1000 / Double(pixelClockKHz)
        if interlaced { period /= 2 }
        if doubleScan { period *= 2 }
        return period
    }

    /// Refreshes a second, as the mode's timings say (59.94 for NTSC-like modes).
    public var refreshHz: Double { 1_000_000 / periodMicroseconds }

    /// True once enough times in a row have fallen on the grid, until one does not.
    public var isTrusted: Bool { lastVBlank != nil && streak >= Self.confirmations }

    /// A page flip completed at the vblank at `t` (the kernel's time in its event). Two flips
    /// never complete at one vblank: a time less than a period after the last is off the grid.
    public mutating func flipCompleted(at t: Instant) {
        observe(t, sameVBlankAllowed: false)
    }

    /// The kernel said its last vblank was at `t` (`drmWaitVBlank` for the current count): the
    /// vblank already seen, or a later one.
    public mutating func vblankReported(at t: Instant) {
        observe(t, sameVBlankAllowed: true)
    }

    /// Forgets the grid: the mode changed, the panel was blanked, the display was taken again.
    /// Frames are drawn at once until times teach it again.
    public mutating func forget() {
        lastVBlank = nil
        streak = 0
    }

    /// The first vblank strictly after `t`, never the last one seen; nil while the grid is not trusted.
    public func nextVBlank(after t: Instant) -> Instant? {
        guard isTrusted, let last = lastVBlank else { return nil }
        let since = Double(t.microseconds - last.microseconds)
        // Whole periods since the last vblank seen, then the one after `t`, to the microsecond.
        // The last one seen is past even when the grid puts it a little after `t` (its times
        // jitter, and the loop reads a flip's event just after its vblank): drawn at once for
        // it, the frame would make the vblank after, and inputs meanwhile wait a frame more.
        var k = max(1, (since / periodMicroseconds).rounded(.down) + 1)
        var next = Instant(microseconds: last.microseconds + Int64((k * periodMicroseconds).rounded()))
        // Rounding to the microsecond may land on `t` itself or before it.
        while next <= t {
            k += 1
            next = Instant(microseconds: last.microseconds + Int64((k * periodMicroseconds).rounded()))
        }
        return next
    }

    private mutating func observe(_ t: Instant, sameVBlankAllowed: Bool) {
        guard let last = lastVBlank else {
            lastVBlank = t
            streak = 0
            return
        }
        let since = Double(t.microseconds - last.microseconds)
        let periods = (since / periodMicroseconds).rounded()
        let offset = abs(since - periods * periodMicroseconds)
        let sameVBlank = periods == 0
        guard offset <= Self.toleranceMicroseconds, periods >= 0, !(sameVBlank && !sameVBlankAllowed) else {
            // Off the grid: whatever was learned is wrong now. Start again from this time.
            lastVBlank = t
            streak = 0
            return
        }
        guard !sameVBlank else { return }
        let predicted = Double(last.microseconds) + periods * periodMicroseconds
        // The mean of the first few times, then a quarter of the way: a first-order phase lock.
        let weight = 1 / Double(min(streak + 2, 4))
        lastVBlank = Instant(microseconds: Int64((predicted + (Double(t.microseconds) - predicted) * weight).rounded()))
        streak += 1
    }
}
