import KioskCore
import Scene

/// Home Assistant's MQTT discovery for one kiosk: every control's entities in one device. The
/// switch is a `switch`, the slider a `number` (0 to 100), the button an `event` (presses, with
/// the tap count) and a `button` (a press from Home Assistant fires it).
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
        case .button: ["event", "button"]
        case .canvas, .square: []
        }
    }

    /// Every config message for the controls among `views` (name and kind): the device's one
    /// (none when no view is a control), or one per entity in order.
    public func messages(_ views: [(name: String, kind: ViewKind)]) -> [Message] {
        let entities = views.flatMap { v in Self.components(v.kind).map { (component: $0, view: v.name) } }
        switch form {
        case .entity:
            return entities.map { Message(topic: topics.discovery($0.component, $0.view), payload: config($0.component, view: $0.view)) }
        case .device:
            guard !entities.isEmpty else { return [] }
            var components = JSONObject()
            for e in entities {
                var c = JSONObject()
                c.string("p", e.component)
                entityKeys(e.component, view: e.view, into: &c)
                components.raw(Self.componentID(e.component, view: e.view), c.text)
            }
            var j = JSONObject()
            j.raw("dev", device)
            j.raw("o", origin)
            availability(into: &j)
            j.raw("cmps", components.text)
            return [Message(topic: topics.deviceDiscovery, payload: j.text)]
        }
    }

    /// An entity's key in the device config's `cmps`: `<level>_<platform>`.
    public static func componentID(_ component: String, view: String) -> String { "\(KioskTopics.level(view))_\(component)" }

    /// One entity's config in the per-entity form, as JSON.
    public func config(_ component: String, view: String) -> String {
        var j = JSONObject()
        entityKeys(component, view: view, into: &j)
        j.raw("device", device)
        j.raw("o", origin)
        availability(into: &j)
        return j.text
    }

    /// The keys of one entity, the same in either form.
    func entityKeys(_ component: String, view: String, into j: inout JSONObject) {
        j.string("name", component == "event" ? "\(view) pressed" : view)
        j.string("unique_id", "\(topics.nodeID)_\(KioskTopics.level(view))_\(component)")
        switch component {
        case "switch":
            j.string("state_topic", topics.state(view))
            j.string("command_topic", topics.command(view))
            j.string("payload_on", ControlPayload.on)
            j.string("payload_off", ControlPayload.off)
        case "number":
            j.string("state_topic", topics.state(view))
            j.string("command_topic", topics.command(view))
            j.raw("min", "0")
            j.raw("max", "100")
            j.raw("step", "0.1")
            j.string("mode", "slider")
            j.string("unit_of_measurement", "%")
        case "event":
            j.string("state_topic", topics.event(view))
            j.raw("event_types", "[\(JSONString.quoted(ControlPayload.pressEvent))]")
        case "button":
            j.string("command_topic", topics.command(view))
            j.string("payload_press", ControlPayload.press)
        default:
            break
        }
    }

    private func availability(into j: inout JSONObject) {
        j.string("availability_topic", topics.availability)
        j.string("payload_available", "online")
        j.string("payload_not_available", "offline")
    }

    var device: String {
        var d = JSONObject()
        d.raw("identifiers", "[\(JSONString.quoted(topics.nodeID))]")
        d.string("name", deviceName)
        d.string("model", "kiosk")
        d.string("manufacturer", "kiosk")
        d.string("sw_version", softwareVersion)
        if let hardwareVersion { d.string("hw_version", hardwareVersion) }
        return d.text
    }

    var origin: String {
        var o = JSONObject()
        o.string("name", Self.originName)
        o.string("sw", softwareVersion)
        if let url = Self.originURL { o.string("url", url) }
        return o.text
    }
}

/// A JSON object written key by key, in order.
struct JSONObject {
    private var body = ""
    mutating func raw(_ key: String, _ json: String) {
        if !body.isEmpty { body += "," }
        body += JSONString.quoted(key) + ":" + json
    }
    mutating func string(_ key: String, _ value: String) { raw(key, JSONString.quoted(value)) }
    var text: String { "{" + body + "}" }
}
