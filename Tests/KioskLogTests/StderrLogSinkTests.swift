import Glibc
import KioskLog
import KioskTestSupport
import Testing

@Suite struct StderrLogSinkTests {
    enum Reader: CaseIterable { case pipe, socket }

    /// A blocking descriptor pair like the one journald or a shell hands the kiosk as fd 2.
    func descriptors(_ reader: Reader) throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        switch reader {
        case .pipe: try #require(pipe(&fds) == 0)
        case .socket: try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0)
        }
        _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
        return (fds[0], fds[1])
    }

    @Test(arguments: Reader.allCases)
    func linesEndInLineFeedAndArriveInOrder(reader: Reader) throws {
        let fds = try descriptors(reader)
        defer { close(fds.read); close(fds.write) }
        let sink = StderrLogSink(fileDescriptor: fds.write, capacity: 8)
        for line in ["one", "two", "three"] { sink.enqueue(line) }
        #expect(drain(sink, from: fds.read, through: "three\n") == "one\ntwo\nthree\n")
        #expect(sink.writtenLines == 3)
    }

    @Test(arguments: Reader.allCases)
    func aFullReaderNeverBlocksAndTheSharedDescriptorStaysBlocking(reader: Reader) throws {
        let fds = try descriptors(reader)
        defer { close(fds.read); close(fds.write) }
        let flagsBefore = fcntl(fds.write, F_GETFL)
        let sink = StderrLogSink(fileDescriptor: fds.write, capacity: 32)
        let line = String(repeating: "y", count: 200)
        // A pipe holds 64 KiB, a Unix socket a few hundred: 4 MB cannot fit in either.
        let flood = 20_000
        for index in 0..<flood { sink.enqueue("\(index) \(line)") }

        #expect(fcntl(fds.write, F_GETFL) == flagsBefore, "the shared descriptor's flags are not touched")
        #expect(flagsBefore & O_NONBLOCK == 0)
        let dropped = sink.droppedLines
        #expect(dropped > 0)

        var text = drain(sink, from: fds.read, through: "dropped \(dropped) lines\n")
        sink.enqueue("after")
        text += read(fds.read, through: "after\n")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        let kept = flood - dropped
        try #require(lines.count == kept + 2)
        for index in 0..<kept {
            #expect(lines[index] == "\(index) \(line)", "line \(index) torn or out of order")
        }
        #expect(lines[kept] == "dropped \(dropped) lines")
        #expect(lines[kept + 1] == "after")
    }

    @Test(arguments: Reader.allCases)
    func aReaderThatWentAwayEndsTheOutputWithoutSIGPIPE(reader: Reader) throws {
        let fds = try descriptors(reader)
        defer { close(fds.write) }
        close(fds.read)
        let sink = StderrLogSink(fileDescriptor: fds.write, capacity: 8)
        sink.enqueue("nobody reads this")
        let problem = try #require(sink.takeProblem())
        #expect(problem.path == "stderr")
        #expect(problem.errno.rawValue == EPIPE)
        #expect(sink.fileDescriptor == nil)
        sink.enqueue("nor this")
        #expect(sink.droppedLines == 2)
        #expect(!sink.wantsWrite)
        #expect(sink.takeProblem() == nil)
    }

    @Test func enqueueCanLeaveTheWritingToThePollLoop() throws {
        let fds = try descriptors(.pipe)
        defer { close(fds.read); close(fds.write) }
        let sink = StderrLogSink(fileDescriptor: fds.write, capacity: 8, writeImmediately: false)
        sink.enqueue("queued")
        #expect(sink.wantsWrite)
        #expect(readAvailable(fds.read).isEmpty)
        sink.flush()
        #expect(!sink.wantsWrite)
        #expect(read(fds.read, through: "queued\n") == "queued\n")
    }
}
