import Foundation
import KioskCore

/// The display in Home Assistant: a `light` "Display" (on and off; brightness when the panel has
/// a backlight), a `number` "Blank after" (seconds, entity category `config`), and a `sensor`
/// "Last touch" (device class `timestamp`). Their payloads, and what their commands ask for.
///
/// The light uses the JSON schema: one command topic takes `{"state": "ON", "brightness": 60}`
/// together, and the state says both (`brightness_scale` 100: a percentage, as the slider's).
public enum DisplayEntities {
    public static let light = "display"
    public static let blankAfter = "blank_after"
    public static let lastTouch = "last_touch"
    /// `blank_after`'s range in seconds, as `[display] blank_after` takes it.
    public static let longestBlankAfter = 86_400.0

    /// The three entities; the light offers brightness only with `brightness` (a backlight).
    public static func entities(topics: KioskTopics, brightness: Bool) -> [DeviceEntity] {
        var light = JSONObject(compact: true)
        light.add("schema", "json")
        light.add("command_topic", topics.command(Self.light))
        light.add("state_topic", topics.state(Self.light))
        light.add("supported_color_modes", raw: brightness ? "[\"brightness\"]" : "[\"onoff\"]")
        if brightness { light.add("brightness_scale", 100) }
        light.add("icon", "mdi:monitor")
        var number = JSONObject(compact: true)
        number.add("command_topic", topics.command(Self.blankAfter))
        number.add("state_topic", topics.state(Self.blankAfter))
        number.add("min", 0)
        number.add("max", Int(longestBlankAfter))
        number.add("step", 1)
        number.add("mode", "box")
        number.add("device_class", "duration")
        number.add("unit_of_measurement", "s")
        number.add("entity_category", "config")
        number.add("icon", "mdi:monitor-off")
        var sensor = JSONObject(compact: true)
        sensor.add("state_topic", topics.state(Self.lastTouch))
        sensor.add("device_class", "timestamp")
        sensor.add("icon", "mdi:gesture-tap")
        return [
            DeviceEntity(component: "light", level: Self.light, name: "Display", keys: light, retainedTopics: [topics.state(Self.light)]),
            DeviceEntity(component: "number", level: Self.blankAfter, name: "Blank after", keys: number,
                         retainedTopics: [topics.state(Self.blankAfter)]),
            DeviceEntity(component: "sensor", level: Self.lastTouch, name: "Last touch", keys: sensor, retainedTopics: [topics.state(Self.lastTouch)]),
        ]
    }

    /// The light's state: `{"state":"ON","brightness":60}`; without a backlight, the state alone.
    public static func lightState(on: Bool, brightness: Double?) -> String {
        var j = JSONObject(compact: true)
        j.add("state", on ? ControlPayload.on : ControlPayload.off)
        if let brightness { j.add("brightness", max(1, Int((brightness * 100).rounded()))) }
        return j.json
    }

    /// `blank_after`'s state: whole seconds (the number's step), or with decimals when set so.
    public static func blankAfterState(_ seconds: Double) -> String { JSONObject.number(seconds, 3) }

    /// What a display command asks for.
    public enum Command: Sendable, Equatable {
        /// On or off, and the brightness (0...1): either or both.
        case light(on: Bool?, brightness: Double?)
        case blankAfter(Double)
    }

    /// Reads a command for the entity at `level`; nil when the level is none of the display's.
    /// The light takes its JSON schema's `{"state": "ON", "brightness": 60}` (brightness from 0
    /// to 100, `brightness_scale`), or a plain `ON` or `OFF`; the number a count of seconds.
    public static func command(level: String, payload: [UInt8]) -> Result<Command, CommandProblem>? {
        let text = String(decoding: payload, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        switch level {
        case Self.light:
            if text == ControlPayload.on || text == ControlPayload.off { return .success(.light(on: text == ControlPayload.on, brightness: nil)) }
            guard let form = try? JSONDecoder().decode(LightForm.self, from: Data(text.utf8)) else {
                return .failure(CommandProblem("expected {\"state\": \"ON\" or \"OFF\", \"brightness\": 0 to 100}, or ON or OFF; found '\(text.prefix(64))'"))
            }
            var on: Bool?
            if let state = form.state {
                guard state == ControlPayload.on || state == ControlPayload.off else {
                    return .failure(CommandProblem("\"state\" must be \"ON\" or \"OFF\", found '\(state.prefix(20))'"))
                }
                on = state == ControlPayload.on
            }
            if let b = form.brightness, !(b.isFinite && b >= 0 && b <= 100) {
                return .failure(CommandProblem("\"brightness\" must be from 0 to 100, found \(b)"))
            }
            guard on != nil || form.brightness != nil else { return .failure(CommandProblem("give \"state\" or \"brightness\"")) }
            return .success(.light(on: on, brightness: form.brightness.map { $0 / 100 }))
        case Self.blankAfter:
            guard let seconds = Double(text), seconds.isFinite, seconds >= 0, seconds <= longestBlankAfter else {
                return .failure(CommandProblem("expected seconds from 0 (never) to \(Int(longestBlankAfter)), found '\(text.prefix(64))'"))
            }
            return .success(.blankAfter(seconds))
        default:
            return nil
        }
    }

    private struct LightForm: Decodable {
        var state: String?
        var brightness: Double?
    }
}

/// Why a display command was not taken: logged with its topic.
public struct CommandProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
