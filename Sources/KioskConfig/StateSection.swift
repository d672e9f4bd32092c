/// `[state]`: the state file, which keeps what users and programs set at run time (the controls'
/// values, a button's label) across restarts and power cuts.
public struct StateSettings: Sendable, Equatable {
    /// false (`enabled = false`): no state file is read or written; every start begins from the config.
    public var enabled = true
    /// The state file's folder; nil: the unit's `StateDirectory=` (systemd's `$STATE_DIRECTORY`),
    /// else `/var/lib/kiosk`.
    public var directory: String?
    /// The state file's name inside `directory`.
    public var file = Self.defaultFile
    /// The least time between two writes while the state keeps changing (a drag, a burst of sets):
    /// a change is on disk within about this long, and an SD card sees at most one write per interval.
    public var writeIntervalSeconds = 2.0

    public static let defaultDirectory = "/var/lib/kiosk"
    public static let defaultFile = "state.json"

    public init() {}

    /// The folder in use: `directory`, else the first of `$STATE_DIRECTORY` (systemd may list
    /// several, colon-separated), else `/var/lib/kiosk`.
    public func resolvedDirectory(environment: [String: String]) -> String {
        if let directory { return directory }
        if let given = environment["STATE_DIRECTORY"], let first = given.split(separator: ":").first, first.hasPrefix("/") {
            return String(first)
        }
        return Self.defaultDirectory
    }

    /// The state file's path, or nil when the state is off.
    public func path(environment: [String: String]) -> String? {
        guard enabled else { return nil }
        let folder = resolvedDirectory(environment: environment)
        return folder == "/" ? "/" + file : folder + "/" + file
    }
}

/// Reads `[state]` into `StateSettings`.
struct StateSection {
    static let name = "state"
    static let keys = ["enabled", "directory", "file", "write_interval"]
    /// The longest file name most Linux file systems take (NAME_MAX).
    static let maximumNameBytes = 255

    func settings(_ top: TableReader) throws(ConfigError) -> StateSettings {
        var s = StateSettings()
        guard let r = try top.subtable(Self.name) else { return s }
        try r.rejectUnknownKeys(allowed: Self.keys)
        s.enabled = try r.bool("enabled") ?? s.enabled
        if let d = try r.string("directory") {
            guard d.hasPrefix("/"), d == "/" || !d.hasSuffix("/"), !d.contains("\0") else {
                throw r.error("directory", "'\(d)' is not an absolute path to a folder; allowed: a path such as \"\(StateSettings.defaultDirectory)\"")
            }
            s.directory = d
        }
        if let f = try r.string("file") {
            guard !f.isEmpty, !f.contains("/"), !f.contains("\0"), f != ".", f != "..", f.utf8.count <= Self.maximumNameBytes else {
                throw r.error("file", "'\(f)' is not a file name; allowed: a name without '/' of at most \(Self.maximumNameBytes) bytes, "
                    + "such as \"\(StateSettings.defaultFile)\" (the folder is 'directory')")
            }
            s.file = f
        }
        s.writeIntervalSeconds = try r.number("write_interval", in: 0.1...3600, unit: " of seconds") ?? s.writeIntervalSeconds
        return s
    }
}

extension TOMLWriter {
    /// `[state]` as check-config prints it.
    mutating func state(_ s: StateSettings) {
        header("[state]")
        bool("enabled", s.enabled)
        if let d = s.directory {
            string("directory", d)
        } else {
            unset("directory", "the unit's StateDirectory ($STATE_DIRECTORY), else \(StateSettings.defaultDirectory)")
        }
        string("file", s.file)
        number("write_interval", s.writeIntervalSeconds)
    }
}
