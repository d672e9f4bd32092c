import Logging

/// swift-log's handler for the kiosk: one line per message, through a shared `LogWriter`.
///
/// `logLevel` follows the writer's `LogLevelSetting`, so a config reload changes loggers that
/// already exist. Setting `logLevel` on one logger pins that logger alone (swift-log's value
/// semantics) and it stops following reloads.
public struct KioskLogHandler: LogHandler {
    public let writer: LogWriter
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    private var pinnedLevel: Logger.Level?

    public init(writer: LogWriter, metadataProvider: Logger.MetadataProvider? = nil) {
        self.writer = writer
        self.metadataProvider = metadataProvider
    }

    public var logLevel: Logger.Level {
        get { pinnedLevel ?? writer.level.level }
        set { pinnedLevel = newValue }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() {
            merged.merge(provided) { _, provided in provided }
        }
        if let explicit = event.metadata {
            merged.merge(explicit) { _, explicit in explicit }
        }
        if let error = event.error {
            merged["error"] = "\(error)"
        }
        writer.write(level: event.level, message: event.message.description, metadata: merged)
    }
}
