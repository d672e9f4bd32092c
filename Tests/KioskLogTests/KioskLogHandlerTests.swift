import KioskCore
import KioskLog
import KioskTestSupport
import Synchronization
import Testing

/// A sink that keeps what it is given, for tests about what the handler writes rather than how.
final class RecordingSink: LogSink {
    private let recorded = Mutex<[String]>([])
    private let pending = Mutex<LogSinkProblem?>(nil)

    var lines: [String] { recorded.withLock { $0 } }

    func report(_ problem: LogSinkProblem) { pending.withLock { $0 = problem } }

    func enqueue(_ line: String) { recorded.withLock { $0.append(line) } }
    func flush() {}
    var fileDescriptor: Int32? { nil }
    var wantsWrite: Bool { false }
    var droppedLines: Int { 0 }
    var writtenLines: Int { lines.count }
    func takeProblem() -> LogSinkProblem? {
        pending.withLock { problem in
            defer { problem = nil }
            return problem
        }
    }
}

@Suite struct KioskLogHandlerTests {
    let clock = VirtualClock(5)
    let sink = RecordingSink()

    func logger(level: LogLevelSetting = LogLevelSetting(.info), repeatInterval: Double = 10) -> (Logger, LogWriter) {
        let writer = LogWriter(sinks: [sink], level: level, repeatInterval: repeatInterval, clock: clock.read)
        return (writer.logger(label: "test"), writer)
    }

    @Test func theLevelSettingChangesTheLevelOfALoggerThatAlreadyExists() {
        let level = LogLevelSetting(.info)
        let (logger, _) = logger(level: level)
        logger.debug("hidden")
        #expect(logger.logLevel == .info)

        level.level = .debug
        #expect(logger.logLevel == .debug)
        logger.debug("shown")

        level.level = .error
        logger.warning("hidden too")
        logger.error("shown too")
        #expect(sink.lines == ["[     5.000000] debug shown", "[     5.000000] error shown too"])
    }

    @Test func aLoggerThatSetsItsOwnLevelStopsFollowingTheSetting() {
        let level = LogLevelSetting(.info)
        var (pinned, _) = logger(level: level)
        pinned.logLevel = .warning
        level.level = .trace
        #expect(pinned.logLevel == .warning)
        pinned.info("hidden")
        #expect(sink.lines.isEmpty)
    }

    @Test(arguments: Logger.Level.allCases)
    func theLevelSettingRoundTripsEveryLevel(level: Logger.Level) {
        let setting = LogLevelSetting(.critical)
        setting.level = level
        #expect(setting.level == level)
    }

    @Test func loggerAndCallMetadataMergeWithTheCallWinning() {
        var (logger, _) = logger()
        logger[metadataKey: "drm.connector"] = "DSI-1"
        logger[metadataKey: "touch.slot"] = "from logger"
        logger.info("tap", metadata: ["touch.slot": "3"])
        #expect(sink.lines == ["[     5.000000] info tap drm.connector=DSI-1 touch.slot=3"])
    }

    @Test func aMessageBelowTheLevelIsNeverBuilt() {
        let (logger, _) = logger(level: LogLevelSetting(.info))
        nonisolated(unsafe) var built = 0
        func text() -> Logger.Message { built += 1; return "debug detail" }
        logger.debug(text())
        logger.info(text())
        #expect(built == 1)
        #expect(sink.lines == ["[     5.000000] info debug detail"])
    }

    @Test func aRepeatedMessageIsCountedNotWrittenUntilTheIntervalPasses() {
        let (logger, _) = logger(repeatInterval: 10)
        logger.warning("frame late", metadata: ["loop.ms": "21"])
        for ms in 22...30 {
            clock.advance(by: 1)
            logger.warning("frame late", metadata: ["loop.ms": "\(ms)"])
        }
        logger.info("frame late")
        clock.advance(by: 1)
        logger.warning("frame late", metadata: ["loop.ms": "31"])
        #expect(sink.lines == [
            "[     5.000000] warning frame late loop.ms=21",
            "[    14.000000] info frame late",
            "[    15.000000] warning frame late (repeated 9 times) loop.ms=31",
        ])
    }

    /// A touchscreen plugged in again within the interval: each device's line is written, and the
    /// count of one re-attached says which device it counts, whether it comes with the next line
    /// or alone once the device went quiet.
    @Test func deviceLinesAndTheirCountsAlwaysNameTheDevice() {
        let (logger, writer) = logger(repeatInterval: 10)
        func attached(_ node: Int) {
            logger.info("touchscreen attached", metadata: ["input.device": "/dev/input/event\(node)", "input.kind": "protocol B"])
        }
        attached(3)
        clock.advance(by: 1)
        attached(4)
        clock.advance(by: 1)
        attached(4)
        attached(3)
        clock.advance(by: 8)
        writer.writeRepeatSummaries()
        clock.advance(by: 2)
        attached(4)
        #expect(sink.lines == [
            #"[     5.000000] info touchscreen attached input.device=/dev/input/event3 input.kind="protocol B""#,
            #"[     6.000000] info touchscreen attached input.device=/dev/input/event4 input.kind="protocol B""#,
            #"[    15.000000] info touchscreen attached (repeated 1 times) input.device=/dev/input/event3 input.kind="protocol B""#,
            #"[    17.000000] info touchscreen attached (repeated 1 times) input.device=/dev/input/event4 input.kind="protocol B""#,
        ])
    }

    @Test func aBurstThatWentQuietIsSummarisedWhenAsked() {
        let (logger, writer) = logger(repeatInterval: 10)
        for _ in 0..<5 { logger.error("touch lost") }
        writer.writeRepeatSummaries()
        #expect(sink.lines.count == 1)
        clock.advance(by: 10)
        writer.writeRepeatSummaries()
        #expect(sink.lines == ["[     5.000000] error touch lost", "[    15.000000] error touch lost (repeated 4 times)"])
    }

    @Test func sinkProblemsAreLoggedOnceToTheLoggerGiven() {
        let (_, writer) = logger()
        sink.report(LogSinkProblem(path: "/dev/ttyUSB0", call: "open", errno: Errno(rawValue: 2), description: "serial console /dev/ttyUSB0 is not there"))
        let memory = InMemoryLogHandler()
        let stderrOnly = Logger(label: "stderr") { _ in memory }
        writer.reportProblems(to: stderrOnly)
        writer.reportProblems(to: stderrOnly)
        #expect(memory.entries == [
            InMemoryLogHandler.Entry(
                level: .warning, message: "serial console /dev/ttyUSB0 is not there",
                metadata: ["log.sink": "/dev/ttyUSB0", "log.call": "open"]),
        ])
    }
}
