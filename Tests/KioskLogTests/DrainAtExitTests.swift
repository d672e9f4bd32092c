import Foundation
import Glibc
import KioskCore
import KioskLog
import KioskTestSupport
import Testing

/// `kiosk run` exiting: the last lines wait for the wire, for a bounded time only.
@Suite struct DrainAtExitTests {
    /// Lines queued behind a full pty, the last one the kiosk's final words.
    func backedUp(_ terminal: PseudoTerminal) throws -> (LogWriter, SerialLogSink) {
        let sink = try SerialLogSink(path: terminal.slavePath, baud: 115_200, capacity: 64, now: 0)
        let writer = LogWriter(sinks: [sink], level: LogLevelSetting(.info), repeatInterval: 0)
        try fill(terminal)
        for n in 0..<20 { writer.write(level: .info, message: "line \(n)", metadata: [:]) }
        writer.write(level: .info, message: "stopping on SIGTERM", metadata: [:])
        writer.flush()
        #expect(sink.droppedLines == 0)
        return (writer, sink)
    }

    /// Writes to the pty until it can take nothing more: a wire that nobody reads. The kernel
    /// moves what the slave wrote into the master's read buffer later, in a worker (which a loaded
    /// machine runs late), and only then has room again; so "full" is a condition on the kernel's
    /// state, not a pause: the master's buffer holds all n_tty keeps (N_TTY_BUF_SIZE - 1 bytes, the
    /// master being raw) and the slave still refuses. Until then, poll() waits for the room the
    /// worker makes.
    func fill(_ terminal: PseudoTerminal) throws {
        let fd = open(terminal.slavePath, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        try #require(fd >= 0)
        defer { close(fd) }
        let chunk = [UInt8](repeating: UInt8(ascii: "-"), count: 4096)
        let masterHolds: Int32 = 4095
        let end = MonotonicClock.seconds() + 60
        while MonotonicClock.seconds() < end {
            while write(fd, chunk, chunk.count) > 0 {}
            var queued: Int32 = 0
            _ = ioctl(terminal.master, UInt(FIONREAD), &queued)
            if queued >= masterHolds, write(fd, chunk, 1) <= 0 { return }
            var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            _ = poll(&p, 1, 100)
        }
        Issue.record("the pty never filled")
    }

    @Test func withNobodyReadingTheDrainGivesUpAtItsBound() throws {
        let terminal = try PseudoTerminal()
        let (writer, sink) = try backedUp(terminal)
        let start = MonotonicClock.seconds()
        writer.drain(seconds: 0.3)
        let took = MonotonicClock.seconds() - start
        #expect(took >= 0.29, "it waited for the wire: \(took) s")
        #expect(took < 2, "and no longer than its bound: \(took) s")
        #expect(sink.wantsWrite, "the wire took nothing: lines are still queued")
    }

    @Test func withAReaderTheLastLineArrivesBeforeTheDrainReturns() throws {
        let terminal = try PseudoTerminal()
        let (writer, sink) = try backedUp(terminal)
        #expect(sink.wantsWrite)
        let master = terminal.master
        let received = Received()
        // The far end starts reading only after the drain has begun waiting.
        let reader = Thread {
            usleep(100_000)
            received.append(read(master, through: "stopping on SIGTERM\r\n"))
        }
        reader.start()
        let start = MonotonicClock.seconds()
        writer.drain(seconds: 20)
        #expect(MonotonicClock.seconds() - start < 15, "it returned when the lines were out, not at its bound")
        #expect(!sink.wantsWrite)
        while !received.done { usleep(10_000) }
        #expect(received.text.hasSuffix("stopping on SIGTERM\r\n"))
    }
}

/// What the reading thread got; read by the test once the thread is done.
final class Received: @unchecked Sendable {
    private let lock = NSLock()
    private var value = ""
    private var finished = false
    func append(_ s: String) { lock.withLock { value += s; finished = true } }
    var text: String { lock.withLock { value } }
    var done: Bool { lock.withLock { finished } }
}
