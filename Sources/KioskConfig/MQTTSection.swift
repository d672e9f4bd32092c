import KioskCore

/// `[mqtt]`: the broker kiosk publishes its controls to, and Home Assistant's discovery. Absent: no MQTT.
public struct MQTTSettings: Sendable, Equatable {
    /// `broker = "mqtt://host:port"` (or `mqtts://`), taken apart.
    public struct Broker: Sendable, Equatable, CustomStringConvertible {
        public var tls: Bool
        /// A host name or an address (an IPv6 address without its brackets).
        public var host: String
        public var port: Int

        public init(tls: Bool, host: String, port: Int) {
            self.tls = tls
            self.host = host
            self.port = port
        }

        public var description: String {
            let shownHost = host.contains(":") ? "[\(host)]" : host
            return "\(tls ? "mqtts" : "mqtt")://\(shownHost):\(port)"
        }
    }

    public var broker: Broker
    /// The CA certificates (PEM) that sign the broker's certificate; `mqtts://` only, and required there.
    public var caFile: String?
    /// Nil: `kiosk-<hostname>`.
    public var clientID: String?
    public var username: String?
    /// A file whose first line is the password (kept out of the config, which check-config prints).
    public var passwordFile: String?
    /// Nil: `kiosk/<hostname>`.
    public var topicPrefix: String?
    public var discoveryPrefix = "homeassistant"
    /// `node`: the device's id in Home Assistant (its identifiers, discovery topics and unique_ids,
    /// `[A-Za-z0-9_-]`) and its name `kiosk <node>`, apart from the host name. Nil: the client id's,
    /// and `kiosk <hostname>`.
    public var node: String?
    /// `discovery = "device" | "entity" | false`: Home Assistant's discovery in one device config
    /// (2024.12 and later), one config per entity (older Home Assistant), or none.
    public var discovery = Discovery.device
    /// `state_interval`: while a finger moves a control, its state is published at most this often
    /// (seconds; 0: every change); its final value always at once when the finger lifts.
    public var stateInterval = 0.1
    /// The longest `state_interval` taken: a state a minute late would be no state at all.
    public static let maximumStateInterval = 60.0

    public enum Discovery: String, Sendable, Equatable, CaseIterable {
        case device, entity, off
    }

    public init(broker: Broker) { self.broker = broker }

    /// Whether `u` may be in a `node`: `[A-Za-z0-9_-]`, as Home Assistant's discovery topics take.
    public static func isNodeCharacter(_ u: Unicode.Scalar) -> Bool {
        (u >= "a" && u <= "z") || (u >= "A" && u <= "Z") || (u >= "0" && u <= "9") || u == "_" || u == "-"
    }

    /// The client id used when none is given.
    public static func defaultClientID(hostname: String) -> String { "kiosk-\(hostname)" }
    /// The topic prefix used when none is given.
    public static func defaultTopicPrefix(hostname: String) -> String { "kiosk/\(hostname)" }

    /// Reads `broker`, or says why it is not an MQTT URL kiosk can use.
    public static func parseBroker(_ text: String) -> Result<Broker, BrokerURLError> {
        let tls: Bool
        let rest: Substring
        if text.hasPrefix("mqtt://") {
            (tls, rest) = (false, text.dropFirst("mqtt://".count))
        } else if text.hasPrefix("mqtts://") {
            (tls, rest) = (true, text.dropFirst("mqtts://".count))
        } else {
            return .failure(BrokerURLError("'\(text)' does not start with mqtt:// or mqtts://"))
        }
        var hostPart = rest
        if hostPart.hasSuffix("/") { hostPart = hostPart.dropLast() }
        if hostPart.contains("/") || hostPart.contains("?") || hostPart.contains("#") {
            return .failure(BrokerURLError("'\(text)' has a path or query; a broker URL is only scheme://host[:port]"))
        }
        if hostPart.contains("@") {
            return .failure(BrokerURLError("'\(text)' carries a user; give 'username' and 'password_file' instead"))
        }
        var host: Substring
        var portText: Substring?
        if hostPart.hasPrefix("[") {
            guard let close = hostPart.firstIndex(of: "]") else { return .failure(BrokerURLError("'\(text)': an IPv6 address needs its closing ']'")) }
            host = hostPart[hostPart.index(after: hostPart.startIndex)..<close]
            let after = hostPart[hostPart.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return .failure(BrokerURLError("'\(text)': expected ':port' after the address")) }
                portText = after.dropFirst()
            }
        } else {
            let parts = hostPart.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2 else { return .failure(BrokerURLError("'\(text)': an IPv6 address goes in brackets, such as mqtt://[::1]:1883")) }
            host = parts[0]
            if parts.count == 2 { portText = parts[1] }
        }
        guard !host.isEmpty else { return .failure(BrokerURLError("'\(text)' names no host")) }
        guard host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == ":" || $0 == "_") }) else {
            return .failure(BrokerURLError("'\(text)': '\(host)' is not a host name or an address"))
        }
        var port = tls ? 8883 : 1883
        if let portText {
            guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy({ $0.isASCII && $0.isNumber }),
                  let n = Int(portText), (1...65535).contains(n) else {
                return .failure(BrokerURLError("'\(text)': the port '\(portText)' is not a number from 1 to 65535"))
            }
            port = n
        }
        return .success(Broker(tls: tls, host: String(host), port: port))
    }

    /// Why `prefix` cannot begin a topic, or nil: no wildcards, no empty levels, no NUL.
    public static func topicProblem(_ prefix: String) -> String? {
        if prefix.isEmpty { return "must not be empty" }
        if prefix.contains("+") || prefix.contains("#") { return "must not hold the wildcards + or #" }
        if prefix.hasPrefix("/") || prefix.hasSuffix("/") || prefix.contains("//") { return "must not begin or end with '/' or hold '//'" }
        if prefix.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { return "must not hold control characters" }
        if prefix.utf8.count > 512 { return "is longer than 512 bytes" }
        return nil
    }
}

/// Why a `broker` URL cannot be used.
public struct BrokerURLError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}

/// Reads `[mqtt]`.
struct MQTTSection {
    func settings(_ r: TableReader) throws(ConfigError) -> MQTTSettings {
        try r.rejectUnknownKeys(allowed: MQTTKey.names)
        guard let url = try r.string(MQTTKey.broker) else {
            throw r.error(nil, "[mqtt] needs 'broker', such as broker = \"mqtt://192.168.1.10:1883\"; leave [mqtt] out to turn MQTT off")
        }
        var s: MQTTSettings
        switch MQTTSettings.parseBroker(url) {
        case .success(let broker): s = MQTTSettings(broker: broker)
        case .failure(let why):
            throw r.error(MQTTKey.broker, "\(why); expected \"mqtt://host:1883\", or \"mqtts://host:8883\" with 'ca_file'")
        }
        s.caFile = try readableFile(r, MQTTKey.caFile, what: "the CA certificate file", example: "/etc/ssl/certs/ca-certificates.crt")
        if s.broker.tls, s.caFile == nil {
            throw r.error(MQTTKey.broker, "an mqtts:// broker needs 'ca_file', the CA certificates (PEM) that sign the broker's certificate, "
                + "such as ca_file = \"/etc/ssl/certs/ca-certificates.crt\"")
        }
        if !s.broker.tls, s.caFile != nil {
            throw r.error(MQTTKey.caFile, "is only for an mqtts:// broker; the broker is \(s.broker)")
        }
        if let id = try r.string(MQTTKey.clientID) {
            guard !id.isEmpty, id.utf8.count <= 65535, !id.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                throw r.error(MQTTKey.clientID, "'\(id)' is not a client id; expected a non-empty name without control characters, "
                    + "or leave it out for kiosk-<hostname>")
            }
            s.clientID = id
        }
        if let user = try r.string(MQTTKey.username) {
            guard !user.isEmpty else { throw r.error(MQTTKey.username, "must not be empty; leave it out to connect without a user") }
            s.username = user
        }
        s.passwordFile = try readableFile(r, MQTTKey.passwordFile, what: "the password file", example: "/etc/kiosk/mqtt-password")
        if s.passwordFile != nil, s.username == nil {
            throw r.error(MQTTKey.passwordFile, "a password needs 'username' too")
        }
        for key in [MQTTKey.topicPrefix, .discoveryPrefix] {
            guard let prefix = try r.string(key) else { continue }
            if let problem = MQTTSettings.topicProblem(prefix) {
                throw r.error(key, "'\(prefix)' \(problem); expected topic levels such as \"kiosk/hall\"")
            }
            if key == .topicPrefix { s.topicPrefix = prefix } else { s.discoveryPrefix = prefix }
        }
        s.discovery = try discovery(r) ?? s.discovery
        if let node = try r.string(MQTTKey.node) {
            guard (1...64).contains(node.utf8.count), node.unicodeScalars.allSatisfy({ MQTTSettings.isNodeCharacter($0) }) else {
                throw r.error(MQTTKey.node, "'\(node)' is not a node id; expected 1 to 64 of A-Z a-z 0-9 _ -, such as \"hall\"")
            }
            s.node = node
        }
        s.stateInterval = try r.number(MQTTKey.stateInterval, in: 0...MQTTSettings.maximumStateInterval, unit: " of seconds")
            ?? s.stateInterval
        return s
    }

    /// `"device"`, `"entity"`, or `false`; `true` (what kiosk took before the forms) is `"device"`.
    private func discovery(_ r: TableReader) throws(ConfigError) -> MQTTSettings.Discovery? {
        guard let v = r.table[MQTTKey.discovery.rawValue] else { return nil }
        if let on = v.bool { return on ? .device : .off }
        let expected = "expected \"device\" (Home Assistant 2024.12 and later), \"entity\" (one config per entity, "
            + "for older Home Assistant) or false"
        guard let text = v.string else { throw r.error(MQTTKey.discovery, "\(expected), found \(r.show(v))") }
        guard let form = MQTTSettings.Discovery(rawValue: text), form != .off else {
            throw r.error(MQTTKey.discovery, "'\(text)' is not a form of discovery; \(expected)")
        }
        return form
    }

    /// An absolute path to a file that can be read now: check-config finds a missing file, not the first connect.
    private func readableFile(_ r: TableReader, _ key: MQTTKey, what: String, example: String) throws(ConfigError) -> String? {
        guard let path = try r.string(key) else { return nil }
        guard path.hasPrefix("/") else { throw r.error(key, "'\(path)' is not an absolute path; expected such as \"\(example)\"") }
        do {
            _ = try TextFile.read(path, what: what, limit: 1 << 20)
        } catch {
            throw r.error(key, "'\(path)': \(error.reason); expected a file kiosk's user can read")
        }
        return path
    }
}

extension TOMLWriter {
    mutating func mqtt(_ m: MQTTSettings) {
        header(SectionKey.mqtt.header)
        string(MQTTKey.broker, m.broker.description)
        if let ca = m.caFile { string(MQTTKey.caFile, ca) }
        if let id = m.clientID { string(MQTTKey.clientID, id) } else { unset(MQTTKey.clientID, "kiosk-<hostname>") }
        if let user = m.username { string(MQTTKey.username, user) } else { unset(MQTTKey.username, "no user") }
        if let file = m.passwordFile { string(MQTTKey.passwordFile, file) } else { unset(MQTTKey.passwordFile, "no password") }
        if let prefix = m.topicPrefix { string(MQTTKey.topicPrefix, prefix) } else { unset(MQTTKey.topicPrefix, "kiosk/<hostname>") }
        string(MQTTKey.discoveryPrefix, m.discoveryPrefix)
        if let node = m.node { string(MQTTKey.node, node) } else { unset(MQTTKey.node, "the client id") }
        if m.discovery == .off { bool(MQTTKey.discovery, false) } else { string(MQTTKey.discovery, m.discovery.rawValue) }
        number(MQTTKey.stateInterval, m.stateInterval)
    }
}
