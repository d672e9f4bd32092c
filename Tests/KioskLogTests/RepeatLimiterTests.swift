import KioskLog
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

    /// The table forgets the message written longest ago, not the one that came in first: a
    /// message written again is recent, whenever it first came.
    @Test func theLeastRecentlyWrittenIsEvictedNotTheFirstInserted() {
        var limiter = RepeatLimiter(interval: 10, capacity: 3)
        _ = limiter.admit(level: .info, message: "a", now: 0)
        _ = limiter.admit(level: .info, message: "b", now: 1)
        _ = limiter.admit(level: .info, message: "b", now: 1.5)
        _ = limiter.admit(level: .info, message: "c", now: 2)
        #expect(limiter.admit(level: .info, message: "a", now: 11).decision == .write(repeats: 0), "a written again: now the most recent")

        let full = limiter.admit(level: .info, message: "d", now: 12)
        #expect(full.evicted == RepeatLimiter.Summary(level: .info, message: "b", repeats: 1), "b was written longest ago")
        #expect(limiter.admit(level: .info, message: "a", now: 13).decision == .suppress, "a is still remembered")
        #expect(limiter.count == 3)
    }

    /// A line about a device names it, and another device's line is not a repeat of it.
    @Test func metadataThatNamesSomethingIsPartOfTheMessageAndNumbersAreNot() {
        var limiter = RepeatLimiter(interval: 10)
        let event3: Logger.Metadata = ["input.device": "/dev/input/event3", "input.name": "FT5406 memory based driver"]
        let event4: Logger.Metadata = ["input.device": "/dev/input/event4", "input.name": "FT5406 memory based driver"]
        #expect(limiter.admit(level: .info, message: "touchscreen attached", metadata: event3, now: 0).decision == .write(repeats: 0))
        #expect(limiter.admit(level: .info, message: "touchscreen attached", metadata: event4, now: 1).decision == .write(repeats: 0),
                "another device is another message")
        #expect(limiter.admit(level: .info, message: "touchscreen attached", metadata: event3, now: 2).decision == .suppress)
        #expect(limiter.admit(level: .info, message: "touchscreen attached", now: 2).decision == .write(repeats: 0),
                "without metadata it names no device: not the same line")

        // Figures are measurements: a new one every frame is still the same message.
        _ = limiter.admit(level: .warning, message: "render stage overran its budget", metadata: ["stage.took.ms": "21.50", "stage": "render"], now: 0)
        #expect(limiter.admit(level: .warning, message: "render stage overran its budget",
                              metadata: ["stage.took.ms": "22.75", "stage": "render"], now: 1).decision == .suppress)
        #expect(limiter.admit(level: .warning, message: "render stage overran its budget",
                              metadata: ["stage.took.ms": "22.75", "stage": "present"], now: 1).decision == .write(repeats: 0))
        #expect(RepeatLimiter.identity(of: ["a": "1", "b": "-2.5e3", "c": "event3", "d": "", "e": "800x480"])
                == ["c": "event3", "d": "", "e": "800x480"])
    }

    @Test func aCountHandedBackNamesWhatItCounts() {
        var limiter = RepeatLimiter(interval: 10, capacity: 1)
        let event3: Logger.Metadata = ["input.device": "/dev/input/event3", "input.resyncs": "4"]
        _ = limiter.admit(level: .info, message: "touchscreen attached", metadata: event3, now: 0)
        _ = limiter.admit(level: .info, message: "touchscreen attached", metadata: event3, now: 1)
        #expect(limiter.takeExpired(now: 10) == [RepeatLimiter.Summary(level: .info, message: "touchscreen attached", repeats: 1,
                                                                        metadata: ["input.device": "/dev/input/event3"])])
        _ = limiter.admit(level: .info, message: "touchscreen attached", metadata: event3, now: 11)
        let other = limiter.admit(level: .info, message: "touchscreen removed", metadata: event3, now: 12)
        #expect(other.evicted == RepeatLimiter.Summary(level: .info, message: "touchscreen attached", repeats: 1,
                                                        metadata: ["input.device": "/dev/input/event3"]))
    }
}
