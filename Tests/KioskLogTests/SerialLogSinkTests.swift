import Glibc
import KioskCore
import KioskLog
import KioskTestSupport
import Testing

@Suite struct SerialLogSinkTests {
    @Test(arguments: [(1200, B1200), (9600, B9600), (115_200, B115200), (921_600, B921600)])
    func setsTheLineTo8N1RawAtTheBaud(baud: Int, constant: Int32) throws {
        let terminal = try PseudoTerminal()
        let sink = try SerialLogSink(path: terminal.slavePath, baud: baud, capacity: 8, now: 0)
        #expect(sink.fileDescriptor != nil)
        #expect(sink.takeProblem() == nil)

        let settings = try terminal.slaveSettings()
        var copy = settings
        #expect(cfgetospeed(&copy) == speed_t(constant))
        #expect(cfgetispeed(&copy) == speed_t(constant))
        #expect(settings.c_cflag & tcflag_t(CSIZE) == tcflag_t(CS8))
        #expect(settings.c_cflag & tcflag_t(PARENB) == 0)
        #expect(settings.c_cflag & tcflag_t(CSTOPB) == 0)
        #expect(settings.c_cflag & tcflag_t(truncatingIfNeeded: CRTSCTS) == 0)
        #expect(settings.c_cflag & tcflag_t(CLOCAL) != 0)
        #expect(settings.c_oflag & tcflag_t(OPOST) == 0)
        #expect(settings.c_iflag & tcflag_t(IXON | IXOFF) == 0)
    }

    @Test(arguments: [0, 1000, 14_400, 115_201, 1_000_000])
    func rejectsABaudTermiosHasNoConstantFor(baud: Int) {
        #expect {
            try SerialLogSink(path: "/dev/null", baud: baud, capacity: 8, now: 0)
        } throws: { error in
            "\(error)".contains("unsupported baud rate \(baud)") && "\(error)".contains("115200")
        }
    }

    @Test func linesArriveInOrderFormattedAndEndingInCRLF() throws {
        let terminal = try PseudoTerminal()
        let sink = try SerialLogSink(path: terminal.slavePath, baud: 115_200, capacity: 8, now: 0)
        let clock = VirtualClock(1234.56789)
        let writer = LogWriter(sinks: [sink], level: LogLevelSetting(.info), clock: clock.read)
        let logger = Logger(label: "test") { _ in KioskLogHandler(writer: writer) }

        logger.info("touch down", metadata: ["touch.slot": "3", "drm.connector": "HDMI-A-1"])
        clock.advance(by: 0.5)
        logger.warning("frame late", metadata: ["loop.stage": "render"])
        logger.error("last")

        let expected = [
            "[  1234.567890] info touch down drm.connector=HDMI-A-1 touch.slot=3",
            "[  1235.067890] warning frame late loop.stage=render",
            "[  1235.067890] error last",
        ]
        #expect(read(terminal.master, through: "last\r\n") == expected.map { $0 + "\r\n" }.joined())
        #expect(sink.writtenLines == 3)
        #expect(sink.droppedLines == 0)
        #expect(!sink.wantsWrite)
    }

    @Test func aSlowDeviceNeverBlocksDropsWholeLinesAndSaysHowMany() throws {
        let terminal = try PseudoTerminal()
        let sink = try SerialLogSink(path: terminal.slavePath, baud: 115_200, capacity: 16, now: 0)
        let line = String(repeating: "x", count: 90)
        // Far more than a pty buffers (a few tens of KiB): the writes must hit EAGAIN.
        let flood = 8000
        for index in 0..<flood { sink.enqueue("\(index) \(line)") }

        #expect(sink.wantsWrite)
        let dropped = sink.droppedLines
        #expect(dropped > 0)
        #expect(dropped < flood - 16)

        var text = drain(sink, from: terminal.master, through: "dropped \(dropped) lines\r\n")
        sink.enqueue("after 1")
        sink.enqueue("after 2")
        text += read(terminal.master, through: "after 2\r\n")
        let lines = text.split(separator: "\r\n", omittingEmptySubsequences: false).dropLast()
        let kept = flood - dropped
        try #require(lines.count == kept + 3)
        for index in 0..<kept {
            #expect(lines[index] == "\(index) \(line)", "line \(index) torn or out of order")
        }
        #expect(lines[kept] == "dropped \(dropped) lines")
        #expect(Array(lines[(kept + 1)...]) == ["after 1", "after 2"])
        #expect(sink.writtenLines == kept + 2)
        #expect(sink.droppedLines == dropped)
    }

    @Test func aMissingDeviceIsReportedOnceAndOpenedWhenItAppears() throws {
        let terminal = try PseudoTerminal()
        let directory = try temporaryDirectory()
        defer { removeDirectory(directory) }
        let path = directory + "/ttyUSB0"

        let sink = try SerialLogSink(path: path, baud: 115_200, capacity: 4, retryInterval: 5, now: 0)
        let problem = try #require(sink.takeProblem())
        #expect(problem.path == path)
        #expect(problem.errno.rawValue == ENOENT)
        #expect(problem.description.contains(path))
        #expect(problem.description.contains("plugged in"))
        #expect(sink.takeProblem() == nil)
        #expect(sink.fileDescriptor == nil)

        sink.enqueue("while missing")
        sink.flush()
        #expect(sink.wantsWrite)
        #expect(!sink.reopenIfNeeded(now: 5))
        #expect(sink.takeProblem() == nil, "the same cause is reported once")

        try #require(symlink(terminal.slavePath, path) == 0)
        #expect(!sink.reopenIfNeeded(now: 9.9), "retries wait for the interval")
        #expect(sink.fileDescriptor == nil)
        #expect(sink.reopenIfNeeded(now: 10))
        #expect(sink.fileDescriptor != nil)
        #expect(!sink.reopenIfNeeded(now: 20), "an open device is not reopened")

        #expect(drain(sink, from: terminal.master, through: "while missing\r\n") == "while missing\r\n")
        #expect(sink.takeProblem() == nil)
    }

    @Test func anUnpluggedDeviceIsClosedReportedAndReopened() throws {
        let first = try PseudoTerminal()
        let directory = try temporaryDirectory()
        defer { removeDirectory(directory) }
        let path = directory + "/serial0"
        try #require(symlink(first.slavePath, path) == 0)
        let sink = try SerialLogSink(path: path, baud: 115_200, capacity: 4, retryInterval: 5, now: 0)
        sink.enqueue("before")
        #expect(read(first.master, through: "before\r\n") == "before\r\n")

        first.hangUp()
        sink.enqueue("during")
        let problem = try #require(sink.takeProblem())
        #expect(problem.call == "write")
        #expect(problem.errno.rawValue == EIO)
        #expect(problem.description.contains(path))
        #expect(sink.fileDescriptor == nil)
        #expect(sink.wantsWrite)

        let second = try PseudoTerminal()
        try #require(unlink(path) == 0 && symlink(second.slavePath, path) == 0)
        #expect(sink.reopenIfNeeded(now: 1), "the first retry after a write error is immediate")
        sink.enqueue("after")
        #expect(drain(sink, from: second.master, through: "after\r\n") == "during\r\nafter\r\n")
    }

    @Test func aHangUpWithNothingQueuedClosesTheDevice() throws {
        let terminal = try PseudoTerminal()
        let sink = try SerialLogSink(path: terminal.slavePath, baud: 115_200, capacity: 4, now: 0)
        terminal.hangUp()
        sink.flush()
        #expect(sink.fileDescriptor == nil)
        #expect(try #require(sink.takeProblem()).description.contains("hung up"))
    }

    @Test func aPathThatIsNotATerminalIsAProblem() throws {
        let sink = try SerialLogSink(path: "/dev/null", baud: 115_200, capacity: 4, now: 0)
        let problem = try #require(sink.takeProblem())
        #expect(problem.errno.rawValue == ENOTTY)
        #expect(problem.description.contains("/dev/null is not a terminal"))
        #expect(sink.fileDescriptor == nil)
    }
}

func temporaryDirectory() throws -> String {
    var template = Array("/tmp/kiosk-log-test-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    try #require(made != nil)
    return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

func removeDirectory(_ path: String) {
    if let directory = opendir(path) {
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { unlink(path + "/" + name) }
        }
        closedir(directory)
    }
    rmdir(path)
}
