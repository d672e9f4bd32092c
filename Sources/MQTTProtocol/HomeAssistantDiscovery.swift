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
        var j = JSONObject(compact: true)
        j.add("name", component == "event" ? "\(view) pressed" : view)
        j.add("unique_id", "\(topics.nodeID)_\(KioskTopics.level(view))_\(component)")
        j.add("device", raw: device)
        j.add("availability_topic", topics.availability)
        j.add("payload_available", "online")
        j.add("payload_not_available", "offline")
        switch component {
        case "switch":
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
        case "event":
            j.add("state_topic", topics.event(view))
            j.add("event_types", raw: "[\(JSONString.quoted(ControlPayload.pressEvent))]")
        case "button":
            j.add("command_topic", topics.command(view))
            j.add("payload_press", ControlPayload.press)
        default:
            break
        }
        return j.json
    }

    var device: String {
        var d = JSONObject(compact: true)
        d.add("identifiers", raw: "[\(JSONString.quoted(topics.nodeID))]")
        d.add("name", deviceName)
        d.add("model", "kiosk")
        d.add("manufacturer", "kiosk")
        d.add("sw_version", softwareVersion)
        return d.json
    }
}
