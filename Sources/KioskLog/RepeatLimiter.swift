
/// Decides whether a message is written or only counted because the same one was written less
/// than `interval` seconds ago.
///
/// "The same" is the level, the text and the metadata that says what the line is about (a device
/// path, a name, an error): `touchscreen attached input.device=/dev/input/event3` and the same for
/// event4 are two messages, each written. Metadata that is a number (a measurement or a count,
/// `loop.ms=21`) is left out, so a line that fires every frame with a new figure is still one
/// message. The count line that follows carries the identifying metadata, so it names its device.
///
/// At 115200 baud a line is ~7 ms of wire time, so a message firing every frame would fill the
/// console and push everything else out. The table of recent messages is fixed (`capacity`
/// entries, the least recently written evicted) so a flood of distinct messages costs no memory.
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
        /// The metadata that tells this message from others with the same text (which device).
        public var metadata: Logger.Metadata

        public init(level: Logger.Level, message: String, repeats: Int, metadata: Logger.Metadata = [:]) {
            self.level = level
            self.message = message
            self.repeats = repeats
            self.metadata = metadata
        }
    }

    private struct Entry {
        var level: Logger.Level
        var message: String
        var identity: Logger.Metadata
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

    /// The part of `metadata` that names what a line is about: every value but numbers.
    public static func identity(of metadata: Logger.Metadata) -> Logger.Metadata {
        var identity: Logger.Metadata = [:]
        for (key, value) in metadata {
            let text = "\(value)"
            if Double(text) == nil { identity[key] = .string(text) }
        }
        return identity
    }

    /// Whether `message` at `level` with `metadata` is written at `now`, and the count of a
    /// message pushed out of the table to make room for it, which would otherwise be lost.
    public mutating func admit(level: Logger.Level, message: String, metadata: Logger.Metadata = [:],
                               now: Double) -> (decision: Decision, evicted: Summary?) {
        guard interval > 0 else { return (.write(repeats: 0), nil) }
        let identity = metadata.isEmpty ? [:] : Self.identity(of: metadata)
        if let index = entries.firstIndex(where: { $0.level == level && $0.message == message && $0.identity == identity }) {
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
                evicted = Summary(level: entry.level, message: entry.message, repeats: entry.suppressed, metadata: entry.identity)
            }
        }
        entries.append(Entry(level: level, message: message, identity: identity, lastWritten: now, suppressed: 0))
        return (.write(repeats: 0), evicted)
    }

    /// Counts whose interval has passed without the message coming again: a burst followed by
    /// silence would otherwise show as a single line. Each is reset as if written at `now`.
    public mutating func takeExpired(now: Double) -> [Summary] {
        var summaries: [Summary] = []
        for index in entries.indices where entries[index].suppressed > 0 && now - entries[index].lastWritten >= interval {
            let entry = entries[index]
            summaries.append(Summary(level: entry.level, message: entry.message, repeats: entry.suppressed, metadata: entry.identity))
            entries[index].lastWritten = now
            entries[index].suppressed = 0
        }
        return summaries
    }
}
