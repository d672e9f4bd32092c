import Display
import KioskCore
import Testing

/// A panel's vblanks learned from the kernel's times of its page flips, on a virtual clock: when
/// the grid is trusted, how well it predicts, and what makes it forgotten.
struct VBlankGridTests {
    /// 1920x1080 at 59.94 Hz (CEA-861 mode 16 at 1000/1001 of its clock: 148 351.6 kHz, which
    /// the kernel's mode holds as 148 352 kHz).
    static let ntscPeriod = VBlankGrid.periodMicroseconds(pixelClockKHz: 148_352, horizontalTotal: 2200, verticalTotal: 1125)!
    /// A panel at exactly 60 Hz.
    static let sixtyPeriod = 1_000_000 / 60.0

    /// Vblank `k` of a panel whose vblank 0 is at `start` (µs), to the microsecond, as the kernel's events carry them.
    static func vblank(_ k: Int, period: Double, start: Int64 = 1_000_003_141) -> Instant {
        Instant(microseconds: start + Int64((Double(k) * period).rounded()))
    }

    /// A grid fed the flips at vblanks `ks`, with `jitter(k)` µs added to each time.
    static func taught(_ ks: some Sequence<Int>, period: Double, jitter: (Int) -> Int64 = { _ in 0 }) -> VBlankGrid {
        var g = VBlankGrid(periodMicroseconds: period)
        for k in ks {
            g.flipCompleted(at: Instant(microseconds: vblank(k, period: period).microseconds + jitter(k)))
        }
        return g
    }

    @Test func theModesPeriodComesFromItsTimingsNotTheRoundedRate() {
        #expect(abs(Self.ntscPeriod - 16_683.29) < 0.01)
        #expect(abs(1_000_000 / Self.ntscPeriod - 59.94) < 0.001)
        #expect(VBlankGrid.periodMicroseconds(pixelClockKHz: 30_000, horizontalTotal: 1000, verticalTotal: 500) == 1_000_000 / 60.0)
        #expect(VBlankGrid.periodMicroseconds(pixelClockKHz: 30_000, horizontalTotal: 1000, verticalTotal: 500, interlaced: true)
                == 1_000_000 / 120.0)
        #expect(VBlankGrid.periodMicroseconds(pixelClockKHz: 0, horizontalTotal: 1000, verticalTotal: 500) == nil)
    }

    @Test(arguments: [sixtyPeriod, ntscPeriod])
    func aRegularStreamIsLearnedAndPredictsWithinATenthOfAMillisecondForTenSeconds(period: Double) throws {
        var g = VBlankGrid(periodMicroseconds: period)
        // Not trusted until enough flips in a row fell on the grid: drawn at once meanwhile.
        for k in 0..<VBlankGrid.confirmations {
            g.flipCompleted(at: Self.vblank(k, period: period))
            #expect(!g.isTrusted)
            #expect(g.nextVBlank(after: Self.vblank(k, period: period)) == nil)
        }
        g.flipCompleted(at: Self.vblank(VBlankGrid.confirmations, period: period))
        #expect(g.isTrusted)
        let last = VBlankGrid.confirmations
        // From the last flip, every vblank of the next ten seconds, asked from anywhere in the refresh before it.
        var worst: Int64 = 0
        for k in (last + 1)...(last + Int(10_000_000 / period)) {
            let truth = Self.vblank(k, period: period)
            // Not 1 µs either side: the kernel's times and the predictions are whole microseconds.
            for before in [3, 2_000, Int64(period) - 3] {
                let asked = Instant(microseconds: truth.microseconds - before)
                let predicted = try #require(g.nextVBlank(after: asked))
                worst = max(worst, abs(predicted.microseconds - truth.microseconds))
            }
        }
        #expect(worst <= 100, "worst prediction \(worst) µs off")
        #expect(abs(g.refreshHz - 1_000_000 / period) < 1e-9)
    }

    @Test func theRoundedRateWouldDriftOffTheGridOfA5994HzPanel() {
        // What the exact period is for: with 60 Hz from `vrefresh`, a 59.94 Hz panel's flips a
        // second apart are 1 ms off the grid, and it is never trusted across such gaps.
        let g = Self.taught(stride(from: 0, through: 300, by: 60), period: Self.sixtyPeriod)
        #expect(g.isTrusted)
        var wrong = VBlankGrid(periodMicroseconds: Self.sixtyPeriod)
        for k in stride(from: 0, through: 300, by: 60) { wrong.flipCompleted(at: Self.vblank(k, period: Self.ntscPeriod)) }
        #expect(!wrong.isTrusted)
    }

    @Test func jitterWithinTheToleranceKeepsTheGridAndThePredictionsWithinIt() throws {
        // The kernel's times wobble by the interrupt's latency: up to 0.3 ms either way here, so
        // two in a row may be 0.6 ms further apart than a period.
        let jitter: (Int) -> Int64 = { k in [0, 300, -250, 120, -300, 40][k % 6] }
        let g = Self.taught(0..<600, period: Self.sixtyPeriod, jitter: jitter)
        #expect(g.isTrusted)
        let truth = Self.vblank(601, period: Self.sixtyPeriod)
        let predicted = try #require(g.nextVBlank(after: Self.vblank(600, period: Self.sixtyPeriod)))
        #expect(abs(predicted.microseconds - truth.microseconds) <= 200)
    }

    @Test func aMissedVBlankIsStillOnTheGrid() throws {
        // A frame that took too long flips one vblank late: two periods after the last, or three.
        var g = Self.taught([0, 1, 2, 3, 5, 8, 9], period: Self.ntscPeriod)
        #expect(g.isTrusted)
        g.flipCompleted(at: Self.vblank(11, period: Self.ntscPeriod))
        #expect(g.isTrusted)
        let next = try #require(g.nextVBlank(after: Self.vblank(11, period: Self.ntscPeriod)))
        #expect(abs(next.microseconds - Self.vblank(12, period: Self.ntscPeriod).microseconds) <= 1)
    }

    @Test func aTimeOffTheGridForgetsItAndItIsLearnedAgainFromThere() throws {
        var g = Self.taught(0..<10, period: Self.sixtyPeriod)
        #expect(g.isTrusted)
        // 0.6 ms off: more than the tolerance.
        let off = Instant(microseconds: Self.vblank(10, period: Self.sixtyPeriod).microseconds + 600)
        g.flipCompleted(at: off)
        #expect(!g.isTrusted)
        #expect(g.nextVBlank(after: off) == nil)
        // The panel's vblanks from there on: learned again after as many flips as at first.
        for k in 1...VBlankGrid.confirmations {
            #expect(!g.isTrusted)
            g.flipCompleted(at: Instant(microseconds: off.microseconds + Int64((Double(k) * Self.sixtyPeriod).rounded())))
        }
        #expect(g.isTrusted)
    }

    @Test func virtioLikeFlipTimesAreNeverTrusted() {
        // virtio-gpu completes a flip as soon as the emulator has copied it: at the moment the
        // loop drew plus a little, whatever the refresh. (Times alone cannot tell a touch panel
        // reporting at exactly the refresh rate from vblanks: virtio-gpu is told apart for sure
        // by drmWaitVBlank's EOPNOTSUPP, in the VM test. Here: irregular times never make a grid.)
        var g = VBlankGrid(periodMicroseconds: Self.sixtyPeriod)
        var t: Int64 = 5_000_000
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var trusted = 0
        for _ in 0..<5_000 {
            // A small deterministic generator: gaps of 0.3 to 40 ms.
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            t += 300 + Int64((state >> 33) % 39_700)
            g.flipCompleted(at: Instant(microseconds: t))
            if g.isTrusted { trusted += 1 }
        }
        #expect(trusted == 0)
        // Flips back to back, each well under a refresh after the last: never on the grid.
        var fast = VBlankGrid(periodMicroseconds: Self.sixtyPeriod)
        for k in 0..<2000 { fast.flipCompleted(at: Instant(microseconds: 9_000_000 + Int64(k) * 480)) }
        #expect(!fast.isTrusted)
    }

    @Test func twoFlipsNeverCompleteAtOneVBlankButTheKernelMayReportTheSameVBlankAgain() {
        var g = Self.taught(0..<5, period: Self.sixtyPeriod)
        #expect(g.isTrusted)
        // drmWaitVBlank's last vblank, asked twice in one refresh: the same time, still on the grid.
        g.vblankReported(at: Self.vblank(4, period: Self.sixtyPeriod))
        #expect(g.isTrusted)
        g.vblankReported(at: Self.vblank(7, period: Self.sixtyPeriod))
        #expect(g.isTrusted)
        // A second flip event at the same vblank is no panel's: forgotten.
        g.flipCompleted(at: Self.vblank(7, period: Self.sixtyPeriod))
        #expect(!g.isTrusted)
    }

    @Test func aGapOfSecondsStaysOnTheGrid() throws {
        var g = Self.taught(0..<5, period: Self.ntscPeriod)
        // Idle for 7 s, then a drag: its first flip is on the grid, and trusted at once.
        let later = 5 + Int(7_000_000 / Self.ntscPeriod)
        g.flipCompleted(at: Self.vblank(later, period: Self.ntscPeriod))
        #expect(g.isTrusted)
        let next = try #require(g.nextVBlank(after: Self.vblank(later, period: Self.ntscPeriod)))
        #expect(abs(next.microseconds - Self.vblank(later + 1, period: Self.ntscPeriod).microseconds) <= 1)
    }

    @Test func aPanelWhoseClockIsALittleOffIsLearnedAgainAfterAGap() throws {
        // The panel runs 0.02% slower than its mode says: 3.3 µs a refresh, 1 ms over five seconds.
        let real = Self.sixtyPeriod * 1.0002
        var g = VBlankGrid(periodMicroseconds: Self.sixtyPeriod)
        for k in 0..<10 { g.flipCompleted(at: Self.vblank(k, period: real)) }
        #expect(g.isTrusted)
        let after = 10 + 300
        g.flipCompleted(at: Self.vblank(after, period: real))
        #expect(!g.isTrusted, "1 ms off after five seconds: forgotten")
        for k in (after + 1)...(after + VBlankGrid.confirmations) { g.flipCompleted(at: Self.vblank(k, period: real)) }
        #expect(g.isTrusted)
    }

    @Test func aGridIsLearnedOnlyAtItsModesPeriod() throws {
        // A 50 Hz mode's grid: 50 Hz flips are learned on it.
        var g = VBlankGrid(periodMicroseconds: 20_000)
        #expect(!g.isTrusted)
        for k in 0...VBlankGrid.confirmations { g.flipCompleted(at: Self.vblank(k, period: 20_000, start: 50_000_000)) }
        #expect(g.isTrusted)
        #expect(g.refreshHz == 50)
        // And a 50 Hz stream on a grid still at 60 Hz is never trusted.
        let stale = Self.taught(0..<50, period: Self.sixtyPeriod)
        var wrong = stale
        wrong.forget()
        for k in 0..<50 { wrong.flipCompleted(at: Self.vblank(k, period: 20_000)) }
        #expect(!wrong.isTrusted)
    }

    @Test func forgettingDrawsAtOnceUntilLearnedAgain() {
        var g = Self.taught(0..<10, period: Self.sixtyPeriod)
        g.forget()
        #expect(!g.isTrusted)
        #expect(g.lastVBlank == nil)
        #expect(g.nextVBlank(after: Self.vblank(10, period: Self.sixtyPeriod)) == nil)
    }
}
