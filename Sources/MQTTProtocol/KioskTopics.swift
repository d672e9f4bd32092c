import Scene

/// Where kiosk publishes and listens, under its `topic_prefix` and Home Assistant's `discovery_prefix`.
///
/// A control's topics are `<prefix>/<view>/state` (retained), `<prefix>/<view>/set` (commands) and,
/// for a button, `<prefix>/<view>/event` (each press, not retained), `<prefix>/<view>/label`
/// (its label, retained) and `<prefix>/<view>/label/set` (a new label). A view's name is used as a
/// topic level with every character outside `[A-Za-z0-9_-]` made `_`, so that no name can add a
/// level or a wildcard.
public struct KioskTopics: Sendable, Equatable {
    public let prefix: String
    public let discoveryPrefix: String
    /// Home Assistant's `node_id`: the client id, made of `[A-Za-z0-9_-]` only.
    public let nodeID: String

    public init(prefix: String, discoveryPrefix: String, clientID: String) {
        self.prefix = prefix
        self.discoveryPrefix = discoveryPrefix
        nodeID = Self.level(clientID)
    }

    /// `online` (retained) while kiosk is connected; the broker's will says `offline`.
    public var availability: String { "\(prefix)/availability" }
    /// Home Assistant's birth message (`online`) says it started: discovery is sent again.
    public var homeAssistantStatus: String { "\(discoveryPrefix)/status" }
    /// Every command topic at once.
    public var commandFilter: String { "\(prefix)/+/set" }

    public func state(_ view: String) -> String { "\(prefix)/\(Self.level(view))/state" }
    public func command(_ view: String) -> String { "\(prefix)/\(Self.level(view))/set" }
    public func event(_ view: String) -> String { "\(prefix)/\(Self.level(view))/event" }
    /// The button's label: its state (retained) and its command topic.
    public func label(_ view: String) -> String { "\(prefix)/\(Self.level(view))/label" }
    public func labelCommand(_ view: String) -> String { "\(prefix)/\(Self.level(view))/label/set" }
    /// Every label command topic at once.
    public var labelCommandFilter: String { "\(prefix)/+/label/set" }
    /// The level a label command topic names, when `topic` is `<prefix>/<level>/label/set`.
    public func labelCommandLevel(of topic: String) -> String? {
        guard topic.hasPrefix(prefix + "/"), topic.hasSuffix("/label/set") else { return nil }
        let middle = topic.dropFirst(prefix.count + 1).dropLast("/label/set".count)
        guard !middle.isEmpty, !middle.contains("/") else { return nil }
        return String(middle)
    }
    /// The retained topics a control of `kind` publishes on: its state, and a button's label.
    public func retainedStates(_ view: String, kind: ViewKind) -> [String] {
        kind == .button ? [state(view), label(view)] : [state(view)]
    }

    /// One entity's config in the per-entity form of discovery.
    public func discovery(_ component: String, _ view: String) -> String {
        "\(discoveryPrefix)/\(component)/\(nodeID)/\(Self.level(view))/config"
    }
    /// The device's config, every entity in it, in the device form of discovery.
    public var deviceDiscovery: String { "\(discoveryPrefix)/device/\(nodeID)/config" }

    /// The level a command topic names, when `topic` is `<prefix>/<level>/set`.
    public func commandLevel(of topic: String) -> String? {
        guard topic.hasPrefix(prefix + "/"), topic.hasSuffix("/set") else { return nil }
        let middle = topic.dropFirst(prefix.count + 1).dropLast(4)
        guard !middle.isEmpty, !middle.contains("/") else { return nil }
        return String(middle)
    }

    /// The topic levels of the kiosk's own entities (`DeviceEntity`): no control may be named so
    /// that its level is one of these (the config refuses it, naming the view).
    public static let reservedLevels: Set<String> = [
        "display", "blank_after", "last_touch", "screenshot", "diagnostics",
        "fps", "latency_p99", "overruns", "touchscreen", "started", "cpu_temperature", "mqtt_dropped",
    ]

    /// `name` as one topic level and a Home Assistant id: `[A-Za-z0-9_-]`, others made `_`.
    public static func level(_ name: String) -> String {
        let mapped = String(name.unicodeScalars.map { u -> Character in
            let ok = (u >= "a" && u <= "z") || (u >= "A" && u <= "Z") || (u >= "0" && u <= "9") || u == "_" || u == "-"
            return ok ? Character(u) : "_"
        })
        return mapped.isEmpty ? "_" : mapped
    }
}
