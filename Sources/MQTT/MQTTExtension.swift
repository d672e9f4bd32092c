import KioskConfig
import KioskCore
import KioskLog
import KioskVersion
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
/// - Every control's state is retained on `<prefix>/<view>/state`: while a finger moves a control,
///   at most every `state_interval` (the change in between sent when that time is up), and at once
///   otherwise (the lift, a command, a reload); the control socket still hears every change. A button's press also goes to
///   `<prefix>/<view>/event`. Commands on `<prefix>/<view>/set` are checked and applied as a
///   finger's change (source `.mqtt`); a bad one is logged and dropped.
/// - The retained messages on the broker are what the config announces, no more: views are
///   matched by name across a reload (MQTTExtension+Views.swift), and what an earlier run or
///   config announced and this one does not is cleared (an empty retained message), from the
///   list kept in `AnnouncementMemory`.
/// - The connection is an `MQTTConnection` state machine (events in, actions out), carried out
///   here with libmosquitto (MQTTExtension+Connection.swift). Never blocking: the address is
///   looked up off the loop (`NameLookup`), the connect is libmosquitto's asynchronous one, and
///   reads and writes happen only when `poll()` says so.
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
        /// Retained topics cleared because the config no longer announces them.
        public var cleared = 0
    }

    public static let keepaliveSeconds = 30
    public static let maximumQueued = 256
    static let maximumCommands = 64

    /// The settings the connection runs on; a reload changes only `discovery` (the others are
    /// named as restart keys).
    public private(set) var settings: MQTTSettings
    public let topics: KioskTopics
    public internal(set) var counters = Counters()
    public var isConnected: Bool { machine.isConnected }
    /// For the stats line, `mqtt=up/DROPPED` or `mqtt=down/DROPPED`: the connection, and the
    /// presses and commands dropped.
    public var statsFields: [(String, String)] {
        [("mqtt", "\(isConnected ? "up" : "down")/\(counters.eventsDropped + counters.commandsDropped)")]
    }

    var log: Logger
    let client: MosquittoClient
    public internal(set) var discovery: HomeAssistantDiscovery
    var machine: MQTTConnection
    var lookup: NameLookup?
    /// Messages handed to libmosquitto since its queue was last empty.
    var queued = 0
    /// The controls (views that take commands), with what was last published for each.
    var controls: [Control] = []
    /// The labels the config gives the controls, by view name (the entities' names).
    var labels: [String: String] = [:]
    /// The kiosk's own entities (`deviceEntities(topics:configuration:)`), announced with the controls'.
    var deviceEntities: [DeviceEntity] = []
    /// The display's status and what was published of it (MQTTExtension+Display.swift).
    var displayOnBroker = DisplayOnBroker()
    /// The components each device config on the broker holds, by topic (remembered across
    /// restarts): one the views no longer have is sent once as its platform alone.
    var componentsOnBroker: DeviceComponents
    var commands: [(String, [UInt8])] = []
    /// Commands submitted to the loop and not yet applied, with their topics (for a refusal's line).
    var waitingTopics: [(ticket: Int, topic: String)] = []
    var nextTicket = 0
    /// Discovery configs to send: none, the ones not announced yet (after a reload), or all.
    var discoveryWanted = DiscoveryWanted.none
    /// The retained messages on the broker may differ from what the config announces.
    var retainedOutOfLine = true
    let memory: AnnouncementMemory
    /// The retained topics kiosk put on the broker and has not cleared (remembered across restarts).
    var announced: Set<String>
    var password: String?
    /// The diagnostics are sent once connected, after the discovery configs (MQTTExtension+Diagnostics.swift).
    var diagnosticsDue = false
    /// The last moment the loop gave us, for libmosquitto's callbacks, which come without one.
    var lastNow: Instant

    enum DiscoveryWanted { case none, missing, all }

    struct Control {
        var name: String
        var kind: ViewKind
        var level: String
        var index: Int
        /// The state last published; nil: to send.
        var published: String?
        /// What `published` was made from: while the view still holds it, no payload is built
        /// (states are looked at every wake-up, a drag's every frame).
        var publishedFrom: SavedViewState?
        /// When the state was last sent; a finger's next change waits until `state_interval` after it.
        var publishedAt: Instant?
        /// A finger's change held back by `state_interval`: sent then (the loop wakes for it).
        var dueAt: Instant?
        /// A button's label last published on `<prefix>/<view>/label`; nil: to send.
        var publishedLabel: String?
    }

    /// Sets up the client; the first connect is tried at `now` (in `service`). `memory` holds
    /// what earlier runs announced.
    /// `softwareVersion` is the device's `sw_version` and the origin's `sw`; `hardwareVersion` the
    /// device's `hw_version` (the board's model).
    public init(settings: MQTTSettings, hostname: String = MQTTExtension.hostname(), softwareVersion: String = KioskVersion.current,
                hardwareVersion: String? = nil, memory: AnnouncementMemory = AnnouncementsInMemory(), logger: Logger,
                now: Instant) throws(MosquittoError) {
        self.settings = settings
        log = logger
        let clientID = settings.clientID ?? MQTTSettings.defaultClientID(hostname: hostname)
        topics = KioskTopics(prefix: settings.topicPrefix ?? MQTTSettings.defaultTopicPrefix(hostname: hostname),
                             discoveryPrefix: settings.discoveryPrefix, clientID: settings.node ?? clientID)
        discovery = HomeAssistantDiscovery(topics: topics, form: Self.form(settings.discovery), deviceName: "kiosk \(settings.node ?? hostname)",
                                           softwareVersion: softwareVersion, hardwareVersion: hardwareVersion)
        client = try MosquittoClient(clientID: clientID)
        machine = MQTTConnection(will: MQTTConnection.Will(topic: topics.availability), discovery: settings.discovery != .off, now: now)
        self.memory = memory
        announced = memory.announcedTopics
        componentsOnBroker = memory.deviceComponents
        lastNow = now
        if let ca = settings.caFile { try client.setTLS(caFile: ca) }
        client.onConnect = { [unowned self] rc in connack(rc) }
        client.onDisconnect = { [unowned self] rc in lost("the broker closed the connection (\(rc))") }
        client.onMessage = { [unowned self] topic, payload in received(topic, payload) }
    }

    /// The form of Home Assistant's discovery `setting` asks for (`.off`: the form kept for a later reload).
    static func form(_ setting: MQTTSettings.Discovery) -> HomeAssistantDiscovery.Form {
        setting == .entity ? .entity : .device
    }

    /// This machine's name, for the default client id and topic prefix.
    public static func hostname() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "localhost" : name
    }

    // MARK: LoopExtension

    public func start(configuration: KioskConfiguration, scene: KioskScene, now: Instant) {
        controls = Self.controls(of: scene, keeping: [])
        labels = Self.labels(of: scene)
        deviceEntities = withDisplayBrightness(Self.deviceEntities(topics: topics, configuration: configuration))
    }

    public func appendPollDescriptors(to fds: inout [pollfd]) {
        switch machine.state {
        case .connecting, .connected:
            let fd = client.socket
            guard fd >= 0 else { return }
            fds.append(pollfd(fd: fd, events: Int16(POLLIN) | (client.wantsWrite ? Int16(POLLOUT) : 0), revents: 0))
        case .waiting, .resolving, .stopped:
            break
        }
    }

    public var nextDeadline: Instant? {
        var wake = machine.nextDeadline
        if isConnected {
            for c in controls {
                if let t = c.dueAt, wake.map({ t < $0 }) ?? true { wake = t }
            }
        }
        return wake
    }

    public func service(_ ready: UnsafeBufferPointer<pollfd>, now: Instant, target: CommandTarget) {
        lastNow = now
        if case .resolving = machine.state, let outcome = lookup?.poll() {
            lookup = nil
            perform(machine.lookedUp(outcome, now: now), now: now)
        }
        switch machine.state {
        case .connecting, .connected: serveSocket(ready, now: now)
        default: break
        }
        perform(machine.tick(now: now), now: now)
        applyCommands(target, now: now)
        if isConnected {
            bringRetainedInLine()
            if diagnosticsDue, !retainedOutOfLine { publishDiagnostics(target.diagnostics) }
            syncStates(target.scene, now: now)
            syncDisplay()
        }
    }

    public func publish(_ events: ArraySlice<SceneEvent>, source: ChangeSource, scene: KioskScene, now: Instant) {
        for event in events {
            guard case .control(_, let view, .primaryActionTriggered(let taps)) = event,
                  let c = controls.first(where: { $0.name == view }) else { continue }
            guard isConnected, queued < Self.maximumQueued else {
                counters.eventsDropped += 1
                continue
            }
            send(topics.event(c.name), ControlPayload.pressEvent(taps: taps), retain: false)
        }
        if isConnected { syncStates(scene, now: now) }
    }

    public func reconfigure(old: KioskConfiguration, new: KioskConfiguration, scene: KioskScene, now: Instant) -> [String] {
        takeViews(of: scene)
        takeDeviceEntities(Self.deviceEntities(topics: topics, configuration: new))
        guard let next = new.mqtt else { return [] }
        settings.stateInterval = next.stateInterval
        if next.discovery != settings.discovery {
            settings.discovery = next.discovery
            machine.discovery = next.discovery != .off
            discovery = discovery.with(form: Self.form(next.discovery))
            retainedOutOfLine = true
            if next.discovery != .off { discoveryWanted = .all }
        }
        return next.restartKeys(from: settings)
    }

    public func stop(now: Instant) {
        guard machine.stop() == .goOffline else { return }
        goOffline()
    }
}

extension SavedViewState {
    /// A control's state topic payload (`SavedViewState(control:)` makes none for a canvas).
    var statePayload: String {
        switch self {
        case .slider(let value): ControlPayload.percentState(value)
        case .toggle(let on): ControlPayload.switchState(on)
        case .button(let label, let taps): ControlPayload.buttonState(taps: taps, label: label)
        case .canvas(let theme): theme
        }
    }
}
