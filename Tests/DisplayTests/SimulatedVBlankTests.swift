import Display
import KioskCore
import Testing

/// A panel's refresh on the virtual clock: what `kiosk replay --refresh` shows frames at.
struct SimulatedVBlankTests {
    @Test func vblanksFallAtWholeRefreshesToTheMicrosecond() {
        let v = SimulatedVBlank(refreshHz: 60)
        #expect(v.nextVBlank(after: Instant(microseconds: 0)) == Instant(microseconds: 16_667))
        #expect(v.nextVBlank(after: Instant(microseconds: 16_666)) == Instant(microseconds: 16_667))
        #expect(v.nextVBlank(after: Instant(microseconds: 16_667)) == Instant(microseconds: 33_333))
        #expect(v.nextVBlank(after: Instant(microseconds: 999_999)) == Instant(microseconds: 1_000_000))
        // Sixty refreshes a second, however far the clock has run.
        let t = Instant(seconds: 86_400.25)
        let a = v.nextVBlank(after: t)
        var b = a
        for _ in 0..<60 { b = v.nextVBlank(after: b) }
        #expect(b.microseconds - a.microseconds == 1_000_000)
    }

    @Test func aPhaseMovesEveryVBlank() {
        let v = SimulatedVBlank(refreshHz: 60, phaseMicroseconds: 5_000)
        #expect(v.nextVBlank(after: Instant(microseconds: 0)) == Instant(microseconds: 5_000))
        #expect(v.nextVBlank(after: Instant(microseconds: 5_000)) == Instant(microseconds: 21_667))
        #expect(v.nextVBlank(after: Instant(microseconds: 1_004_999)) == Instant(microseconds: 1_005_000))
    }

    @Test func aFlipCompletesAtTheNextVBlankNotBefore() {
        var v = SimulatedVBlank(refreshHz: 60)
        v.queueFlip(at: Instant(microseconds: 20_000))
        #expect(v.pendingFlip == Instant(microseconds: 33_333))
        #expect(v.completeFlip(by: Instant(microseconds: 33_332)) == nil)
        #expect(v.pendingFlip != nil)
        #expect(v.completeFlip(by: Instant(microseconds: 40_000)) == Instant(microseconds: 33_333))
        #expect(v.pendingFlip == nil)
        // Queued exactly at a vblank, it misses it: the scan-out has begun.
        v.queueFlip(at: Instant(microseconds: 50_000))
        #expect(v.pendingFlip == Instant(microseconds: 66_667))
    }
}
