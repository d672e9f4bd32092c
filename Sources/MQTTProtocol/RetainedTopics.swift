import Scene

/// What kiosk remembers across restarts of what it announced on the broker, so that a later run
/// clears what its config no longer announces: the retained topics (a view removed, another topic
/// prefix, `discovery = false`: each cleared with an empty retained message), and the components
/// each device config held (one gone is sent once as its platform alone: `DeviceComponent`). The
/// state store implements it in `kiosk run`; tests use memory (`AnnouncementsInMemory`).
public protocol AnnouncementMemory: AnyObject {
    /// The retained topics announced by the last run that said so (empty when none did).
    var announcedTopics: Set<String> { get }
    /// The components of each device config among `announcedTopics`, by its topic (empty when
    /// none was remembered, as in a state file from before they were).
    var deviceComponents: DeviceComponents { get }
    /// Remembers `announced` and `deviceComponents` as what is on the broker now, both at once
    /// and durably (it must survive a power cut).
    func remember(announced: Set<String>, deviceComponents: DeviceComponents)
}

/// Memory that lasts as long as the process: for a kiosk with no state directory, and tests.
public final class AnnouncementsInMemory: AnnouncementMemory {
    public private(set) var announcedTopics: Set<String>
    public private(set) var deviceComponents: DeviceComponents
    /// How many times `remember` was called.
    public private(set) var writes = 0
    public init(_ topics: Set<String> = [], deviceComponents: DeviceComponents = [:]) {
        announcedTopics = topics
        self.deviceComponents = deviceComponents
    }
    public func remember(announced: Set<String>, deviceComponents: DeviceComponents) {
        announcedTopics = announced
        self.deviceComponents = deviceComponents
        writes += 1
    }
}

/// The retained messages a config announces: availability, each control's state topics (a
/// button's label too), and
/// (with discovery) each entity's discovery config. A control is a view by name and kind.
public struct RetainedTopics: Equatable, Sendable {
    public var availability: String
    public var states: [String]
    /// Discovery configs, topic and payload, in the views' order.
    public var discovery: [HomeAssistantDiscovery.Message]

    /// `labels`: the views' labels in the config, by name (the entities' names).
    /// `removed`: the device config's components to remove (`HomeAssistantDiscovery.messages`).
    /// `deviceEntities`: the kiosk's own entities; their retained topics are among `states`.
    public init(controls: [(name: String, kind: ViewKind)], labels: [String: String] = [:],
                removed: [DeviceComponent] = [], deviceEntities: [DeviceEntity] = [],
                discovery: HomeAssistantDiscovery?, topics: KioskTopics) {
        availability = topics.availability
        states = controls.flatMap { topics.retainedStates($0.name, kind: $0.kind) } + deviceEntities.flatMap(\.retainedTopics)
        self.discovery = discovery?.messages(controls, labels: labels, removed: removed, deviceEntities: deviceEntities) ?? []
    }

    /// Every retained topic, for `AnnouncementMemory`.
    public var all: Set<String> { Set([availability] + states + discovery.map(\.topic)) }

    /// What was announced before and is not now: each is cleared with an empty retained message.
    public func orphans(of announced: Set<String>) -> [String] { announced.subtracting(all).sorted() }
}
