import Foundation
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
        #expect(t.commandLevel(of: "kiosk/hall/slider/set") == "slider")
        #expect(t.commandLevel(of: "kiosk/hall/a/b/set") == nil)
        #expect(t.commandLevel(of: "kiosk/hallway/slider/set") == nil)
        #expect(t.commandLevel(of: "kiosk/hall/set") == nil)
    }

    /// The keys each component needs, as Home Assistant documents them (switch.mqtt, number.mqtt,
    /// event.mqtt, button.mqtt, and the device registry's), with their values.
    @Test func discoveryKeys() throws {
        let t = KioskTopics(prefix: "kiosk/hall", discoveryPrefix: "homeassistant", clientID: "kiosk-hall")
        let d = HomeAssistantDiscovery(topics: t, deviceName: "kiosk hall", softwareVersion: "1.0")
        let messages = d.messages([("button", .button), ("slider", .slider), ("switch", .toggle), ("canvas", .canvas)])
        #expect(messages.map(\.topic) == [
            "homeassistant/event/kiosk-hall/button/config", "homeassistant/button/kiosk-hall/button/config",
            "homeassistant/number/kiosk-hall/slider/config", "homeassistant/switch/kiosk-hall/switch/config",
        ])
        var ids: Set<String> = []
        for m in messages {
            let j = try #require(try JSONSerialization.jsonObject(with: Data(m.payload.utf8)) as? [String: Any], "\(m.payload)")
            let component = m.topic.split(separator: "/")[1]
            #expect(j["availability_topic"] as? String == "kiosk/hall/availability")
            let device = try #require(j["device"] as? [String: Any])
            #expect(device["identifiers"] as? [String] == ["kiosk-hall"] && device["name"] as? String == "kiosk hall")
            #expect(device["sw_version"] as? String == "1.0" && device["model"] as? String == "kiosk")
            let id = try #require(j["unique_id"] as? String)
            #expect(ids.insert(id).inserted, "unique_id \(id) used twice")
            #expect(j["name"] is String)
            switch component {
            case "switch":
                #expect(j["state_topic"] as? String == "kiosk/hall/switch/state" && j["command_topic"] as? String == "kiosk/hall/switch/set")
                #expect(j["payload_on"] as? String == "ON" && j["payload_off"] as? String == "OFF")
            case "number":
                #expect(j["min"] as? Int == 0 && j["max"] as? Int == 100 && j["step"] as? Double == 0.1)
                #expect(j["state_topic"] as? String == "kiosk/hall/slider/state" && j["command_topic"] as? String == "kiosk/hall/slider/set")
            case "event":
                #expect(j["event_types"] as? [String] == ["press"] && j["state_topic"] as? String == "kiosk/hall/button/event")
            case "button":
                #expect(j["command_topic"] as? String == "kiosk/hall/button/set" && j["payload_press"] as? String == "PRESS")
                #expect(j["state_topic"] == nil)
            default:
                Issue.record("component \(component)")
            }
        }
    }
}
