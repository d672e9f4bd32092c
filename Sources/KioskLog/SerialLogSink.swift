import KioskCore
import Glibc
import Synchronization

/// The serial console as a log sink: a bounded line buffer written to the device without
/// blocking, reopened every `retryInterval` seconds while the device is missing or unplugged.
///
/// Lines end with CRLF: the line is raw (no `OPOST`), so the kernel adds no CR, and serial
/// terminals (minicom, screen, PuTTY) want one to return to the first column.
public final class SerialLogSink: LogSink {
    public let path: String
    public let baud: BaudRate
    /// Seconds between attempts to open the device while it cannot be opened.
    public let retryInterval: Double
    private let writeImmediately: Bool
    private let state: Mutex<State>

    private struct State {
        var ring: LineRing
        var fd: Int32?
        /// No attempt to open before this time; `-infinity` after a write error, so the first
        /// retry is immediate.
        var nextAttempt: Double
        /// The open failure already reported, so a device missing for a week is said once.
        var reportedOpenFailure: Errno?
        var problem: LogSinkProblem?
    }

    /// Makes the sink and tries to open the device once at `now`; a device that cannot be opened
    /// is a `problem`, not an error, because an adapter may be plugged in later.
    ///
    /// - Parameters:
    ///   - capacity: lines held while the wire is busy or the device missing; never grows.
    ///   - maxLineBytes: longer lines are cut and end with `...`.
    ///   - writeImmediately: when the buffer is empty, `enqueue` tries one non-blocking write
    ///     itself, so a quiet log reaches the wire without waiting for the poll loop.
    /// - Throws: `LogSinkError` for a baud rate termios has no constant for.
    public init(
        path: String, baud: Int, capacity: Int, maxLineBytes: Int = LogLineLimit.bytes, retryInterval: Double = 5,
        now: Double, writeImmediately: Bool = true
    ) throws(LogSinkError) {
        self.path = path
        self.baud = try BaudRate(baud)
        self.retryInterval = retryInterval
        self.writeImmediately = writeImmediately
        let ring = LineRing(capacity: capacity, maxLineBytes: maxLineBytes, terminator: Array("\r\n".utf8))
        state = Mutex(State(ring: ring, fd: nil, nextAttempt: now, reportedOpenFailure: nil, problem: nil))
        reopenIfNeeded(now: now)
    }

    deinit {
        state.withLock { state in
            if let fd = state.fd { close(fd) }
        }
    }

    public func enqueue(_ line: String) {
        state.withLock { state in
            let wasEmpty = state.ring.isEmpty
            guard state.ring.enqueue(line), wasEmpty, writeImmediately else { return }
            drain(&state)
        }
    }

    public func flush() {
        state.withLock { state in
            guard let fd = state.fd else { return }
            if state.ring.isEmpty {
                // Nothing to write, so no write would notice the unplug: ask poll, or the caller's
                // loop would spin on POLLHUP.
                if SerialLine.hasHungUp(fd) {
                    lose(&state, call: "poll", errno: Errno(rawValue: EIO), what: "hung up")
                }
                return
            }
            drain(&state)
        }
    }

    /// Opens the device if it is closed and `retryInterval` has passed since the last attempt;
    /// true when it opened now.
    @discardableResult
    public func reopenIfNeeded(now: Double) -> Bool {
        state.withLock { state in
            guard state.fd == nil, now >= state.nextAttempt else { return false }
            state.nextAttempt = now + retryInterval
            switch SerialLine.open(path, baud: baud) {
            case .success(let fd):
                state.fd = fd
                state.reportedOpenFailure = nil
                return true
            case .failure(let failure):
                if state.reportedOpenFailure != failure.errno {
                    state.reportedOpenFailure = failure.errno
                    state.problem = openProblem(call: failure.call, errno: failure.errno)
                }
                return false
            }
        }
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
        if case .failed(let error) = state.ring.drain({ SerialLine.write(fd, $0) }) {
            lose(&state, call: "write", errno: error, what: "write failed: \(error)")
        }
    }

    /// Closes a device that stopped working (EIO, ENXIO: the adapter was pulled) and goes back to
    /// retrying; queued lines wait for the next device, the interrupted one from its start.
    private func lose(_ state: inout State, call: String, errno: Errno, what: String) {
        if let fd = state.fd { close(fd) }
        state.fd = nil
        state.nextAttempt = -.infinity
        state.ring.restartHeadLine()
        state.problem = LogSinkProblem(
            path: path, call: call, errno: errno,
            description: "serial console \(path) \(what) (adapter unplugged?); reopening every \(seconds(retryInterval))")
    }

    private func openProblem(call: String, errno: Errno) -> LogSinkProblem {
        let retry = "retrying every \(seconds(retryInterval))"
        let description = switch errno.rawValue {
        case ENOENT, ENODEV, ENXIO:
            "serial console \(path) is not there (\(errno)); is the USB serial adapter plugged in? \(retry)"
        case EACCES, EPERM:
            "serial console \(path): permission denied; the kiosk's user needs to be in group dialout; \(retry)"
        case ENOTTY:
            "serial console \(path) is not a terminal (\(call): \(errno)); \(retry)"
        default:
            "serial console \(path): \(call) failed: \(errno); \(retry)"
        }
        return LogSinkProblem(path: path, call: call, errno: errno, description: description)
    }

    private func seconds(_ interval: Double) -> String {
        interval == interval.rounded() && abs(interval) < 1e9 ? "\(Int(interval)) s" : "\(interval) s"
    }
}
