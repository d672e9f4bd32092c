import Foundation
import KioskCore
import KioskTestSupport
import MQTT
import MQTTProtocol
@testable import Runtime
import Testing

/// The kiosk's health in Home Assistant: the diagnostics entities' keys, one by one against Home
/// Assistant's MQTT sensor and binary_sensor schemas (2025.4.4), the message's keys, and the
/// message on a real broker at connect and at every stats line of kiosk's own (virtual) clock.
@Suite struct DiagnosticsPayloadTests {
    static let topics = KioskTopics(prefix: "kiosk/hall", discoveryPrefix: "homeassistant", clientID: "kiosk-hall")

    /// Home Assistant's MQTT `sensor` schema (sensor.py `_PLATFORM_SCHEMA_BASE`, with
    /// `MQTT_RO_SCHEMA` and `MQTT_ENTITY_COMMON_SCHEMA`) and `binary_sensor`'s, the keys used here.
    static let sensorKeys: Set<String> = ["name", "unique_id", "entity_category", "state_topic", "value_template", "device_class",
                                          "unit_of_measurement", "state_class", "suggested_display_precision", "icon"]
    static let binarySensorKeys: Set<String> = ["name", "unique_id", "entity_category", "state_topic", "value_template",
                                                "device_class", "payload_on", "payload_off"]

    /// Each entity in the device config, its keys and values.
    func components(cpuTemperature: Bool) throws -> [String: [String: Any]] {
        try deviceConfigComponents(Diagnostics.entities(topics: Self.topics, cpuTemperature: cpuTemperature), topics: Self.topics)
    }

    @Test func everyEntityKeyByKey() throws {
        let cmps = try components(cpuTemperature: true)
        #expect(Set(cmps.keys) == ["fps_sensor", "latency_p99_sensor", "overruns_sensor", "touchscreen_binary_sensor", "started_sensor",
                                   "cpu_temperature_sensor", "mqtt_dropped_sensor"])
        for (id, c) in cmps {
            let platform = try #require(c["p"] as? String)
            let allowed = platform == "sensor" ? Self.sensorKeys : Self.binarySensorKeys
            #expect(Set(c.keys).subtracting(["p"]).isSubset(of: allowed), "\(id): \(c.keys.sorted())")
            #expect(c["entity_category"] as? String == "diagnostic", "\(id)")
            #expect(c["state_topic"] as? String == "kiosk/hall/diagnostics", "\(id)")
            let key = String(id.dropLast(platform.count + 1))
            #expect(c["value_template"] as? String == "{{ value_json.\(key) }}", "\(id)")
            #expect(c["unique_id"] as? String == "kiosk-hall_\(key)_\(platform)", "\(id)")
        }
        func expect(_ id: String, _ name: String, _ values: [String: String], precision: Int? = nil) {
            let c = cmps[id] ?? [:]
            #expect(c["name"] as? String == name, "\(id)")
            for k in ["device_class", "unit_of_measurement", "state_class"] { #expect(c[k] as? String == values[k], "\(id) \(k)") }
            #expect(c["suggested_display_precision"] as? Int == precision, "\(id)")
        }
        expect("fps_sensor", "Frame rate", ["unit_of_measurement": "fps", "state_class": "measurement"], precision: 1)
        expect("latency_p99_sensor", "Touch latency p99", ["device_class": "duration", "unit_of_measurement": "ms", "state_class": "measurement"],
               precision: 1)
        expect("overruns_sensor", "Stage overruns", ["state_class": "total_increasing"])
        expect("started_sensor", "Started", ["device_class": "timestamp"])
        expect("cpu_temperature_sensor", "CPU temperature", ["device_class": "temperature", "unit_of_measurement": "°C",
                                                             "state_class": "measurement"], precision: 1)
        expect("mqtt_dropped_sensor", "MQTT messages dropped", ["state_class": "total_increasing"])
        let touchscreen = try #require(cmps["touchscreen_binary_sensor"])
        #expect(touchscreen["name"] as? String == "Touchscreen" && touchscreen["device_class"] as? String == "connectivity")
        #expect(touchscreen["payload_on"] as? String == "ON" && touchscreen["payload_off"] as? String == "OFF")
        // No thermal zone: no CPU temperature entity.
        #expect(try components(cpuTemperature: false)["cpu_temperature_sensor"] == nil)
        // Every level is reserved: no view can take it.
        for e in Diagnostics.entities(topics: Self.topics, cpuTemperature: true) { #expect(KioskTopics.reservedLevels.contains(e.level)) }
        #expect(KioskTopics.reservedLevels.contains(Diagnostics.level))
    }

    @Test func theMessageKeyByKey() throws {
        let f = Diagnostics.Figures(framesPerSecond: 59.94, latencyP99Milliseconds: 12.345, overruns: 3, touchscreenConnected: true,
                                    started: "2026-11-26T13:30:11+00:00", cpuTemperature: 47.25, mqttDropped: 2)
        #expect(Diagnostics.payload(f) == #"{"fps":59.9,"latency_p99":12.35,"overruns":3,"touchscreen":"ON","started":"2026-11-26T13:30:11+00:00","cpu_temperature":47.3,"mqtt_dropped":2}"#)
        // What is not known is null, which Home Assistant's templates render as None: unknown.
        let idle = Diagnostics.Figures(framesPerSecond: 0, latencyP99Milliseconds: nil, overruns: 0, touchscreenConnected: false,
                                       started: "x", cpuTemperature: nil, mqttDropped: 0)
        #expect(Diagnostics.payload(idle) == #"{"fps":0,"latency_p99":null,"overruns":0,"touchscreen":"OFF","started":"x","cpu_temperature":null,"mqtt_dropped":0}"#)
    }

    @Test func startTimeIsISO8601InUTC() {
        #expect(WallClock.iso8601(0) == "1970-01-01T00:00:00+00:00")
        #expect(WallClock.iso8601(1_795_700_000.9) == "2026-11-26T13:33:20+00:00")
        #expect(WallClock.iso8601(951_782_400) == "2000-02-29T00:00:00+00:00")
    }
}

@Suite(.enabled(if: Broker.available, "needs mosquitto and mosquitto-clients"), .serialized)
struct DiagnosticsOnBrokerTests {
    static let topic = "\(KioskOnBrokerTests.prefix)/diagnostics"

    func messages(_ sub: LineProcess) -> [[String: Any]] {
        sub.payloads(on: Self.topic).compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// Once at connect, after the device config; then at each stats line of kiosk's clock, never
    /// between; never retained; the loop's figures in it.
    @Test func atConnectAndAtEveryStatsLine() throws {
        let broker = try Broker()
        let sub = try broker.subscribe([Self.topic, "homeassistant/device/#"])
        let h = try VirtualLoopOnBroker(broker: broker, log: "stats_interval = 5\n")
        #expect(h.run { messages(sub).count == 1 }, "\(sub.text)")
        let first = try #require(messages(sub).first)
        let configAt = try #require(sub.lines.firstIndex { $0.hasPrefix("homeassistant/device/") })
        let messageAt = try #require(sub.lines.firstIndex { $0.hasPrefix(Self.topic) })
        #expect(configAt < messageAt, "the entities are announced before their first figures")
        #expect(Set(first.keys) == ["fps", "latency_p99", "overruns", "touchscreen", "started", "cpu_temperature", "mqtt_dropped"])
        #expect(first["touchscreen"] as? String == "OFF", "no touchscreen here")
        #expect(first["latency_p99"] is NSNull && first["overruns"] as? Int == 0 && first["mqtt_dropped"] as? Int == 0)
        #expect(first["cpu_temperature"] is NSNull == (HostFacts().cpuTemperature() == nil))
        let started = try #require(first["started"] as? String)
        let date = try #require(ISO8601DateFormatter().date(from: started), "\(started)")
        #expect(abs(date.timeIntervalSinceNow) < 600, "\(started)")

        // 4.9 s of kiosk's time: nothing more; at 5 s the stats line and the message.
        let start = h.clock.now
        h.clock.now = start.adding(seconds: 4.9)
        h.wake()
        h.run(seconds: 0.3) { false }
        #expect(messages(sub).count == 1, "\(sub.text)")
        #expect(h.loop.nextWake() == start.adding(seconds: 5))
        for n in 1...3 {
            h.clock.now = start.adding(seconds: 5 * Double(n))
            h.wake()
            #expect(h.run { messages(sub).count == n + 1 }, "\(sub.text)")
            #expect(h.handler.entries.contains { $0.message.description == "stats \(n)" })
        }
        // A stats line's figures: no frames were drawn in the interval.
        #expect(messages(sub).last?["fps"] as? Double == 0 || messages(sub).last?["fps"] as? Int == 0)
        #expect(try broker.retained([Self.topic]).isEmpty, "not retained")
    }
}
