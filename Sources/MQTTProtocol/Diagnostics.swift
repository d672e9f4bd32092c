import KioskCore

/// The kiosk's health in Home Assistant: entities of category `diagnostic` that all read one JSON
/// message on `<prefix>/diagnostics`, each its key through a `value_template`. The message is not
/// retained (a figure from before a restart would be a false one): it goes at each stats line
/// (`[log] stats_interval`) and once at connect.
///
/// Keys (Home Assistant's MQTT `sensor` and `binary_sensor` schemas, homeassistant/components/mqtt:
/// sensor.py, binary_sensor.py; units per the sensor device classes'): `fps` (frames drawn a second),
/// `latency_p99` (input-to-flip, ms, `duration`; null, Home Assistant's unknown, when nothing was
/// touched), `overruns` (stage overruns since start, `total_increasing`), `touchscreen` (`ON`/`OFF`,
/// a `connectivity` binary_sensor), `started` (ISO 8601, a `timestamp`), `cpu_temperature` (°C, the
/// first thermal zone's; its entity only where the machine has one) and `mqtt_dropped` (presses and
/// commands dropped since start, `total_increasing`).
public enum Diagnostics {
    /// One message's figures.
    public struct Figures: Sendable, Equatable {
        public var framesPerSecond: Double
        public var latencyP99Milliseconds: Double?
        public var overruns: Int
        public var touchscreenConnected: Bool
        /// ISO 8601 with its offset, such as `2026-11-26T13:30:11+00:00`.
        public var started: String
        public var cpuTemperature: Double?
        public var mqttDropped: Int

        public init(framesPerSecond: Double, latencyP99Milliseconds: Double?, overruns: Int, touchscreenConnected: Bool,
                    started: String, cpuTemperature: Double?, mqttDropped: Int) {
            self.framesPerSecond = framesPerSecond
            self.latencyP99Milliseconds = latencyP99Milliseconds
            self.overruns = overruns
            self.touchscreenConnected = touchscreenConnected
            self.started = started
            self.cpuTemperature = cpuTemperature
            self.mqttDropped = mqttDropped
        }
    }

    /// The topic level of the message; its entities' levels are their keys.
    public static let level = "diagnostics"

    /// Where the message goes: `<prefix>/diagnostics`.
    public static func topic(_ topics: KioskTopics) -> String { "\(topics.prefix)/\(level)" }

    /// The message, compact JSON: a figure not known is `null`.
    public static func payload(_ f: Figures) -> String {
        var j = JSONObject(compact: true)
        j.add("fps", f.framesPerSecond, digits: 1)
        if let p99 = f.latencyP99Milliseconds { j.add("latency_p99", p99, digits: 2) } else { j.add("latency_p99", raw: "null") }
        j.add("overruns", f.overruns)
        j.add("touchscreen", f.touchscreenConnected ? ControlPayload.on : ControlPayload.off)
        j.add("started", f.started)
        if let t = f.cpuTemperature { j.add("cpu_temperature", t, digits: 1) } else { j.add("cpu_temperature", raw: "null") }
        j.add("mqtt_dropped", f.mqttDropped)
        return j.json
    }

    /// The entities, in the order Home Assistant lists them; `cpuTemperature`: the machine has a
    /// thermal zone to read.
    public static func entities(topics: KioskTopics, cpuTemperature: Bool) -> [DeviceEntity] {
        let state = topic(topics)
        func sensor(_ key: String, _ name: String, deviceClass: String? = nil, unit: String? = nil, stateClass: String? = nil,
                    icon: String? = nil, precision: Int? = nil) -> DeviceEntity {
            var k = JSONObject(compact: true)
            k.add("entity_category", "diagnostic")
            k.add("state_topic", state)
            k.add("value_template", "{{ value_json.\(key) }}")
            if let deviceClass { k.add("device_class", deviceClass) }
            if let unit { k.add("unit_of_measurement", unit) }
            if let stateClass { k.add("state_class", stateClass) }
            if let precision { k.add("suggested_display_precision", precision) }
            if let icon { k.add("icon", icon) }
            return DeviceEntity(component: "sensor", level: key, name: name, keys: k)
        }
        var touchscreen = JSONObject(compact: true)
        touchscreen.add("entity_category", "diagnostic")
        touchscreen.add("state_topic", state)
        touchscreen.add("value_template", "{{ value_json.touchscreen }}")
        touchscreen.add("device_class", "connectivity")
        touchscreen.add("payload_on", ControlPayload.on)
        touchscreen.add("payload_off", ControlPayload.off)
        var all = [
            sensor("fps", "Frame rate", unit: "fps", stateClass: "measurement", icon: "mdi:speedometer", precision: 1),
            sensor("latency_p99", "Touch latency p99", deviceClass: "duration", unit: "ms", stateClass: "measurement", precision: 1),
            sensor("overruns", "Stage overruns", stateClass: "total_increasing", icon: "mdi:timer-alert-outline"),
            DeviceEntity(component: "binary_sensor", level: "touchscreen", name: "Touchscreen", keys: touchscreen),
            sensor("started", "Started", deviceClass: "timestamp"),
        ]
        if cpuTemperature {
            all.append(sensor("cpu_temperature", "CPU temperature", deviceClass: "temperature", unit: "°C", stateClass: "measurement", precision: 1))
        }
        all.append(sensor("mqtt_dropped", "MQTT messages dropped", stateClass: "total_increasing", icon: "mdi:message-alert-outline"))
        return all
    }
}
