#if canImport(Glibc)
import Glibc
#endif
import KioskCore
import Synchronization

/// What every kiosk logger shares: the sinks lines go to, the level, the repeat limiter and the clock.
///
/// Only the executable makes one and hands out its loggers; libraries just take a `Logger`.
public final class LogWriter: Sendable {
    public let sinks: [any LogSink]
    /// The level loggers follow unless one sets its own; change it on config reload.
    public let level: LogLevelSetting
    private let clock: @Sendable () -> Double
    private let limiter: Mutex<RepeatLimiter>

    /// - Parameters:
    ///   - repeatInterval: a message repeated within this many seconds is counted, not written.
    ///   - clock: seconds on a monotonic clock; tests pass a virtual one.
    public init(
        sinks: [any LogSink], level: LogLevelSetting, repeatInterval: Double = 10, repeatTableSize: Int = 64,
        clock: @escaping @Sendable () -> Double = MonotonicClock.seconds
    ) {
        self.sinks = sinks
        self.level = level
        self.clock = clock
        limiter = Mutex(RepeatLimiter(interval: repeatInterval, capacity: repeatTableSize))
    }

    /// A logger whose lines go through this writer.
    public func logger(label: String) -> Logger {
        Logger(label: label) { _ in KioskLogHandler(writer: self) }
    }

    /// Formats the message as one line and queues it on every sink, unless it is a repeat (the
    /// same level, text and identifying metadata: see `RepeatLimiter`).
    public func write(level: Logger.Level, message: String, metadata: Logger.Metadata) {
        let now = clock()
        // The result is stored from inside the closure, not returned from it: Swift 6.0.3 (Debian
        // trixie's) crashes compiling a tuple returned out of `Mutex.withLock` ("Remangling failed").
        var admitted: (decision: RepeatLimiter.Decision, evicted: RepeatLimiter.Summary?) = (.write(repeats: 0), nil)
        limiter.withLock { admitted = $0.admit(level: level, message: message, metadata: metadata, now: now) }
        let (decision, evicted) = admitted
        if let evicted {
            enqueue(LogLineFormat.line(timestamp: now, level: evicted.level, message: evicted.message, repeats: evicted.repeats,
                                       metadata: evicted.metadata))
        }
        guard case .write(let repeats) = decision else { return }
        enqueue(LogLineFormat.line(timestamp: now, level: level, message: message, repeats: repeats, metadata: metadata))
    }

    /// Writes ` (repeated N times)` for messages that went quiet with repeats still uncounted;
    /// call it now and then (with the stats line, say), or a burst then silence shows as one line.
    public func writeRepeatSummaries() {
        let now = clock()
        for summary in limiter.withLock({ $0.takeExpired(now: now) }) {
            enqueue(LogLineFormat.line(timestamp: now, level: summary.level, message: summary.message, repeats: summary.repeats,
                                       metadata: summary.metadata))
        }
    }

    /// Flushes every sink; the poll loop may instead flush only those poll reported.
    public func flush() {
        for sink in sinks { sink.flush() }
    }

    /// Writes what the sinks hold, waiting for them to take it for at most `seconds`: at exit,
    /// so the last lines ("stopping on SIGTERM") reach the serial line, yet a stuck wire cannot
    /// hold the process past its stop timeout. What is left after that is lost.
    public func drain(seconds: Double) {
        let deadline = MonotonicClock.seconds() + seconds
        var fds: [pollfd] = []
        while true {
            flush()
            fds.removeAll(keepingCapacity: true)
            for sink in sinks where sink.wantsWrite {
                if let fd = sink.fileDescriptor { fds.append(pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)) }
            }
            let left = deadline - MonotonicClock.seconds()
            guard !fds.isEmpty, left > 0 else { return }
            _ = fds.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), Int32(max(1, left * 1000))) }
        }
    }

    /// Logs each sink's new problem (serial device missing, stderr gone) to `logger`. The runtime
    /// passes its own logger: the line reaches stderr at once, and the sink in trouble holds it in
    /// its bounded buffer (or counts it dropped), so the serial log says why it was silent once the
    /// device is back.
    public func reportProblems(to logger: Logger) {
        for sink in sinks {
            guard let problem = sink.takeProblem() else { continue }
            logger.warning("\(problem.description)", metadata: ["log.sink": "\(problem.path)", "log.call": "\(problem.call)"])
        }
    }

    private func enqueue(_ line: String) {
        for sink in sinks { sink.enqueue(line) }
    }
}
