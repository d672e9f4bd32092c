import KioskConfig
import KioskCore
import KioskLog
import MQTTProtocol
import Runtime
import Scene
#if canImport(Glibc)
import Glibc
#endif

/// `[mqtt]`: kiosk's controls on an MQTT broker, with Home Assistant's discovery, served from the
/// loop's own `poll()`.
///
/// - Availability: `<prefix>/availability` is a retained `online` while connected; the broker's
///   will (retained `offline`) says when kiosk went away without a word, and a clean stop says it itself.
/// - Every control's state is retained on `<prefix>/<view>/state`; a button's press also goes to
///   `<prefix>/<view>/event`. Commands on `<prefix>/<view>/set` are checked and applied as a
///   finger's change (source `.mqtt`); a bad one is logged and dropped.
/// - Never blocking: the address is looked up off the loop (`NameLookup`), the connect is
///   libmosquitto's asynchronous one, and reads and writes happen only when `poll()` says so.
/// - The broker gone: reconnect with backoff (0.5 s doubling to 30 s); on reconnect availability,
///   discovery and every state are sent again. Meanwhile nothing is queued: states are read from
///   the scene when the connection is back, and presses in between are counted as dropped. While
///   connected, at most `maximumQueued` messages wait in libmosquitto for the socket: beyond, a
///   state waits for the queue to drain and a press is dropped and counted.
public final class MQTTExtension: LoopExtension {
    public struct Counters: Sendable, Equatable {
        public var connects = 0
        public var connectionsLost = 0
        public var published = 0
        public var commandsApplied = 0
        public var commandsRefused = 0
        /// Presses not sent: disconnected, or too many messages waiting.
        public var eventsDropped = 0
        /// Commands that came faster than the loop took them.
        public var commandsDropped = 0
    }

    enum Connection {
        /// Waiting to try (again) at the moment given.
        case waiting(until: Instant)
        case resolving(NameLookup, since: Instant)
        case connecting(since: Instant)
        case connected
    }

    public static let keepaliveSeconds = 30
    /// How often libmosquitto's keepalive bookkeeping (`mosquitto_loop_misc`) runs while connected.
    static let miscInterval = 5.0
    static let firstBackoff = 0.5
    static let maximumBackoff = 30.0
    /// A connect (or a lookup) that has not finished by then is given up and tried again.
    static let connectTimeout = 10.0
    /// How often a running lookup is looked at.
    static let lookupInterval = 0.02
    public static let maximumQueued = 256
    static let maximumCommands = 64

    public let settings: MQTTSettings
    public let topics: KioskTopics
    public internal(set) var counters = Counters()
    public var isConnected: Bool { if case .connected = connection { true } else { false } }
    /// For the stats line, `mqtt=up/DROPPED` or `mqtt=down/DROPPED`: the connection, and the
    /// presses and commands dropped.
    public var statsFields: [(String, String)] {
        [("mqtt", "\(isConnected ? "up" : "down")/\(counters.eventsDropped + counters.commandsDropped)")]
    }

    var log: Logger
    private let client: MosquittoClient
    private let discovery: HomeAssistantDiscovery
    private var connection: Connection
    private var backoff = firstBackoff
    private var nextMisc: Instant?
    /// Messages handed to libmosquitto since its queue was last empty.
    private var queued = 0
    /// The controls (views that take commands), with what was last published for each.
    var controls: [Control] = []
    private var controlsBuilt = false
    var commands: [(String, [UInt8])] = []
    var discoveryWanted = false
    private var password: String?

    struct Control {
        var name: String
        var kind: ViewKind
        var level: String
        var index: Int
        /// The state last published; nil: to send.
        var published: String?
        /// What `published` was made from: while the view still holds it, no payload is built
        /// (states are looked at every wake-up, a drag's every frame).
        var publishedFrom: StateSource?
    }

    /// A control's state as the view holds it, compared before any payload is formatted.
    struct StateSource: Equatable {
        var value: Double
        var isOn: Bool
        var taps: Int
        var label: String
    }

    /// Sets up the client; the first connect is tried at `now` (in `service`).
    public init(settings: MQTTSettings, hostname: String = MQTTExtension.hostname(), softwareVersion: String = "kiosk",
                logger: Logger, now: Instant) throws(MosquittoError) {
        self.settings = settings
        log = logger
        let clientID = settings.clientID ?? MQTTSettings.defaultClientID(hostname: hostname)
        topics = KioskTopics(prefix: settings.topicPrefix ?? MQTTSettings.defaultTopicPrefix(hostname: hostname),
                             discoveryPrefix: settings.discoveryPrefix, clientID: clientID)
        discovery = HomeAssistantDiscovery(topics: topics, deviceName: "kiosk \(hostname)", softwareVersion: softwareVersion)
        client = try MosquittoClient(clientID: clientID)
        connection = .waiting(until: now)
        try client.setWill(topic: topics.availability, payload: "offline", retain: true)
        if let ca = settings.caFile { try client.setTLS(caFile: ca) }
        client.onConnect = { [unowned self] rc in connected(rc) }
        client.onDisconnect = { [unowned self] rc in lost("the broker closed the connection (\(rc))") }
        client.onMessage = { [unowned self] topic, payload in received(topic, payload) }
    }

    /// This machine's name, for the default client id and topic prefix.
    public static func hostname() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "localhost" : name
    }

    // MARK: LoopExtension

    public func appendPollDescriptors(to fds: inout [pollfd]) {
        switch connection {
        case .connecting, .connected:
            let fd = client.socket
            guard fd >= 0 else { return }
            fds.append(pollfd(fd: fd, events: Int16(POLLIN) | (client.wantsWrite ? Int16(POLLOUT) : 0), revents: 0))
        case .waiting, .resolving:
            break
        }
    }

    public var nextDeadline: Instant? {
        switch connection {
        case .waiting(let until): until
        case .resolving(_, let since): nextLookupCheck ?? since
        case .connecting(let since): since.adding(seconds: Self.connectTimeout)
        case .connected: nextMisc
        }
    }

    private var nextLookupCheck: Instant?

    public func service(_ ready: UnsafeBufferPointer<pollfd>, now: Instant, target: CommandTarget) {
        if !controlsBuilt { buildControls(target.scene) }
        switch connection {
        case .waiting(let until):
            if now >= until { startLookup(now: now) }
        case .resolving(let lookup, let since):
            if let outcome = lookup.poll() {
                nextLookupCheck = nil
                switch outcome {
                case .address(let address): startConnect(address, now: now)
                case .failed(let why): retry(why, now: now)
                }
            } else if now.seconds(since: since) >= Self.connectTimeout {
                retry("the name lookup of \(settings.broker.host) took over \(Int(Self.connectTimeout)) s", now: now)
            } else {
                nextLookupCheck = now.adding(seconds: Self.lookupInterval)
            }
        case .connecting(let since):
            serveSocket(ready, now: now)
            if case .connecting = connection, now.seconds(since: since) >= Self.connectTimeout {
                retry("no answer from the broker within \(Int(Self.connectTimeout)) s", now: now)
                client.disconnect()
            }
        case .connected:
            serveSocket(ready, now: now)
        }
        applyCommands(target, now: now)
        if isConnected {
            if discoveryWanted { sendDiscovery() }
            syncStates(target.scene)
            if let due = nextMisc, now >= due {
                nextMisc = now.adding(seconds: Self.miscInterval)
                do { try client.misc() } catch { lost("\(error)", now: now) }
            }
        }
    }

    public func publish(_ events: ArraySlice<SceneEvent>, source: ChangeSource, scene: KioskScene, now: Instant) {
        if !controlsBuilt { buildControls(scene) }
        for event in events {
            guard case .control(_, let view, .primaryActionTriggered(let taps)) = event,
                  let c = controls.first(where: { $0.name == view }) else { continue }
            guard isConnected, queued < Self.maximumQueued else {
                counters.eventsDropped += 1
                continue
            }
            send(topics.event(c.name), ControlPayload.pressEvent(taps: taps), retain: false, now: now)
        }
        if isConnected { syncStates(scene) }
    }

    public func shutdown(now: Instant) {
        guard isConnected else { return }
        // Said plainly, as a clean DISCONNECT keeps the will from being sent.
        send(topics.availability, "offline", qos: 1, retain: true, now: now)
        var waited = 0
        while client.wantsWrite, waited < 20 {
            var fd = pollfd(fd: client.socket, events: Int16(POLLOUT), revents: 0)
            _ = Glibc.poll(&fd, 1, 10)
            do { try client.write() } catch { break }
            waited += 1
        }
        // The state first: the disconnect callback comes from inside disconnect() and must not
        // take this for a lost connection.
        connection = .waiting(until: now.adding(seconds: Self.maximumBackoff))
        client.disconnect()
    }

    // MARK: Connecting

    private func startLookup(now: Instant) {
        connection = .resolving(NameLookup(host: settings.broker.host, port: settings.broker.port), since: now)
        nextLookupCheck = now
        if case .resolving(let lookup, _) = connection, let outcome = lookup.poll() {
            nextLookupCheck = nil
            switch outcome {
            case .address(let address): startConnect(address, now: now)
            case .failed(let why): retry(why, now: now)
            }
        }
    }

    private func startConnect(_ address: String, now: Instant) {
        do {
            if let user = settings.username {
                if let file = settings.passwordFile {
                    // Read at each connect, so a changed password is taken without a restart.
                    let text = try? TextFile.readText(file, what: "the MQTT password file", limit: 4096)
                    password = text.map { String($0.split(separator: "\n", omittingEmptySubsequences: false).first ?? "") }
                }
                try client.setCredentials(username: user, password: password)
            }
            // TLS checks the certificate against the name, so libmosquitto is given the name (and
            // looks it up again itself); in the clear it gets the address we found.
            let host = settings.broker.tls ? settings.broker.host : address
            try client.connect(host: host, port: settings.broker.port, keepalive: Self.keepaliveSeconds)
            connection = .connecting(since: now)
        } catch {
            retry("\(error)", now: now)
        }
    }

    private func retry(_ why: String, now: Instant) {
        log.warning("mqtt: cannot connect to the broker; trying again", metadata: [
            "mqtt.broker": "\(settings.broker)", "mqtt.error": "\(why)", "mqtt.retry.s": "\(fixedDecimal(backoff, 1))",
        ])
        connection = .waiting(until: now.adding(seconds: backoff))
        backoff = min(backoff * 2, Self.maximumBackoff)
    }

    /// CONNACK.
    private func connected(_ rc: Int32) {
        guard rc == 0 else {
            lastRefusal = MosquittoClient.connackReason(rc)
            return
        }
        connection = .connected
        counters.connects += 1
        backoff = Self.firstBackoff
        queued = 0
        nextMisc = nil
        log.info("mqtt: connected", metadata: ["mqtt.broker": "\(settings.broker)", "mqtt.topic_prefix": "\(topics.prefix)"])
        do {
            try client.subscribe(topics.commandFilter, qos: 1)
            if settings.discovery { try client.subscribe(topics.homeAssistantStatus, qos: 1) }
        } catch {
            log.warning("mqtt: subscribing failed", metadata: ["mqtt.error": "\(error)"])
        }
        send(topics.availability, "online", qos: 1, retain: true, now: nil)
        discoveryWanted = settings.discovery
        // Every state again: what changed while disconnected, and whatever the broker lost.
        for i in controls.indices { controls[i].published = nil }
    }

    private var lastRefusal: String?

    private func lost(_ why: String, now: Instant? = nil) {
        switch connection {
        case .connected:
            counters.connectionsLost += 1
            log.warning("mqtt: connection lost; reconnecting", metadata: [
                "mqtt.broker": "\(settings.broker)", "mqtt.error": "\(why)", "mqtt.retry.s": "\(fixedDecimal(backoff, 1))",
            ])
            connection = .waiting(until: (now ?? lastNow).adding(seconds: backoff))
            backoff = min(backoff * 2, Self.maximumBackoff)
        case .connecting:
            let reason = lastRefusal.map { "the broker refused: \($0)" } ?? why
            lastRefusal = nil
            retry(reason, now: now ?? lastNow)
        case .waiting, .resolving:
            break
        }
    }

    /// The last moment the loop gave us, for callbacks that come without one.
    private var lastNow = Instant(microseconds: 0)

    private func serveSocket(_ ready: UnsafeBufferPointer<pollfd>, now: Instant) {
        lastNow = now
        let fd = client.socket
        guard fd >= 0 else {
            lost("no socket", now: now)
            return
        }
        var events: Int16 = 0
        for p in ready where p.fd == fd { events |= p.revents }
        if case .connecting = connection, events & Int16(POLLERR | POLLHUP) != 0 {
            // The TCP connect failed (refused, unreachable). libmosquitto does not always say so
            // while a TLS handshake waits on the socket; the socket's own error does.
            var code: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            _ = getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length)
            let why = code != 0 ? String(cString: strerror(code)) : "the connection was closed"
            retry("connecting to \(settings.broker.host):\(settings.broker.port): \(why)", now: now)
            client.disconnect()
            return
        }
        do {
            if events & Int16(POLLIN | POLLERR | POLLHUP) != 0 { try client.read() }
            if client.socket >= 0, client.wantsWrite, events & Int16(POLLOUT | POLLERR) != 0 { try client.write() }
        } catch {
            lost("\(error)", now: now)
            return
        }
        if !client.wantsWrite { queued = 0 }
        if case .connected = connection, nextMisc == nil { nextMisc = now.adding(seconds: Self.miscInterval) }
    }

    // MARK: Publishing

    private func send(_ topic: String, _ payload: String, qos: Int32 = 0, retain: Bool, now: Instant?) {
        do {
            try client.publish(topic, payload, qos: qos, retain: retain)
            counters.published += 1
            queued += 1
            if !client.wantsWrite { queued = 0 }
        } catch {
            lost("\(error)", now: now)
        }
    }

    private func sendDiscovery() {
        guard queued + controls.count * 2 < Self.maximumQueued else { return }
        discoveryWanted = false
        for m in discovery.messages(controls.map { ($0.name, $0.kind) }) {
            send(m.topic, m.payload, qos: 1, retain: true, now: nil)
        }
    }

    private func buildControls(_ scene: KioskScene) {
        controlsBuilt = true
        controls = scene.views.enumerated().compactMap { i, v in
            guard !HomeAssistantDiscovery.components(v.kind).isEmpty else { return nil }
            return Control(name: v.name, kind: v.kind, level: KioskTopics.level(v.name), index: i)
        }
    }

    /// Publishes each control whose state differs from what was last sent.
    private func syncStates(_ scene: KioskScene) {
        for i in controls.indices {
            guard queued < Self.maximumQueued else { return }
            let c = controls[i]
            guard c.index < scene.views.count, scene.views[c.index].name == c.name else { continue }
            let v = scene.views[c.index]
            let source = StateSource(value: v.value, isOn: v.isOn, taps: v.taps, label: v.label)
            if c.published != nil, c.publishedFrom == source { continue }
            let state: String
            switch c.kind {
            case .slider: state = ControlPayload.percentState(v.value)
            case .toggle: state = ControlPayload.switchState(v.isOn)
            case .button: state = ControlPayload.buttonState(taps: v.taps, label: v.label)
            case .canvas, .square: continue
            }
            controls[i].publishedFrom = source
            guard state != c.published else { continue }
            controls[i].published = state
            send(topics.state(c.name), state, retain: true, now: nil)
            guard isConnected else { return }
        }
    }

}
