import KioskCore
import KioskLog
import MQTTProtocol
#if canImport(Glibc)
import Glibc
#endif

/// `AnnouncementMemory` in a file of its own: a header line, then one retained topic a line.
/// Written whole to a temporary name, fsynced, renamed over the old one, and its folder fsynced,
/// so that a power cut leaves the old list or the new one, never a torn one. A missing file is
/// an empty list; a foreign or unreadable one is a warning that names it and why, and an empty list.
///
/// (Until the state store keeps this list in kiosk's state file, `kiosk run` uses this file in
/// its state directory.)
public final class AnnouncementFile: AnnouncementMemory {
    public static let header = "kiosk mqtt announced 1"
    /// The largest file read: 4096 topics of 256 bytes.
    static let maximumBytes = 1 << 20

    public let path: String
    public private(set) var announcedTopics: Set<String> = []
    private let log: Logger

    public init(path: String, logger: Logger) {
        self.path = path
        log = logger
        announcedTopics = read()
    }

    /// `kiosk run`'s memory until the state store keeps it: `mqtt-announced` in systemd's
    /// `$STATE_DIRECTORY` (the unit's `StateDirectory=kiosk`), else in /var/lib/kiosk; when
    /// neither is a folder kiosk may write, memory for this run only (said once).
    public static func inStateDirectory(environment: [String: String], logger: Logger) -> AnnouncementMemory {
        let folder = environment["STATE_DIRECTORY"].flatMap { $0.split(separator: ":").first.map(String.init) } ?? "/var/lib/kiosk"
        guard access(folder, W_OK) == 0 else {
            logger.info("mqtt: no state folder to remember announced topics in; a restart with fewer views may leave some on the broker",
                        metadata: ["mqtt.state.directory": "\(folder)"])
            return AnnouncementsInMemory()
        }
        return AnnouncementFile(path: folder + "/mqtt-announced", logger: logger)
    }

    public func remember(announced: Set<String>) {
        guard announced != announcedTopics else { return }
        // A topic never holds a newline (KioskTopics levels are [A-Za-z0-9_-]; the config refuses one in a prefix).
        let lines = [Self.header] + announced.sorted().filter { !$0.contains("\n") && !$0.isEmpty }
        do {
            try Self.writeDurably(lines.joined(separator: "\n") + "\n", to: path)
            announcedTopics = announced
        } catch {
            log.warning("mqtt: cannot remember the announced topics; a restart may leave some behind on the broker",
                        metadata: ["mqtt.announced.file": "\(path)", "mqtt.error": "\(error)"])
        }
    }

    private func read() -> Set<String> {
        var st = stat()
        if stat(path, &st) != 0, errno == ENOENT { return [] }
        let text: String
        do {
            text = try TextFile.readText(path, what: "the announced topics", limit: Self.maximumBytes)
        } catch {
            log.warning("mqtt: the announced topics are unreadable; starting from none", metadata: [
                "mqtt.announced.file": "\(path)", "mqtt.error": "\(error)",
            ])
            return []
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: true)
        guard lines.first == Substring(Self.header), text.hasSuffix("\n") else {
            let why = lines.first == Substring(Self.header) ? "it is cut short (no final newline)" : "its first line is not '\(Self.header)'"
            log.warning("mqtt: the announced topics file is not kiosk's or is damaged; starting from none", metadata: [
                "mqtt.announced.file": "\(path)", "mqtt.error": "\(why)",
            ])
            return []
        }
        return Set(lines.dropFirst().map(String.init))
    }

    /// The durable write: temporary file, fsync, rename, fsync of the folder.
    static func writeDurably(_ text: String, to path: String) throws(FileError) {
        let temporary = path + ".tmp"
        do throws(SystemCallError) {
            try write(text, toNew: temporary)
        } catch {
            unlink(temporary)
            throw failure(error, temporary)
        }
        do throws(SystemCallError) {
            try systemCall("rename", on: path) { rename(temporary, path) }
        } catch {
            unlink(temporary)
            throw failure(error, path)
        }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { path[..<$0].isEmpty ? "/" : String(path[..<$0]) } ?? "."
        do throws(SystemCallError) {
            let dir = try FileDescriptor.open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            try systemCall("fsync", on: folder) { fsync(dir.rawValue) }
        } catch {
            throw failure(error, folder)
        }
    }

    /// `text` written whole to a new file at `path` and fsynced.
    private static func write(_ text: String, toNew path: String) throws(SystemCallError) {
        let file = try FileDescriptor.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode: 0o644)
        let bytes = Array(text.utf8)
        var done = 0
        while done < bytes.count {
            done += try systemCall("write", on: path) {
                bytes.withUnsafeBytes { Glibc.write(file.rawValue, $0.baseAddress! + done, $0.count - done) }
            }
        }
        try systemCall("fsync", on: path) { fsync(file.rawValue) }
    }

    /// `path: write: No space left on device`, as the announcement file's errors have always read.
    private static func failure(_ error: SystemCallError, _ path: String) -> FileError {
        FileError(path: path, "\(error.call): \(error.errno)")
    }
}
