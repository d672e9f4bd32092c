import KioskCore
import Scene

/// Home Assistant's MQTT discovery for one kiosk: every control's entities in one device. The
/// switch is a `switch`, the slider a `number` (0 to 100), the button an `event` (presses, with
/// the tap count), a `button` (a press from Home Assistant fires it) and a `text` (its label, set
/// from Home Assistant and reported back).
///
/// Two forms (`[mqtt] discovery`):
/// - `.device` (Home Assistant 2024.12 and later): one retained `<discovery_prefix>/device/<node>/config`
///   holding the device (`dev`), the origin (`o`), the availability shared by all, and each entity
///   under `cmps` by its component id `<level>_<platform>`, its platform in `p`.
/// - `.entity` (before 2024.12): one retained `<discovery_prefix>/<platform>/<node>/<level>/config`
///   per entity, each with the device, the origin and the availability.
///
/// Every key is one of Home Assistant's MQTT integration (homeassistant/components/mqtt: schemas.py's
/// `DEVICE_DISCOVERY_SCHEMA`, `MQTT_ENTITY_DEVICE_INFO_SCHEMA`, `MQTT_ORIGIN_INFO_SCHEMA`, and each
/// platform's schema; abbreviations.py for `dev`, `o`, `cmps`, `p`, `sw`, `url`). No `object_id`
/// (removed in 2026.4): entity ids come from the device's and the entity's names.
public struct HomeAssistantDiscovery: Sendable {
    public struct Message: Sendable, Equatable {
        public var topic: String
        public var payload: String
    }

    public enum Form: Sendable, Equatable { case device, entity }

    /// The origin's name (Home Assistant logs it with each discovery).
    public static let originName = "kiosk"
    /// The origin's support URL: none is published until the project has one.
    public static let originURL: String? = nil

    public let topics: KioskTopics
    public let form: Form
    /// The device's name in Home Assistant: `kiosk <hostname>`.
    public let deviceName: String
    /// kiosk's version: the device's `sw_version` and the origin's `sw`.
    public let softwareVersion: String
    /// The board (the device tree's model), the device's `hw_version`; nil where unknown.
    public let hardwareVersion: String?

    public init(topics: KioskTopics, form: Form = .device, deviceName: String, softwareVersion: String, hardwareVersion: String? = nil) {
        self.topics = topics
        self.form = form
        self.deviceName = deviceName
        self.softwareVersion = softwareVersion
        self.hardwareVersion = hardwareVersion
    }

    /// The same device and origin in another form.
    public func with(form: Form) -> HomeAssistantDiscovery {
        HomeAssistantDiscovery(topics: topics, form: form, deviceName: deviceName, softwareVersion: softwareVersion,
                               hardwareVersion: hardwareVersion)
    }

    /// The components (Home Assistant platforms) a control of `kind` appears as.
    public static func components(_ kind: ViewKind) -> [String] {
        switch kind {
        case .toggle: ["switch"]
        case .slider: ["number"]
        case .button: ["event", "button", "text"]
        case .canvas, .square: []
        }
    }

    /// Every config message for the controls among `views` (name and kind): the device's one
    /// (none when no view is a control), or one per entity in order. `labels` holds the labels
    /// views have in the config, by view name: an entity's name (`title(view:label:)`).
    /// `removed`: components the device config had and no longer has, each sent once as its
    /// platform alone, which is how Home Assistant (2025.4) removes a device's component (one left
    /// out is kept); one that is back is sent whole.
    /// `deviceEntities`: the kiosk's own entities (`DeviceEntity`), after the controls'.
    public func messages(_ views: [(name: String, kind: ViewKind)], labels: [String: String] = [:],
                         removed: [DeviceComponent] = [], deviceEntities: [DeviceEntity] = []) -> [Message] {
        let entities = views.flatMap { v in
            Self.components(v.kind).map { (component: $0, view: v.name, title: Self.title(view: v.name, label: labels[v.name])) }
        }
        switch form {
        case .entity:
            return entities.map {
                Message(topic: topics.discovery($0.component, $0.view), payload: config($0.component, view: $0.view, title: $0.title))
            } + deviceEntities.map { Message(topic: topics.discovery($0.component, $0.level), payload: config($0)) }
        case .device:
            guard !entities.isEmpty || !deviceEntities.isEmpty else { return [] }
            var components = JSONObject(compact: true)
            let current = Self.deviceComponents(views, deviceEntities: deviceEntities)
            for r in removed.sorted() where !current.contains(where: { $0.id == r.id }) {
                components.add(r.id, raw: "{\"p\":\(JSONString.quoted(r.platform))}")
            }
            for e in entities {
                var c = JSONObject(compact: true)
                c.add("p", e.component)
                entityKeys(e.component, view: e.view, title: e.title, into: &c)
                components.add(Self.componentID(e.component, view: e.view), raw: c.json)
            }
            for e in deviceEntities {
                var c = JSONObject(compact: true)
                c.add("p", e.component)
                deviceEntityKeys(e, into: &c)
                components.add(Self.componentID(e.component, view: e.level), raw: c.json)
            }
            var j = JSONObject(compact: true)
            j.add("dev", raw: device)
            j.add("o", raw: origin)
            availability(into: &j)
            j.add("cmps", raw: components.json)
            return [Message(topic: topics.deviceDiscovery, payload: j.json)]
        }
    }

    /// The components the device config for `views` and `deviceEntities` holds (empty when
    /// there is none: no control and no device entity).
    public static func deviceComponents(_ views: [(name: String, kind: ViewKind)], deviceEntities: [DeviceEntity] = []) -> Set<DeviceComponent> {
        Set(views.flatMap { v in components(v.kind).map { DeviceComponent(platform: $0, view: v.name) } }
            + deviceEntities.map { DeviceComponent(platform: $0.component, view: $0.level) })
    }

    /// An entity's key in the device config's `cmps`: `<level>_<platform>`.
    public static func componentID(_ component: String, view: String) -> String { "\(KioskTopics.level(view))_\(component)" }

    /// An entity's name as people read it: the view's label where the config gives it one, else
    /// its name with `_`, `-` and `.` as spaces, words split where a lower-case letter meets a
    /// capital, and the first letter a capital (`hall_light`: `Hall light`; `hallLight`: `Hall Light`).
    /// Home Assistant shows it after the device's name (MQTT entities always have
    /// `has_entity_name`), and makes the entity id from both.
    public static func title(view: String, label: String?) -> String {
        let trimmed = (label ?? "").split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        if !trimmed.isEmpty { return trimmed }
        var words: [String] = []
        var word = ""
        var previous: Character?
        for c in view {
            if c == "_" || c == "-" || c == "." || c == " " {
                if !word.isEmpty { words.append(word) }
                word = ""
            } else {
                if c.isUppercase, previous?.isLowercase == true, !word.isEmpty {
                    words.append(word)
                    word = ""
                }
                word.append(c)
            }
            previous = c
        }
        if !word.isEmpty { words.append(word) }
        let text = words.joined(separator: " ")
        guard let first = text.first else { return view }
        return first.uppercased() + text.dropFirst()
    }

    /// One entity's config in the per-entity form, as JSON.
    public func config(_ component: String, view: String, title: String? = nil) -> String {
        var j = JSONObject(compact: true)
        entityKeys(component, view: view, title: title ?? Self.title(view: view, label: nil), into: &j)
        j.add("device", raw: device)
        j.add("o", raw: origin)
        availability(into: &j)
        return j.json
    }

    /// One device entity's config in the per-entity form, as JSON.
    public func config(_ entity: DeviceEntity) -> String {
        var j = JSONObject(compact: true)
        deviceEntityKeys(entity, into: &j)
        j.add("device", raw: device)
        j.add("o", raw: origin)
        availability(into: &j)
        return j.json
    }

    /// A device entity's keys, the same in either form: its name and unique_id
    /// (`<node>_<level>_<component>`, as a control's), then its own.
    func deviceEntityKeys(_ e: DeviceEntity, into j: inout JSONObject) {
        j.add("name", e.name)
        j.add("unique_id", "\(topics.nodeID)_\(e.level)_\(e.component)")
        j.add(contentsOf: e.keys)
    }

    /// The keys of one entity, the same in either form.
    /// Device classes and icons where one is obvious: a `switch` device class for the switch,
    /// `button` for the presses, icons for the slider and the press.
    func entityKeys(_ component: String, view: String, title: String, into j: inout JSONObject) {
        j.add("name", component == "event" ? "\(title) pressed" : component == "text" ? "\(title) label" : title)
        j.add("unique_id", "\(topics.nodeID)_\(KioskTopics.level(view))_\(component)")
        switch component {
        case "switch":
            j.add("device_class", "switch")
            j.add("state_topic", topics.state(view))
            j.add("command_topic", topics.command(view))
            j.add("payload_on", ControlPayload.on)
            j.add("payload_off", ControlPayload.off)
        case "number":
            j.add("state_topic", topics.state(view))
            j.add("command_topic", topics.command(view))
            j.add("min", raw: "0")
            j.add("max", raw: "100")
            j.add("step", raw: "0.1")
            j.add("mode", "slider")
            j.add("unit_of_measurement", "%")
            j.add("icon", "mdi:tune-variant")
        case "event":
            j.add("device_class", "button")
            j.add("state_topic", topics.event(view))
            j.add("event_types", raw: "[\(JSONString.quoted(ControlPayload.pressEvent))]")
        case "button":
            j.add("command_topic", topics.command(view))
            j.add("payload_press", ControlPayload.press)
            j.add("icon", "mdi:gesture-tap-button")
        case "text":
            j.add("state_topic", topics.label(view))
            j.add("command_topic", topics.labelCommand(view))
            j.add("max", ControlPayload.maximumLabelCharacters)
            j.add("mode", "text")
            j.add("icon", "mdi:form-textbox")
        default:
            break
        }
    }

    private func availability(into j: inout JSONObject) {
        j.add("availability_topic", topics.availability)
        j.add("payload_available", "online")
        j.add("payload_not_available", "offline")
    }

    var device: String {
        var d = JSONObject(compact: true)
        d.add("identifiers", raw: "[\(JSONString.quoted(topics.nodeID))]")
        d.add("name", deviceName)
        d.add("model", "kiosk")
        d.add("manufacturer", "kiosk")
        d.add("sw_version", softwareVersion)
        if let hardwareVersion { d.add("hw_version", hardwareVersion) }
        return d.json
    }

    var origin: String {
        var o = JSONObject(compact: true)
        o.add("name", Self.originName)
        o.add("sw", softwareVersion)
        if let url = Self.originURL { o.add("url", url) }
        return o.json
    }
}
