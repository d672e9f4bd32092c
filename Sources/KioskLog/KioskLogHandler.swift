/// The kiosk's `LogHandler`: one line per message, through a shared `LogWriter`.
///
/// `logLevel` follows the writer's `LogLevelSetting`, so a config reload changes loggers that
/// already exist. Setting `logLevel` on one logger pins that logger alone (value semantics) and it
/// stops following reloads.
public struct KioskLogHandler: LogHandler {
    public let writer: LogWriter
    public var metadata: Logger.Metadata = [:]
    private var pinnedLevel: Logger.Level?

    public init(writer: LogWriter) {
        self.writer = writer
    }

    public var logLevel: Logger.Level {
        get { pinnedLevel ?? writer.level.level }
        set { pinnedLevel = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let explicit = event.metadata {
            merged.merge(explicit) { _, explicit in explicit }
        }
        writer.write(level: event.level, message: event.message.description, metadata: merged)
    }
}
