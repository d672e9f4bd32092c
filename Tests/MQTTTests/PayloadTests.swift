import Foundation
import KioskCore
import MQTTProtocol
import Scene
import Testing

/// Command payloads are range- and type-checked per kind; topics cannot be escaped by a view's name;
/// Home Assistant's discovery messages carry the keys its MQTT integration documents.
@Suite struct PayloadTests {
    func command(_ text: String, _ kind: ViewKind) -> Result<ControlCommand, PayloadError> {
        ControlPayload.command(Array(text.utf8), for: kind)
    }

    @Test(arguments: [("0", 0.0), ("100", 100.0), ("42.5", 42.5), (" 7\n", 7.0), ("+3", 3.0), ("0.001", 0.001)])
    func sliderTakesPercent(text: String, value: Double) {
        #expect(command(text, .slider) == .success(.percent(value)))
    }

    @Test(arguments: ["-1", "100.1", "nan", "inf", "0x10", "1e3", "", "ON", "4 2", "--1", "1-", String(repeating: "1", count: 70)])
    func sliderRefuses(text: String) {
        guard case .failure(let e) = command(text, .slider) else {
            Issue.record("'\(text)' accepted")
            return
        }
        #expect(e.description.contains("expected a number from 0 to 100"), "\(e)")
    }

    @Test func switchAndButton() {
        #expect(command("ON", .toggle) == .success(.on(true)))
        #expect(command("off", .toggle) == .success(.on(false)))
        #expect(command("PRESS", .button) == .success(.press))
        if case .failure(let e) = command("1", .toggle) { #expect(e.description == "'1' is not a command; expected ON or OFF") } else { Issue.record("1 accepted") }
        if case .success = command("ON", .button) { Issue.record("ON pressed the button") }
        if case .success = command("PRESS", .square) { Issue.record("a square took a command") }
        // Not UTF-8, and control characters shown escaped.
        #expect(ControlPayload.command([0xFF, 0xFE], for: .toggle) == .failure(PayloadError(shown: "2 bytes that are not UTF-8", expected: "ON or OFF")))
        if case .failure(let e) = command("O\u{1}N", .toggle) { #expect(e.shown == "'O\\u{1}N'") } else { Issue.record("accepted") }
    }

    @Test func states() {
        #expect(ControlPayload.percentState(0.4251) == "42.5")
        #expect(ControlPayload.percentState(1) == "100.0")
        #expect(ControlPayload.switchState(true) == "ON")
        #expect(ControlPayload.buttonState(taps: 3, label: "Op\"en") == #"{"taps":3,"label":"Op\"en"}"#)
        #expect(ControlPayload.pressEvent(taps: 2) == #"{"event_type":"press","taps":2}"#)
    }

    @Test func topics() {
        let t = KioskTopics(prefix: "kiosk/hall", discoveryPrefix: "homeassistant", clientID: "kiosk-hall.lan")
        #expect(t.nodeID == "kiosk-hall_lan")
        #expect(t.state("slider") == "kiosk/hall/slider/state")
        #expect(t.command("a/b+#") == "kiosk/hall/a_b__/set", "a view's name never adds a level or a wildcard")
        #expect(t.discovery("number", "slider") == "homeassistant/number/kiosk-hall_lan/slider/config")
        #expect(t.deviceDiscovery == "homeassistant/device/kiosk-hall_lan/config")
        #expect(t.commandLevel(of: "kiosk/hall/slider/set") == "slider")
        #expect(t.commandLevel(of: "kiosk/hall/a/b/set") == nil)
        #expect(t.commandLevel(of: "kiosk/hallway/slider/set") == nil)
        #expect(t.commandLevel(of: "kiosk/hall/set") == nil)
        // The button's label: its own two levels, which no control's command topic can be.
        #expect(t.label("front door") == "kiosk/hall/front_door/label" && t.labelCommand("front door") == "kiosk/hall/front_door/label/set")
        #expect(t.labelCommandLevel(of: "kiosk/hall/front_door/label/set") == "front_door")
        #expect(t.commandLevel(of: "kiosk/hall/front_door/label/set") == nil)
        #expect(t.labelCommandLevel(of: "kiosk/hall/front_door/set") == nil)
        #expect(t.labelCommandLevel(of: "kiosk/hall/a/b/label/set") == nil)
        #expect(t.labelCommandLevel(of: "kiosk/hall/label/set") == nil)
        #expect(t.retainedStates("button", kind: .button) == ["kiosk/hall/button/state", "kiosk/hall/button/label"])
        #expect(t.retainedStates("slider", kind: .slider) == ["kiosk/hall/slider/state"])
    }

    /// ViewNames' reasoning: no control's component name ends another's (after a `_`), so two
    /// views' unique_ids `<node>_<level>_<component>` meet only when their levels do.
    @Test func noControlsComponentEndsAnother() {
        let all = Set([ViewKind.toggle, .slider, .button, .canvas, .square].flatMap(HomeAssistantDiscovery.components))
        #expect(all == ["switch", "number", "event", "button", "text"])
        for a in all {
            for b in all where a != b { #expect(!a.hasSuffix("_" + b) && !a.hasSuffix(b), "\(a) ends with \(b)") }
        }
    }

    /// A label from Home Assistant: UTF-8, one line, at most 200 characters (a character may be
    /// several bytes); longer is refused unread.
    @Test func labels() {
        #expect(ControlPayload.label(Array("Open the door".utf8)) == .success("Open the door"))
        #expect(ControlPayload.label([]) == .success(""))
        let full = String(repeating: "é", count: 200)
        #expect(ControlPayload.label(Array(full.utf8)) == .success(full), "200 characters of 2 bytes")
        for bad in [String(repeating: "x", count: 201), "two\nlines", String(repeating: "😀", count: 201)] {
            guard case .failure(let e) = ControlPayload.label(Array(bad.utf8)) else {
                Issue.record("'\(bad.prefix(20))' taken")
                continue
            }
            #expect(e.expected == "one line of at most 200 characters", "\(e)")
        }
        #expect(ControlPayload.label([0xFF]) == .failure(PayloadError(shown: "1 bytes that are not UTF-8", expected: "one line of at most 200 characters")))
        #expect(ControlPayload.maximumLabelBytes == 800)
    }

    static let topics = KioskTopics(prefix: "kiosk/hall", discoveryPrefix: "homeassistant", clientID: "kiosk-hall")
    static let views: [(name: String, kind: ViewKind)] = [("button", .button), ("slider", .slider), ("switch", .toggle), ("canvas", .canvas)]

    /// Each platform's keys, every one in Home Assistant's MQTT schema for it (2025.4.4's
    /// switch.py, number.py, event.py, button.py, text.py; `name`, `unique_id` and `icon` from schemas.py's
    /// `MQTT_ENTITY_COMMON_SCHEMA`); no `object_id`, which 2026.4 removed, and no
    /// `has_entity_name`, which no MQTT schema has (every MQTT entity has it: entity.py).
    static let platformKeys: [String: Set<String>] = [
        "switch": ["name", "unique_id", "device_class", "state_topic", "command_topic", "payload_on", "payload_off"],
        "number": ["name", "unique_id", "state_topic", "command_topic", "min", "max", "step", "mode", "unit_of_measurement", "icon"],
        "event": ["name", "unique_id", "device_class", "state_topic", "event_types"],
        "button": ["name", "unique_id", "command_topic", "payload_press", "icon"],
        "text": ["name", "unique_id", "state_topic", "command_topic", "max", "mode", "icon"],
    ]
    static let availabilityKeys: Set<String> = ["availability_topic", "payload_available", "payload_not_available"]

    /// One device config: `dev` (schemas.py's `MQTT_ENTITY_DEVICE_INFO_SCHEMA`), `o`
    /// (`MQTT_ORIGIN_INFO_SCHEMA`: `name`, and `sw` for `sw_version`), the shared availability and
    /// `cmps` (`DEVICE_DISCOVERY_SCHEMA`), each component with its platform in `p`; key by key.
    @Test func deviceDiscovery() throws {
        let d = HomeAssistantDiscovery(topics: Self.topics, deviceName: "kiosk hall", softwareVersion: "1.0",
                                       hardwareVersion: "Raspberry Pi 4 Model B Rev 1.5")
        let messages = d.messages(Self.views)
        #expect(messages.map(\.topic) == ["homeassistant/device/kiosk-hall/config"])
        let j = try #require(try JSONSerialization.jsonObject(with: Data(messages[0].payload.utf8)) as? [String: Any])
        #expect(Set(j.keys) == Set(["dev", "o", "cmps"]).union(Self.availabilityKeys))
        #expect(j["availability_topic"] as? String == "kiosk/hall/availability")
        #expect(j["payload_available"] as? String == "online" && j["payload_not_available"] as? String == "offline")
        let device = try #require(j["dev"] as? [String: Any])
        #expect(Set(device.keys) == ["identifiers", "name", "model", "manufacturer", "sw_version", "hw_version"])
        #expect(device["identifiers"] as? [String] == ["kiosk-hall"] && device["name"] as? String == "kiosk hall")
        #expect(device["sw_version"] as? String == "1.0" && device["model"] as? String == "kiosk")
        #expect(device["hw_version"] as? String == "Raspberry Pi 4 Model B Rev 1.5")
        let origin = try #require(j["o"] as? [String: Any])
        #expect(Set(origin.keys) == ["name", "sw"] && origin["name"] as? String == "kiosk" && origin["sw"] as? String == "1.0")
        let cmps = try #require(j["cmps"] as? [String: [String: Any]])
        #expect(Set(cmps.keys) == ["button_event", "button_button", "button_text", "slider_number", "switch_switch"])
        for (id, c) in cmps {
            let platform = try #require(c["p"] as? String)
            #expect(id == "\(id.split(separator: "_")[0])_\(platform)")
            #expect(Set(c.keys) == Self.platformKeys[platform, default: []].union(["p"]), "\(id): \(c.keys.sorted())")
            try Self.expectValues(platform, c)
        }
        // No hardware known: no hw_version; no controls: no device config.
        let bare = HomeAssistantDiscovery(topics: Self.topics, deviceName: "kiosk hall", softwareVersion: "1.0")
        let dev = try JSONSerialization.jsonObject(with: Data(bare.messages(Self.views)[0].payload.utf8)) as? [String: Any]
        #expect((dev?["dev"] as? [String: Any])?["hw_version"] == nil)
        #expect(bare.messages([("canvas", .canvas)]).isEmpty)
    }

    /// The per-entity form (Home Assistant before 2024.12): one config each, with the device,
    /// the origin and the availability in every one; key by key.
    @Test func entityDiscovery() throws {
        let d = HomeAssistantDiscovery(topics: Self.topics, form: .entity, deviceName: "kiosk hall", softwareVersion: "1.0")
        let messages = d.messages(Self.views)
        #expect(messages.map(\.topic) == [
            "homeassistant/event/kiosk-hall/button/config", "homeassistant/button/kiosk-hall/button/config",
            "homeassistant/text/kiosk-hall/button/config",
            "homeassistant/number/kiosk-hall/slider/config", "homeassistant/switch/kiosk-hall/switch/config",
        ])
        var ids: Set<String> = []
        for m in messages {
            let j = try #require(try JSONSerialization.jsonObject(with: Data(m.payload.utf8)) as? [String: Any], "\(m.payload)")
            let platform = String(m.topic.split(separator: "/")[1])
            #expect(Set(j.keys) == Self.platformKeys[platform, default: []].union(["device", "o"]).union(Self.availabilityKeys))
            #expect(j["availability_topic"] as? String == "kiosk/hall/availability")
            let device = try #require(j["device"] as? [String: Any])
            #expect(device["identifiers"] as? [String] == ["kiosk-hall"] && device["name"] as? String == "kiosk hall")
            #expect((j["o"] as? [String: Any])?["sw"] as? String == "1.0")
            let id = try #require(j["unique_id"] as? String)
            #expect(ids.insert(id).inserted, "unique_id \(id) used twice")
            try Self.expectValues(platform, j)
        }
    }

    /// One entity's values, the same in either form.
    static func expectValues(_ platform: String, _ j: [String: Any]) throws {
        #expect(j["name"] is String)
        let view = try #require((j["unique_id"] as? String)?.split(separator: "_")[1])
        #expect(j["unique_id"] as? String == "kiosk-hall_\(view)_\(platform)")
        switch platform {
        case "switch":
            #expect(j["device_class"] as? String == "switch" && j["name"] as? String == "Switch")
            #expect(j["state_topic"] as? String == "kiosk/hall/switch/state" && j["command_topic"] as? String == "kiosk/hall/switch/set")
            #expect(j["payload_on"] as? String == "ON" && j["payload_off"] as? String == "OFF")
        case "number":
            #expect(j["min"] as? Int == 0 && j["max"] as? Int == 100 && j["step"] as? Double == 0.1)
            #expect(j["mode"] as? String == "slider" && j["unit_of_measurement"] as? String == "%")
            #expect(j["icon"] as? String == "mdi:tune-variant" && j["name"] as? String == "Slider")
            #expect(j["state_topic"] as? String == "kiosk/hall/slider/state" && j["command_topic"] as? String == "kiosk/hall/slider/set")
        case "event":
            #expect(j["event_types"] as? [String] == ["press"] && j["state_topic"] as? String == "kiosk/hall/button/event")
            #expect(j["device_class"] as? String == "button" && j["name"] as? String == "Button pressed")
        case "button":
            #expect(j["command_topic"] as? String == "kiosk/hall/button/set" && j["payload_press"] as? String == "PRESS")
            #expect(j["icon"] as? String == "mdi:gesture-tap-button" && j["name"] as? String == "Button")
        case "text":
            #expect(j["state_topic"] as? String == "kiosk/hall/button/label" && j["command_topic"] as? String == "kiosk/hall/button/label/set")
            #expect(j["max"] as? Int == 200 && j["mode"] as? String == "text" && j["name"] as? String == "Button label")
            #expect(j["icon"] as? String == "mdi:form-textbox")
        default:
            Issue.record("platform \(platform)")
        }
    }

    /// Names people read: a view's label where the config gives it one, else its name made readable.
    @Test(arguments: [
        ("hall_light", nil, "Hall light"), ("hallLight", nil, "Hall Light"), ("door-2.bell", nil, "Door 2 bell"),
        ("slider", "", "Slider"), ("button", "Open the door", "Open the door"), ("button", "  Open  ", "Open"),
        ("__", nil, "__"), ("x", nil, "X"), ("TV_power", nil, "TV power"),
    ] as [(String, String?, String)])
    func titles(view: String, label: String?, title: String) {
        #expect(HomeAssistantDiscovery.title(view: view, label: label) == title)
    }

    /// A label names the button's entities in both forms.
    @Test func labelsNameTheEntities() throws {
        for form in [HomeAssistantDiscovery.Form.device, .entity] {
            let d = HomeAssistantDiscovery(topics: Self.topics, form: form, deviceName: "kiosk hall", softwareVersion: "1.0")
            let text = d.messages([("front_door", .button)], labels: ["front_door": "Open"]).map(\.payload).joined()
            #expect(text.contains(#""name":"Open pressed""#) && text.contains(#""name":"Open""#), "\(text)")
            #expect(text.contains(#""unique_id":"kiosk-hall_front_door_button""#), "the unique_id stays the view's: \(text)")
        }
    }

    /// A component removed from the device is sent once as its platform alone (Home Assistant
    /// keeps one that is left out); one that is back is sent whole.
    @Test func removedComponentsAreTheirPlatformAlone() throws {
        let d = HomeAssistantDiscovery(topics: Self.topics, deviceName: "kiosk hall", softwareVersion: "1.0")
        let m = d.messages([("slider", .slider)], removed: [DeviceComponent(platform: "switch", view: "lamp"), DeviceComponent(platform: "number", view: "slider")])
        let j = try #require(try JSONSerialization.jsonObject(with: Data(m[0].payload.utf8)) as? [String: Any])
        let cmps = try #require(j["cmps"] as? [String: [String: Any]])
        #expect(Set(cmps.keys) == ["lamp_switch", "slider_number"])
        #expect(cmps["lamp_switch"]?.count == 1 && cmps["lamp_switch"]?["p"] as? String == "switch")
        #expect(cmps["slider_number"]?["name"] as? String == "Slider", "a view that is back is whole")
    }

    /// The kiosk's own entities (`DeviceEntity`) go with the controls' in either form: in the
    /// device config's `cmps` by `<level>_<platform>`, or each in its own config; the unique_id is
    /// `<node>_<level>_<platform>`, the entity's own keys follow; a retained topic it names is
    /// announced with the controls' states; one removed by a reload is its platform alone.
    @Test func deviceEntitiesGoWithTheControls() throws {
        var keys = JSONObject(compact: true)
        keys.add("state_topic", Self.topics.state("display"))
        keys.add("entity_category", "diagnostic")
        let display = DeviceEntity(component: "light", level: "display", name: "Display", keys: keys,
                                   retainedTopics: [Self.topics.state("display")])
        let d = HomeAssistantDiscovery(topics: Self.topics, deviceName: "kiosk hall", softwareVersion: "1.0")
        let m = d.messages([("slider", .slider)], deviceEntities: [display])
        #expect(m.count == 1)
        let j = try #require(try JSONSerialization.jsonObject(with: Data(m[0].payload.utf8)) as? [String: Any])
        let cmps = try #require(j["cmps"] as? [String: [String: Any]])
        #expect(Set(cmps.keys) == ["slider_number", "display_light"])
        let light = try #require(cmps["display_light"])
        #expect(light["p"] as? String == "light" && light["name"] as? String == "Display")
        #expect(light["unique_id"] as? String == "kiosk-hall_display_light")
        #expect(light["state_topic"] as? String == "kiosk/hall/display/state" && light["entity_category"] as? String == "diagnostic")

        // Alone, with no control, the device is still announced.
        #expect(d.messages([], deviceEntities: [display]).count == 1)
        #expect(d.messages([]).isEmpty)

        let e = d.with(form: .entity).messages([("slider", .slider)], deviceEntities: [display])
        #expect(e.map(\.topic) == ["homeassistant/number/kiosk-hall/slider/config", "homeassistant/light/kiosk-hall/display/config"])
        let one = try #require(try JSONSerialization.jsonObject(with: Data(e[1].payload.utf8)) as? [String: Any])
        #expect(one["unique_id"] as? String == "kiosk-hall_display_light" && one["device"] != nil && one["availability_topic"] != nil)

        let retained = RetainedTopics(controls: [("slider", .slider)], deviceEntities: [display], discovery: d, topics: Self.topics)
        #expect(retained.all.contains("kiosk/hall/display/state"))

        let gone = d.messages([("slider", .slider)], removed: [DeviceComponent(platform: "light", view: "display")])
        let after = try #require(try JSONSerialization.jsonObject(with: Data(gone[0].payload.utf8)) as? [String: Any])
        #expect((after["cmps"] as? [String: [String: Any]])?["display_light"]?.count == 1)
    }
}
