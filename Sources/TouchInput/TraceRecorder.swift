import CEvdev
import InputEvents
import KioskCore
#if canImport(Glibc)
import Glibc
#endif

/// Writes a device's events to an evemu file as they come, as evemu-record does: the header at
/// once, then each report when its `SYN_REPORT` arrives, so a recording that is killed loses at most
/// the report it was in. Times start at 0 at the first event.
///
/// The header is evemu-describe's for the same device, byte for byte: its `# Kernel:` and `# DMI:`
/// lines, and every code named as libevdev names it.
public final class TraceRecorder {
    public let path: String
    /// Events written so far, drop markers included.
    public private(set) var eventCount = 0
    /// The first write that failed; after it nothing more is written.
    public private(set) var failure: TraceFileError?
    private let file: FileDescriptor
    private var fd: Int32 { file.rawValue }
    private var writer = EvemuWriter(naming: TraceRecorder.libevdevName)
    private var pending = ""
    private var origin: Instant?

    /// Creates (or empties) `path` and writes the header for `device`.
    public init(path: String, device: DeviceDescription) throws(TraceFileError) {
        self.path = path
        do throws(SystemCallError) {
            file = try FileDescriptor.open(path, kiosk_O_WRONLY | kiosk_O_CREAT | kiosk_O_TRUNC | kiosk_O_CLOEXEC, mode: 0o644)
        } catch {
            throw TraceFileError(error)
        }
        pending.reserveCapacity(16 * 1024)
        pending = writer.header(device, comments: Self.systemComments())
        flush()
        if let failure { throw failure }
    }

    /// Adds `event`; a `SYN_REPORT` writes out its report.
    public func record(_ event: InputEvent) {
        let start = origin ?? event.time
        origin = start
        var relative = event
        relative.time = Instant(microseconds: event.time.microseconds - start.microseconds)
        writer.append(relative, to: &pending)
        eventCount += 1
        if event.type == .synchronization, event.code == SynchronizationCode.report.code { flush() }
    }

    /// Marks where the kernel dropped events (`SYN_DROPPED`), before the events that resynchronised
    /// the device. The marker is closed by a report of its own: a decoder that, as the kernel asks,
    /// skips everything up to the next `SYN_REPORT` after a drop skips only the marker, and the
    /// kernel, replaying it through evemu-play, passes neither on.
    public func markDropped(at time: Instant) {
        record(InputEvent(time: time, SynchronizationCode.dropped, 0))
        record(InputEvent.report(at: time))
    }

    /// Writes what is left (a report cut short) and closes nothing: the file closes with the recorder.
    public func finish() throws(TraceFileError) {
        flush()
        if let failure { throw failure }
    }

    private func flush() {
        guard failure == nil, !pending.isEmpty else { return pending.removeAll(keepingCapacity: true) }
        let failed = pending.withUTF8 { bytes -> Int32? in
            var offset = 0
            while offset < bytes.count {
                switch systemCall({ write(fd, bytes.baseAddress! + offset, bytes.count - offset) }) {
                case .success(let n): offset += n
                case .failure(let errno): return errno.rawValue
                }
            }
            return nil
        }
        if let failed { failure = TraceFileError(path: path, call: "write", errno: failed) }
        pending.removeAll(keepingCapacity: true)
    }

    /// libevdev's name for a code: every code the kernel names.
    static func libevdevName(_ type: EventType, _ code: EventCode) -> String? {
        libevdev_event_code_get_name(UInt32(type.rawValue), UInt32(code.rawValue)).map { String(cString: $0) }
    }

    /// evemu-record's comment lines: the kernel's release, and the machine's DMI modalias when it has one.
    static func systemComments() -> [String] {
        var comments: [String] = []
        var names = utsname()
        guard uname(&names) == 0 else { return comments }
        let release = withUnsafeBytes(of: names.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        comments.append("# Kernel: \(release)")
        if let dmi = fopen("/sys/class/dmi/id/modalias", "r") {
            defer { fclose(dmi) }
            var line = [CChar](repeating: 0, count: 2048)
            if fgets(&line, Int32(line.count), dmi) != nil {
                let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                // fgets keeps the newline, and evemu prints it as it is.
                comments.append("# DMI: " + (text.hasSuffix("\n") ? String(text.dropLast()) : text))
            }
        }
        return comments
    }
}

/// A trace file that could not be written: which file, which call, and why.
public struct TraceFileError: Error, Equatable, CustomStringConvertible {
    /// The call, the trace's path as its subject, and the errno.
    public var failure: SystemCallError

    public init(path: String, call: String, errno: Int32) {
        failure = SystemCallError(call: call, subject: path, errno: Errno(rawValue: errno))
    }

    public init(_ failure: SystemCallError) { self.failure = failure }

    public var path: String { failure.subject ?? "" }

    public var description: String { "\(path): \(failure.call) failed: \(failure.errno)" }
}
