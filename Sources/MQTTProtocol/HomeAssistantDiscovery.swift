import KioskCore
import Scene

/// Home Assistant's MQTT discovery for one kiosk: a retained config message per entity, all in one
/// device. The switch is a `switch`, the slider a `number` (0 to 100), the button an `event`
/// (presses, with the tap count) and a `button` (a press from Home Assistant fires it). Keys as
/// Home Assistant's MQTT integration documents them (switch.mqtt, number.mqtt, event.mqtt,
/// button.mqtt; the device registry's `identifiers`, `name`, `model`, `manufacturer`, `sw_version`).
public struct HomeAssistantDiscovery: Sendable {
    public struct Message: Sendable, Equatable {
        public var topic: String
        public var payload: String
    }

    public let topics: KioskTopics
    /// The device's name in Home Assistant: `kiosk <hostname>`.
    public let deviceName: String
    public let softwareVersion: String

    public init(topics: KioskTopics, deviceName: String, softwareVersion: String) {
        self.topics = topics
        self.deviceName = deviceName
        self.softwareVersion = softwareVersion
    }

    /// The components a control of `kind` appears as.
    public static func components(_ kind: ViewKind) -> [String] {
        switch kind {
        case .toggle: ["switch"]
        case .slider: ["number"]
        case .button: ["event", "button"]
        case .canvas, .square: []
        }
    }

    /// Every config message for the controls among `views` (name and kind), in order.
    public func messages(_ views: [(name: String, kind: ViewKind)]) -> [Message] {
        var out: [Message] = []
        for v in views {
            for component in Self.components(v.kind) {
                out.append(Message(topic: topics.discovery(component, v.name), payload: config(component, view: v.name)))
            }
        }
        return out
    }

    /// One entity's config, as JSON.
    public func config(_ component: String, view: String) -> String {
        var j = JSONObject()
        j.string("name", component == "event" ? "\(view) pressed" : view)
        j.string("unique_id", "\(topics.nodeID)_\(KioskTopics.level(view))_\(component)")
        j.raw("device", device)
        j.string("availability_topic", topics.availability)
        j.string("payload_available", "online")
        j.string("payload_not_available", "offline")
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
        return j.text
    }

    var device: String {
        var d = JSONObject()
        d.raw("identifiers", "[\(JSONString.quoted(topics.nodeID))]")
        d.string("name", deviceName)
        d.string("model", "kiosk")
        d.string("manufacturer", "kiosk")
        d.string("sw_version", softwareVersion)
        return d.text
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


