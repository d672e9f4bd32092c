import Glibc
import KioskLog
import KioskTestSupport
import Testing

/// Under systemd, kiosk's stderr is journald's stream: each line carries its level's syslog
/// priority, so `journalctl -p err` finds the errors (checked end to end in the VM by
/// KioskServiceOnRealKernelTests).
@Suite struct JournalPriorityTests {
    static let levels: [(Logger.Level, Int)] = [(.critical, 2), (.error, 3), (.warning, 4), (.notice, 5), (.info, 6), (.debug, 7), (.trace, 7)]

    @Test func eachLevelHasItsSyslogPriority() {
        for (level, priority) in Self.levels {
            #expect(JournalPriority.syslog(level) == priority, "\(level)")
        }
    }

    @Test func aLineIsPrefixedWithThePriorityOfTheLevelAfterItsTimestamp() {
        for (level, priority) in Self.levels {
            let line = LogLineFormat.line(timestamp: 12.5, level: level, message: "info warning error", metadata: ["k": "error"])
            #expect(JournalPriority.prefixed(line) == "<\(priority)>" + line)
        }
        // Repeat summaries name their level too; a line without one is left at journald's default.
        let summary = LogLineFormat.line(timestamp: 1, level: .error, message: "touchscreen cannot be used", repeats: 3)
        #expect(JournalPriority.prefixed(summary).hasPrefix("<3>["))
        #expect(JournalPriority.prefixed("dropped 4 lines") == "dropped 4 lines")
        #expect(JournalPriority.prefixed("[  1.000000] loud oops") == "[  1.000000] loud oops")
    }

    @Test func onlyTheStreamJournaldGaveIsTakenForIt() throws {
        var fds: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        var status = stat()
        try #require(fstat(fds[1], &status) == 0)
        #expect(JournalPriority.isJournalStream(fds[1], journalStream: "\(status.st_dev):\(status.st_ino)"))
        // The other end of the pair is another inode: stderr redirected elsewhere.
        #expect(!JournalPriority.isJournalStream(fds[0], journalStream: "\(status.st_dev):\(status.st_ino)"))
        #expect(!JournalPriority.isJournalStream(fds[1], journalStream: nil))
        #expect(!JournalPriority.isJournalStream(fds[1], journalStream: "\(status.st_dev)"))
        #expect(!JournalPriority.isJournalStream(fds[1], journalStream: "x:\(status.st_ino)"))
    }

    @Test(arguments: [true, false])
    func theStderrSinkPrefixesItsLinesOnlyForTheJournal(journal: Bool) throws {
        var fds: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
        let sink = StderrLogSink(fileDescriptor: fds[1], capacity: 8, levelPrefixes: journal)
        let error = LogLineFormat.line(timestamp: 3, level: .error, message: "config reload failed")
        let info = LogLineFormat.line(timestamp: 4, level: .info, message: "config reloaded")
        sink.enqueue(error)
        sink.enqueue(info)
        let text = drain(sink, from: fds[0], through: "config reloaded\n")
        #expect(text == (journal ? "<3>\(error)\n<6>\(info)\n" : "\(error)\n\(info)\n"))
    }
}
