import KioskLog
import Synchronization

/// A `LogHandler` that keeps every message it is given, for tests that read what was logged.
///
/// Copies share one store, so a logger made from it (and the loop's copies of that logger) all
/// write where the test reads.
public struct InMemoryLogHandler: LogHandler {
    /// One logged message, with the handler's metadata merged under the call's.
    public struct Entry: Sendable, Equatable {
        public var level: Logger.Level
        public var message: Logger.Message
        public var metadata: Logger.Metadata

        public init(level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata) {
            self.level = level
            self.message = message
            self.metadata = metadata
        }
    }

    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    private let store = Store()

    public init() {}

    /// Everything logged so far, oldest first.
    public var entries: [Entry] { store.entries.withLock { $0 } }

    public func log(event: LogEvent) {
        var merged = metadata
        if let explicit = event.metadata { merged.merge(explicit) { _, explicit in explicit } }
        let entry = Entry(level: event.level, message: event.message, metadata: merged)
        store.entries.withLock { $0.append(entry) }
    }

    private final class Store: Sendable {
        let entries = Mutex<[Entry]>([])
    }
}
