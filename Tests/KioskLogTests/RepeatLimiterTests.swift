import KioskLog
import Logging
import Testing

@Suite struct RepeatLimiterTests {
    @Test func aRepeatWithinTheIntervalIsCountedAndCarriedByTheNextWrite() {
        var limiter = RepeatLimiter(interval: 10)
        #expect(limiter.admit(level: .error, message: "touch lost", now: 0).decision == .write(repeats: 0))
        #expect(limiter.admit(level: .error, message: "touch lost", now: 1).decision == .suppress)
        #expect(limiter.admit(level: .error, message: "touch lost", now: 9.999).decision == .suppress)
        #expect(limiter.admit(level: .error, message: "touch lost", now: 10).decision == .write(repeats: 2))
        #expect(limiter.admit(level: .error, message: "touch lost", now: 15).decision == .suppress, "the interval restarts at the write")
        #expect(limiter.admit(level: .error, message: "touch lost", now: 20).decision == .write(repeats: 1))
    }

    @Test func aMessageAfterTheIntervalWithoutRepeatsCarriesNoCount() {
        var limiter = RepeatLimiter(interval: 10)
        _ = limiter.admit(level: .info, message: "reload", now: 0)
        #expect(limiter.admit(level: .info, message: "reload", now: 30).decision == .write(repeats: 0))
    }

    @Test func theLevelIsPartOfTheMessage() {
        var limiter = RepeatLimiter(interval: 10)
        _ = limiter.admit(level: .warning, message: "frame late", now: 0)
        #expect(limiter.admit(level: .error, message: "frame late", now: 1).decision == .write(repeats: 0))
        #expect(limiter.admit(level: .warning, message: "frame lat", now: 1).decision == .write(repeats: 0))
    }

    @Test(arguments: [0.0, -1.0])
    func aZeroIntervalWritesEverything(interval: Double) {
        var limiter = RepeatLimiter(interval: interval)
        for _ in 0..<3 {
            #expect(limiter.admit(level: .info, message: "same", now: 0).decision == .write(repeats: 0))
        }
        #expect(limiter.count == 0)
    }

    @Test func theTableStaysBoundedAndAnEvictedCountIsHandedBack() {
        var limiter = RepeatLimiter(interval: 10, capacity: 3)
        _ = limiter.admit(level: .info, message: "a", now: 0)
        _ = limiter.admit(level: .info, message: "a", now: 0.5)
        _ = limiter.admit(level: .info, message: "b", now: 1)
        _ = limiter.admit(level: .info, message: "c", now: 2)
        #expect(limiter.count == 3)

        let full = limiter.admit(level: .info, message: "d", now: 3)
        #expect(full.decision == .write(repeats: 0))
        #expect(full.evicted == RepeatLimiter.Summary(level: .info, message: "a", repeats: 1), "the oldest goes, with its count")
        #expect(limiter.count == 3)

        let next = limiter.admit(level: .info, message: "e", now: 4)
        #expect(next.evicted == nil, "b had no repeats to hand back")
        #expect(limiter.admit(level: .info, message: "b", now: 5).decision == .write(repeats: 0), "b was forgotten")
        #expect(limiter.count == 3)
    }

    @Test func countsOfMessagesThatWentQuietAreHandedBackOnce() {
        var limiter = RepeatLimiter(interval: 10)
        _ = limiter.admit(level: .error, message: "burst", now: 0)
        for step in 1...4 { _ = limiter.admit(level: .error, message: "burst", now: Double(step) / 10) }
        _ = limiter.admit(level: .info, message: "single", now: 0)

        #expect(limiter.takeExpired(now: 9.9).isEmpty)
        #expect(limiter.takeExpired(now: 10) == [RepeatLimiter.Summary(level: .error, message: "burst", repeats: 4)])
        #expect(limiter.takeExpired(now: 30).isEmpty)
        #expect(limiter.admit(level: .error, message: "burst", now: 15).decision == .suppress, "the summary counts as a write")
    }
}
