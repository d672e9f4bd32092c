#if canImport(Glibc)
import Glibc
#endif

/// The log's outputs as the loop sees them: polled for writability only while they hold lines.
public protocol LogPump: AnyObject {
    /// Calls `body` with each output's descriptor that has lines waiting.
    func descriptorsWantingWrite(_ body: (Int32) -> Void)
    /// Writes what the outputs take now, without blocking.
    func flush()
    /// Writes what the outputs hold, waiting at most `seconds` for them: the last words at exit.
    func drain(seconds: Double)
    /// Opens the serial device again when it was missing or failed, and reports such problems.
    func service(now: Double)
    /// Lines dropped because an output was too slow.
    var droppedLines: Int { get }
    /// True while an output waits to be opened again: the loop then wakes every few seconds.
    var needsService: Bool { get }
}
