/// The keys a reload cannot apply (docs/running.md, "Reloads"), each named as the file spells it,
/// `section.key`, from the key table (ConfigKeys.swift): the reload's warning cannot drift from
/// what the reader reads. Each part of the kiosk asks for its own: the loop for the runtime's,
/// the state store's and the extensions' switches, the socket and MQTT for theirs.
private struct RestartKeys {
    var keys: [String] = []

    /// `section.key` when `changed`.
    mutating func check<K: ConfigKey>(_ changed: Bool, _ section: SectionKey, _ key: K) {
        if changed { keys.append("\(section.name).\(key.name)") }
    }

    /// The whole `section` when `changed` (one turned on or off).
    mutating func check(_ changed: Bool, _ section: SectionKey) {
        if changed { keys.append(section.name) }
    }
}

extension KioskConfiguration {
    /// The runtime's keys of `self` that differ from `old` and wait for the next start: the
    /// display's card, connector, mode, pixel format and rotation, the log's wire, and the socket
    /// or MQTT turned on or off (a running one's own keys are its extension's to name).
    public func restartKeys(from old: KioskConfiguration) -> [String] {
        let a = old.runtime.display, b = runtime.display
        let x = old.runtime.log, y = runtime.log
        var r = RestartKeys()
        r.check(a.card != b.card, .display, DisplayKey.card)
        r.check(a.connector != b.connector, .display, DisplayKey.connector)
        r.check(a.mode != b.mode, .display, DisplayKey.mode)
        r.check(a.pixelFormat != b.pixelFormat, .display, DisplayKey.pixelFormat)
        r.check(a.rotation != b.rotation, .display, DisplayKey.rotation)
        r.check(x.serial != y.serial, .log, LogKey.serial)
        r.check(x.baud != y.baud, .log, LogKey.baud)
        r.check(x.stderr != y.stderr, .log, LogKey.stderr)
        r.check(x.bufferLines != y.bufferLines, .log, LogKey.bufferLines)
        r.check(x.repeatInterval != y.repeatInterval, .log, LogKey.repeatInterval)
        r.check((old.control.socket == nil) != (control.socket == nil), .control, ControlKey.socket)
        r.check((old.mqtt == nil) != (mqtt == nil), .mqtt)
        return r.keys
    }
}

extension StateSettings {
    /// The keys of `self` that differ from `old` and wait for the next start: the file's place, and `enabled`.
    public func restartKeys(from old: StateSettings) -> [String] {
        var r = RestartKeys()
        r.check(old.enabled != enabled, .state, StateKey.enabled)
        r.check(old.directory != directory, .state, StateKey.directory)
        r.check(old.file != file, .state, StateKey.file)
        return r.keys
    }
}

extension ControlSettings {
    /// `control.socket` when a socket listens at `path` and `self` names another.
    public func restartKeys(listeningAt path: String) -> [String] {
        var r = RestartKeys()
        r.check(socket.map { $0 != path } ?? false, .control, ControlKey.socket)
        return r.keys
    }
}

extension MQTTSettings {
    /// The keys of `self` that differ from what the connection runs on, `running`, and need a
    /// new connection (a new will, client id, subscriptions).
    public func restartKeys(from running: MQTTSettings) -> [String] {
        var r = RestartKeys()
        r.check(running.broker != broker, .mqtt, MQTTKey.broker)
        r.check(running.caFile != caFile, .mqtt, MQTTKey.caFile)
        r.check(running.clientID != clientID, .mqtt, MQTTKey.clientID)
        r.check(running.username != username, .mqtt, MQTTKey.username)
        r.check(running.passwordFile != passwordFile, .mqtt, MQTTKey.passwordFile)
        r.check(running.topicPrefix != topicPrefix, .mqtt, MQTTKey.topicPrefix)
        r.check(running.discoveryPrefix != discoveryPrefix, .mqtt, MQTTKey.discoveryPrefix)
        r.check(running.node != node, .mqtt, MQTTKey.node)
        return r.keys
    }
}
