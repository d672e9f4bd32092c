import KioskConfig
import KioskCore
import KioskLog
#if canImport(Glibc)
import Glibc
#endif

/// The kiosk's log as `[log]` sets it up: the serial console and stderr behind one log
/// handler, with a level a reload can change. Both outputs are bounded and never block; the
/// loop writes what they hold when poll says they can take it.
public final class LogOutputs: LogPump {
    public let writer: LogWriter
    public let level: LogLevelSetting
    public let serial: SerialLogSink?
    public let standardError: StderrLogSink?
    private var problemLogger: Logger?
    private var lastSummaries = 0.0

    /// Builds the outputs; `override` is `kiosk run --log-level`. A baud the line cannot take is
    /// reported on stderr and the serial log left off: the kiosk runs on without it.
    public init(_ settings: LogSettings, override: Logger.Level?, now: Double = MonotonicClock.seconds()) {
        level = LogLevelSetting(override ?? Logger.Level(settings.level))
        var sinks: [any LogSink] = []
        var problem: String?
        if let path = settings.serial {
            do {
                let sink = try SerialLogSink(path: path, baud: settings.baud, capacity: settings.bufferLines, now: now)
                sinks.append(sink)
                serial = sink
            } catch {
                serial = nil
                problem = "serial log \(path): \(error); logging to stderr only"
            }
        } else {
            serial = nil
        }
        if settings.stderr || serial == nil {
            let sink = StderrLogSink(capacity: settings.bufferLines)
            sinks.append(sink)
            standardError = sink
        } else {
            standardError = nil
        }
        writer = LogWriter(sinks: sinks, level: level, repeatInterval: settings.repeatInterval)
        if let problem { writer.write(level: .error, message: problem, metadata: [:]) }
    }

    /// The kiosk's logger, writing here; once per process.
    public func bootstrap() -> Logger {
        let logger = writer.logger(label: "kiosk")
        problemLogger = logger
        return logger
    }

    public func descriptorsWantingWrite(_ body: (Int32) -> Void) {
        for sink in writer.sinks where sink.wantsWrite {
            if let fd = sink.fileDescriptor { body(fd) }
        }
    }

    public func flush() { writer.flush() }

    public func drain(seconds: Double) { writer.drain(seconds: seconds) }

    public func service(now: Double) {
        serial?.reopenIfNeeded(now: now)
        if let problemLogger { writer.reportProblems(to: problemLogger) }
        // A burst that went quiet is reported with its count, not left as its first line.
        if now - lastSummaries >= 1 {
            lastSummaries = now
            writer.writeRepeatSummaries()
        }
    }

    public var droppedLines: Int { writer.sinks.reduce(0) { $0 + $1.droppedLines } }

    public var needsService: Bool { serial != nil && serial?.fileDescriptor == nil }
}
