import Foundation
import KioskCore
import MQTTProtocol
import Runtime
import Testing

/// The display's entities' discovery keys and payloads, key by key against Home Assistant's MQTT
/// schemas (2025.4.4: light/schema_json.py, number.py, sensor.py; `name`, `unique_id`, `icon`,
/// `entity_category` from schemas.py's `MQTT_ENTITY_COMMON_SCHEMA`).
@Suite struct DisplayPayloadTests {
    static let topics = PayloadTests.topics

    static let keys: [String: Set<String>] = [
        "light": ["name", "unique_id", "schema", "command_topic", "state_topic", "supported_color_modes", "brightness_scale", "icon"],
        "number": ["name", "unique_id", "command_topic", "state_topic", "min", "max", "step", "mode", "device_class",
                   "unit_of_measurement", "entity_category", "icon"],
        "sensor": ["name", "unique_id", "state_topic", "device_class", "icon"],
    ]

    func components(brightness: Bool) throws -> [String: [String: Any]] {
        try deviceConfigComponents(DisplayEntities.entities(topics: Self.topics, brightness: brightness), topics: Self.topics)
    }

    @Test func everyKeyIsInHomeAssistantsSchema() throws {
        let cmps = try components(brightness: true)
        #expect(Set(cmps.keys) == ["display_light", "blank_after_number", "last_touch_sensor"])
        for (id, c) in cmps {
            let platform = try #require(c["p"] as? String)
            #expect(Set(c.keys) == Self.keys[platform, default: []].union(["p"]), "\(id): \(c.keys.sorted())")
        }
        let light = try #require(cmps["display_light"])
        #expect(light["schema"] as? String == "json")
        #expect(light["supported_color_modes"] as? [String] == ["brightness"])
        #expect(light["brightness_scale"] as? Int == 100)
        #expect(light["command_topic"] as? String == "kiosk/hall/display/set" && light["state_topic"] as? String == "kiosk/hall/display/state")
        let number = try #require(cmps["blank_after_number"])
        #expect(number["entity_category"] as? String == "config" && number["device_class"] as? String == "duration")
        #expect(number["unit_of_measurement"] as? String == "s" && number["min"] as? Int == 0 && number["max"] as? Int == 86_400)
        let sensor = try #require(cmps["last_touch_sensor"])
        #expect(sensor["device_class"] as? String == "timestamp" && sensor["state_topic"] as? String == "kiosk/hall/last_touch/state")
    }

    @Test func withoutABacklightTheLightIsOnAndOff() throws {
        let light = try #require(try components(brightness: false)["display_light"])
        #expect(light["supported_color_modes"] as? [String] == ["onoff"])
        #expect(light["brightness_scale"] == nil)
    }

    @Test func statesAreTheJSONSchemasAndTheNumbersText() {
        #expect(DisplayEntities.lightState(on: true, brightness: 0.4) == #"{"state":"ON","brightness":40}"#)
        #expect(DisplayEntities.lightState(on: false, brightness: nil) == #"{"state":"OFF"}"#)
        // Home Assistant ignores a brightness of 0: the dimmest is said as 1.
        #expect(DisplayEntities.lightState(on: true, brightness: 0) == #"{"state":"ON","brightness":1}"#)
        #expect(DisplayEntities.blankAfterState(120) == "120")
        #expect(WallClock.iso8601(0) == "1970-01-01T00:00:00+00:00" && WallClock.iso8601(1_795_699_810.7) == "2026-11-26T13:30:10+00:00")
    }

    @Test(arguments: [
        (#"{"state":"ON","brightness":60}"#, DisplayEntities.Command.light(on: true, brightness: 0.6)),
        (#"{"state":"OFF"}"#, .light(on: false, brightness: nil)),
        (#"{"brightness":100}"#, .light(on: nil, brightness: 1)),
        ("ON", .light(on: true, brightness: nil)),
        ("OFF", .light(on: false, brightness: nil)),
    ])
    func lightCommands(payload: String, command: DisplayEntities.Command) {
        #expect(DisplayEntities.command(level: "display", payload: Array(payload.utf8)) == .success(command))
    }

    @Test(arguments: [#"{"state":"DIM"}"#, #"{"brightness":101}"#, "{}", "on", #"{"state":1}"#, "not json"])
    func badLightCommandsAreRefusedSayingWhy(payload: String) {
        guard case .failure(let p) = DisplayEntities.command(level: "display", payload: Array(payload.utf8)) else {
            Issue.record("'\(payload)' was taken")
            return
        }
        #expect(!p.message.isEmpty)
    }

    @Test func blankAfterCommands() {
        #expect(DisplayEntities.command(level: "blank_after", payload: Array("300".utf8)) == .success(.blankAfter(300)))
        #expect(DisplayEntities.command(level: "blank_after", payload: Array("86401".utf8))
            == .failure(CommandProblem("expected seconds from 0 (never) to 86400, found '86401'")))
        #expect(DisplayEntities.command(level: "slider", payload: Array("1".utf8)) == nil)
    }
}
