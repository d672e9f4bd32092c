/// A value-typed logger: a label and a `LogHandler` that writes its messages.
///
/// kiosk's own front, shaped like swift-log's `Logger` (the same levels, `Metadata`, `info(_:metadata:)`
/// and the other level calls, `logLevel`, `subscript(metadataKey:)`), so code reads as it did with
/// swift-log. It replaced swift-log because swift-log 1.16 (the only version that resolves here) needs
/// Swift 6.2, and the kiosk must build with Debian trixie's Swift 6.0.3; nothing kiosk depends on logs
/// through swift-log. Messages and metadata are autoclosures: a call below the level builds neither.
public struct Logger: Sendable {
    /// How serious a message is, from the noisiest to the gravest; `rawValue` is what a log line shows.
    public enum Level: String, Codable, CaseIterable, Sendable, Comparable {
        case trace, debug, info, notice, warning, error, critical

        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rank < rhs.rank }

        private var rank: Int {
            switch self {
            case .trace: 0
            case .debug: 1
            case .info: 2
            case .notice: 3
            case .warning: 4
            case .error: 5
            case .critical: 6
            }
        }
    }

    /// Key-value pairs that go with a message; keys are dotted (`touch.slot`, `drm.connector`).
    public typealias Metadata = [String: MetadataValue]

    /// One metadata value: text, anything that describes itself (a number, a path), or a list.
    public indirect enum MetadataValue: Sendable, Equatable, CustomStringConvertible, ExpressibleByStringLiteral,
        ExpressibleByStringInterpolation, ExpressibleByArrayLiteral
    {
        case string(String)
        case stringConvertible(any CustomStringConvertible & Sendable)
        case array([MetadataValue])

        public init(stringLiteral value: String) { self = .string(value) }

        public init(arrayLiteral elements: MetadataValue...) { self = .array(elements) }

        /// Text as it is; a list as Swift writes an array of strings (`["1", "2"]`).
        public var description: String {
            switch self {
            case .string(let text): text
            case .stringConvertible(let value): value.description
            case .array(let values): values.map(\.description).description
            }
        }

        public static func == (lhs: MetadataValue, rhs: MetadataValue) -> Bool { lhs.description == rhs.description }
    }

    /// A message's text; a string literal or interpolation.
    public struct Message: Sendable, Equatable, CustomStringConvertible, ExpressibleByStringLiteral,
        ExpressibleByStringInterpolation
    {
        public let description: String

        public init(stringLiteral value: String) { description = value }

        public init(_ text: String) { description = text }
    }

    /// What the logger was made for (`kiosk`, `kiosk.replay`); not written on the line.
    public let label: String
    public var handler: any LogHandler

    /// A logger whose messages go to `factory`'s handler.
    public init(label: String, factory: (String) -> any LogHandler) {
        self.label = label
        handler = factory(label)
    }

    /// A logger that writes nothing: for a replay, whose loop must not log, and for tests that do not read it.
    public init(label: String) {
        self.init(label: label) { _ in DiscardingLogHandler() }
    }

    /// Messages below this level are not built; setting it pins this logger (and its copies) alone.
    public var logLevel: Level {
        get { handler.logLevel }
        set { handler.logLevel = newValue }
    }

    /// Metadata this logger adds to every message it writes.
    public subscript(metadataKey key: String) -> MetadataValue? {
        get { handler[metadataKey: key] }
        set { handler[metadataKey: key] = newValue }
    }

    public func log(level: Level, _ message: @autoclosure () -> Message, metadata: @autoclosure () -> Metadata? = nil) {
        guard level >= handler.logLevel else { return }
        handler.log(event: LogEvent(level: level, message: message(), metadata: metadata()))
    }

    public func trace(_ message: @autoclosure () -> Message, metadata: @autoclosure () -> Metadata? = nil) {
        log(level: .trace, message(), metadata: metadata())
    }

    public func debug(_ message: @autoclosure () -> Message, metadata: @autoclosure () -> Metadata? = nil) {
        log(level: .debug, message(), metadata: metadata())
    }

    public func info(_ message: @autoclosure () -> Message, metadata: @autoclosure () -> Metadata? = nil) {
        log(level: .info, message(), metadata: metadata())
    }

    public func notice(_ message: @autoclosure () -> Message, metadata: @autoclosure () -> Metadata? = nil) {
        log(level: .notice, message(), metadata: metadata())
    }

    public func warning(_ message: @autoclosure () -> Message, metadata: @autoclosure () -> Metadata? = nil) {
        log(level: .warning, message(), metadata: metadata())
    }

    public func error(_ message: @autoclosure () -> Message, metadata: @autoclosure () -> Metadata? = nil) {
        log(level: .error, message(), metadata: metadata())
    }

    public func critical(_ message: @autoclosure () -> Message, metadata: @autoclosure () -> Metadata? = nil) {
        log(level: .critical, message(), metadata: metadata())
    }
}

/// One message on its way to a handler, at or above the logger's level.
public struct LogEvent: Sendable {
    public var level: Logger.Level
    public var message: Logger.Message
    /// The call's own metadata, which wins over the handler's on a shared key.
    public var metadata: Logger.Metadata?

    public init(level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata? = nil) {
        self.level = level
        self.message = message
        self.metadata = metadata
    }
}

/// Where a `Logger`'s messages go: a value, so a copy of a logger that changes its level or
/// metadata changes only itself.
public protocol LogHandler: Sendable {
    var logLevel: Logger.Level { get set }
    var metadata: Logger.Metadata { get set }
    func log(event: LogEvent)
}

extension LogHandler {
    public subscript(metadataKey key: String) -> Logger.MetadataValue? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
}

/// A handler that drops every message (its level is `critical`, so none is even built below that).
public struct DiscardingLogHandler: LogHandler {
    public var logLevel: Logger.Level = .critical
    public var metadata: Logger.Metadata = [:]

    public init() {}

    public func log(event: LogEvent) {}
}
