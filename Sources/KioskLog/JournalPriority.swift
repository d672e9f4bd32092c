import Glibc

/// The syslog priority journald logs a line of kiosk's stderr at.
///
/// systemd hands a service a stream to journald as stdout and stderr, and every line on it is
/// logged at `info` unless it starts with `<N>`, N the syslog priority (`SyslogLevelPrefix=`, on
/// by default; sd-daemon(3)). So on that stream each line carries its level's prefix, and
/// `journalctl -p err` shows kiosk's errors; anywhere else (a terminal, a pipe, a file) lines stay
/// as they are.
public enum JournalPriority {
    /// The syslog priority of a level: critical 2 (crit), error 3, warning 4, notice 5, info 6,
    /// debug and trace 7.
    public static func syslog(_ level: Logger.Level) -> Int {
        switch level {
        case .critical: 2
        case .error: 3
        case .warning: 4
        case .notice: 5
        case .info: 6
        case .debug, .trace: 7
        }
    }

    /// `line` with the `<N>` prefix of the level `LogLineFormat` wrote after its timestamp; a
    /// line without one (a `dropped N lines` notice) is returned as it is, logged at info.
    public static func prefixed(_ line: String) -> String {
        guard line.hasPrefix("["), let close = line.firstIndex(of: "]") else { return line }
        let rest = line[line.index(after: close)...].drop { $0 == " " }
        guard let level = Logger.Level(rawValue: String(rest.prefix { $0 != " " })) else { return line }
        return "<\(syslog(level))>" + line
    }

    /// Whether `fileDescriptor` is the stream journald gave this process: `journalStream` (the
    /// service's `$JOURNAL_STREAM`, "DEVICE:INODE" in decimal) names that stream's device and
    /// inode, which a descriptor redirected elsewhere does not have (systemd.exec(5)).
    public static func isJournalStream(_ fileDescriptor: Int32, journalStream: String? = environment()) -> Bool {
        guard let parts = journalStream?.split(separator: ":"), parts.count == 2,
              let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
        var status = stat()
        guard fstat(fileDescriptor, &status) == 0 else { return false }
        return UInt64(status.st_dev) == device && UInt64(status.st_ino) == inode
    }

    /// `$JOURNAL_STREAM`, or nil.
    public static func environment() -> String? {
        getenv("JOURNAL_STREAM").map { String(cString: $0) }
    }
}
