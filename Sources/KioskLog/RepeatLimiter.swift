import Logging

/// Decides whether a message is written or only counted because the same one (level and text,
/// metadata aside) was written less than `interval` seconds ago.
///
/// At 115200 baud a line is ~7 ms of wire time, so a message firing every frame would fill the
/// console and push everything else out. The table of recent messages is fixed (`capacity`
/// entries, the longest-unwritten evicted) so a flood of distinct messages costs no memory.
public struct RepeatLimiter: Sendable {
    public enum Decision: Sendable, Equatable {
        /// Write the message, with ` (repeated N times)` when `repeats` > 0.
        case write(repeats: Int)
        /// Counted; written with the count the next time the interval has passed.
        case suppress
    }

    /// A count that has to be written without waiting for the message to come again.
    public struct Summary: Sendable, Equatable {
        public var level: Logger.Level
        public var message: String
        public var repeats: Int

        public init(level: Logger.Level, message: String, repeats: Int) {
            self.level = level
            self.message = message
            self.repeats = repeats
        }
    }

    private struct Entry {
        var level: Logger.Level
        var message: String
        var lastWritten: Double
        var suppressed: Int
    }

    /// Seconds a message stays quiet after it was written; 0 or less: every message is written.
    public let interval: Double
    public let capacity: Int
    private var entries: [Entry] = []

    public init(interval: Double, capacity: Int = 64) {
        precondition(capacity > 0, "the repeat table holds at least one message")
        self.interval = interval
        self.capacity = capacity
        entries.reserveCapacity(capacity)
    }

    /// Messages the table remembers now; never more than `capacity`.
    public var count: Int { entries.count }

    /// Whether `message` at `level` is written at `now`, and the count of a message pushed out of
    /// the table to make room for it, which would otherwise be lost.
    public mutating func admit(level: Logger.Level, message: String, now: Double) -> (decision: Decision, evicted: Summary?) {
        guard interval > 0 else { return (.write(repeats: 0), nil) }
        if let index = entries.firstIndex(where: { $0.level == level && $0.message == message }) {
            if now - entries[index].lastWritten < interval {
                entries[index].suppressed += 1
                return (.suppress, nil)
            }
            let repeats = entries[index].suppressed
            entries[index].lastWritten = now
            entries[index].suppressed = 0
            return (.write(repeats: repeats), nil)
        }
        var evicted: Summary?
        if entries.count == capacity {
            let oldest = entries.indices.min { entries[$0].lastWritten < entries[$1].lastWritten }!
            let entry = entries.remove(at: oldest)
            if entry.suppressed > 0 {
                evicted = Summary(level: entry.level, message: entry.message, repeats: entry.suppressed)
            }
        }
        entries.append(Entry(level: level, message: message, lastWritten: now, suppressed: 0))
        return (.write(repeats: 0), evicted)
    }

    /// Counts whose interval has passed without the message coming again: a burst followed by
    /// silence would otherwise show as a single line. Each is reset as if written at `now`.
    public mutating func takeExpired(now: Double) -> [Summary] {
        var summaries: [Summary] = []
        for index in entries.indices where entries[index].suppressed > 0 && now - entries[index].lastWritten >= interval {
            summaries.append(Summary(level: entries[index].level, message: entries[index].message, repeats: entries[index].suppressed))
            entries[index].lastWritten = now
            entries[index].suppressed = 0
        }
        return summaries
    }
}
