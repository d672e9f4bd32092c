import KioskCore

/// `[control]`: the control socket, through which other programs read and change the scene.
public struct ControlSettings: Sendable, Equatable {
    /// The Unix socket's path; nil (`socket = "none"`): no socket.
    public var socket: String? = Self.defaultSocket
    /// Clients connected at once; one more is refused with an error line.
    public var maximumClients = 16
    /// Lines queued for a client that does not read; past them, lines are dropped and counted,
    /// then the client is disconnected.
    public var clientQueueLines = 256

    public static let defaultSocket = "/run/kiosk/control.sock"

    public init() {}
}

extension ControlSettings {
    /// The `[control]` section of the config file at `path`, read and checked alone: `kiosk
    /// control` needs only the socket, and a user who may not read the rest (a password file
    /// that only kiosk's user reads) still finds it.
    public static func read(fromFile path: String) throws(ConfigError) -> ControlSettings {
        let text: String
        do {
            text = try TextFile.readText(path, what: "the config file", limit: KioskConfiguration.maximumFileSize)
        } catch {
            throw ConfigError(file: path, line: error.line ?? 0, key: "", message: error.reason)
        }
        let root = try KioskConfiguration.parseTOML(text, file: path)
        return try ControlSection().settings(TableReader(root, path: "", label: "the file", file: path, locator: KeyLocator(text)))
    }
}

/// Reads `[control]` into `ControlSettings`.
struct ControlSection {
    static let name = "control"
    static let keys = ["socket", "max_clients", "client_queue"]
    /// `socket = "none"`: no control socket.
    static let noSocket = "none"
    /// sockaddr_un's sun_path holds 108 bytes with the terminating zero.
    static let maximumPathBytes = 107

    func settings(_ top: TableReader) throws(ConfigError) -> ControlSettings {
        var c = ControlSettings()
        guard let r = try top.subtable(Self.name) else { return c }
        try r.rejectUnknownKeys(allowed: Self.keys)
        if let s = try r.string("socket") {
            if s == Self.noSocket {
                c.socket = nil
            } else {
                guard s.hasPrefix("/"), !s.hasSuffix("/") else {
                    throw r.error("socket", "'\(s)' is neither an absolute path to a socket file nor '\(Self.noSocket)'. "
                        + "Allowed: a path such as \"\(ControlSettings.defaultSocket)\", or \"\(Self.noSocket)\" (no control socket)")
                }
                guard s.utf8.count <= Self.maximumPathBytes else {
                    throw r.error("socket", "the path is \(s.utf8.count) bytes long; a Unix socket's path holds at most \(Self.maximumPathBytes)")
                }
                c.socket = s
            }
        }
        c.maximumClients = try r.int("max_clients", in: 1...256) ?? c.maximumClients
        c.clientQueueLines = try r.int("client_queue", in: 16...65536) ?? c.clientQueueLines
        return c
    }
}

extension TOMLWriter {
    /// `[control]` as check-config prints it.
    mutating func control(_ c: ControlSettings) {
        header("[control]")
        string("socket", c.socket ?? ControlSection.noSocket)
        int("max_clients", c.maximumClients)
        int("client_queue", c.clientQueueLines)
    }
}
