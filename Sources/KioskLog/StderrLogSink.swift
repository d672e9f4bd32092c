import KioskCore
import Glibc
import Synchronization

/// stderr as a log sink (journald under systemd): the same bounded buffer as the serial console,
/// written without blocking and without changing the shared descriptor's flags.
///
/// fd 2 is shared with whatever else holds it (a shell's pipe, journald's socket), so setting
/// `O_NONBLOCK` on it would change it for them too. Instead each write is made non-blocking on its
/// own: on a socket (journald's stream) with `send(MSG_DONTWAIT | MSG_NOSIGNAL)`; on anything else
/// (pipe, terminal, file) after a zero-timeout poll for `POLLOUT`, writing at most one line of at
/// most `PIPE_BUF` bytes, which Linux then takes without blocking: `POLLOUT` on a pipe means a
/// free page, on a terminal room for more than a line. Lines end with LF only.
///
/// A write error other than EAGAIN (journald gone, EPIPE) ends the output for good: the sink
/// reports it once, forgets its descriptor, and counts every later line as dropped.
public final class StderrLogSink: LogSink {
    private let isSocket: Bool
    private let writeImmediately: Bool
    private let levelPrefixes: Bool
    private let state: Mutex<State>

    private struct State {
        var ring: LineRing
        var fd: Int32?
        var problem: LogSinkProblem?
    }

    /// - Parameters:
    ///   - fileDescriptor: 2 unless a test passes a pipe or socket; not closed by the sink.
    ///   - capacity: lines held while the reader is slow; never grows.
    ///   - maxLineBytes: longer lines are cut and end with `...`; at most `PIPE_BUF` - 1.
    ///   - writeImmediately: when the buffer is empty, `enqueue` tries one non-blocking write itself.
    ///   - levelPrefixes: start each line with its syslog priority (`<3>` for an error) for
    ///     journald (`JournalPriority`); nil: when the descriptor is the service's journal stream.
    public init(fileDescriptor: Int32 = STDERR_FILENO, capacity: Int, maxLineBytes: Int = LogLineLimit.bytes, writeImmediately: Bool = true,
                levelPrefixes: Bool? = nil) {
        var status = stat()
        isSocket = fstat(fileDescriptor, &status) == 0 && status.st_mode & S_IFMT == S_IFSOCK
        self.writeImmediately = writeImmediately
        self.levelPrefixes = levelPrefixes ?? JournalPriority.isJournalStream(fileDescriptor)
        let ring = LineRing(capacity: capacity, maxLineBytes: min(maxLineBytes, Int(PIPE_BUF) - 1), terminator: [0x0A])
        state = Mutex(State(ring: ring, fd: fileDescriptor, problem: nil))
    }

    public func enqueue(_ line: String) {
        state.withLock { state in
            guard state.fd != nil else {
                state.ring.countDropped()
                return
            }
            let wasEmpty = state.ring.isEmpty
            guard state.ring.enqueue(levelPrefixes ? JournalPriority.prefixed(line) : line), wasEmpty, writeImmediately else { return }
            drain(&state)
        }
    }

    public func flush() {
        state.withLock { drain(&$0) }
    }

    public var fileDescriptor: Int32? { state.withLock { $0.fd } }
    public var wantsWrite: Bool { state.withLock { !$0.ring.isEmpty } }
    public var droppedLines: Int { state.withLock { $0.ring.droppedLines } }
    public var writtenLines: Int { state.withLock { $0.ring.writtenLines } }

    public func takeProblem() -> LogSinkProblem? {
        state.withLock { state in
            defer { state.problem = nil }
            return state.problem
        }
    }

    private func drain(_ state: inout State) {
        guard let fd = state.fd else { return }
        let outcome = state.ring.drain { bytes in
            isSocket ? Self.send(fd, bytes) : Self.pollThenWrite(fd, bytes)
        }
        if case .failed(let error) = outcome {
            state.fd = nil
            state.ring.discardAll()
            state.problem = LogSinkProblem(
                path: "stderr", call: isSocket ? "send" : "write", errno: error,
                description: "stderr: write failed: \(error); no more log lines go to stderr")
        }
    }

    private static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> LineRing.WriteResult {
        switch systemCall({ Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL)) }) {
        case .success(let written): .wrote(written)
        case .failure(let error) where error == .wouldBlock: .wouldBlock
        case .failure(let error): .failed(error)
        }
    }

    private static func pollThenWrite(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> LineRing.WriteResult {
        var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        switch systemCall({ poll(&entry, 1, 0) }) {
        case .failure(let error): return .failed(error)
        case .success(0): return .wouldBlock
        case .success: break
        }
        let events = Int32(entry.revents)
        if events & POLLNVAL != 0 { return .failed(Errno(rawValue: EBADF)) }
        // A pipe without a reader says POLLERR next to POLLOUT; writing would raise SIGPIPE.
        if events & POLLERR != 0 { return .failed(Errno(rawValue: EPIPE)) }
        guard events & POLLOUT != 0 else {
            return events & POLLHUP != 0 ? .failed(Errno(rawValue: EPIPE)) : .wouldBlock
        }
        // One chunk per poll: POLLOUT promises room for PIPE_BUF bytes, not for everything queued.
        switch systemCall({ Glibc.write(fd, bytes.baseAddress, min(bytes.count, Int(PIPE_BUF))) }) {
        case .success(let written): return .wrote(written)
        case .failure(let error) where error == .wouldBlock: return .wouldBlock
        case .failure(let error): return .failed(error)
        }
    }
}
