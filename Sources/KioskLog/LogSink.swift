import KioskCore

/// Where log lines go without ever blocking the caller: the serial console or stderr.
///
/// The caller's poll loop watches `fileDescriptor` for `POLLOUT` only while `wantsWrite`, and
/// calls `flush()` when poll reports the descriptor writable, hung up or in error.
public protocol LogSink: AnyObject, Sendable {
    /// Queues one line (no terminator; the sink adds its own), or drops and counts it when full.
    func enqueue(_ line: String)
    /// Writes what the descriptor takes now, without blocking.
    func flush()
    /// The descriptor to poll; nil while there is nothing to poll (device missing, output gone).
    var fileDescriptor: Int32? { get }
    /// Lines are queued: poll `fileDescriptor` for `POLLOUT`.
    var wantsWrite: Bool { get }
    /// Lines dropped because the buffer was full or the output gone, since the sink was made.
    var droppedLines: Int { get }
    /// Lines written whole, since the sink was made; `dropped N lines` notices are not counted.
    var writtenLines: Int { get }
    /// A problem not yet handed out, once per cause, for the caller to log somewhere else.
    func takeProblem() -> LogSinkProblem?
}

/// Why a sink is not writing, in words for whoever reads the other log; each cause is reported once.
public struct LogSinkProblem: Sendable, Equatable, CustomStringConvertible {
    /// The device path, or `stderr`.
    public var path: String
    /// The system call that failed: `open`, `tcsetattr`, `write`, `poll`.
    public var call: String
    public var errno: Errno
    public var description: String

    public init(path: String, call: String, errno: Errno, description: String) {
        self.path = path
        self.call = call
        self.errno = errno
        self.description = description
    }
}
