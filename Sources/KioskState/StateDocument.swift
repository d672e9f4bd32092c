import Foundation
import KioskCore
import Scene

/// What the state file holds: a small versioned JSON document.
///
/// ```json
/// {
///   "version": 1,
///   "views": {
///     "slider": {"kind": "slider", "value": 0.956},
///     "lamp": {"kind": "switch", "on": true},
///     "button": {"kind": "button", "label": "Press me", "taps": 3},
///     "canvas": {"kind": "canvas", "theme": "night"}
///   },
///   "mqtt": {"announced": ["homeassistant/device/kiosk/config", "kiosk/slider/state"],
///            "device_components": {"homeassistant/device/kiosk/config": {"slider_number": "number"}}},
///   "display": {"on": true, "brightness": 0.6, "blank_after": 300, "blank_after_config": 120}
/// }
/// ```
///
/// `parse` reads any bytes without trapping (it is fuzzed, Fuzz/Sources/fuzz-state); what it
/// checks is the document's shape. Whether a value fits the current config (a view that exists, a
/// slider within 0...1) is checked when it is restored into the scene (`KioskScene.restore`).
public struct StateDocument: Sendable, Equatable {
    /// The format this kiosk reads and writes; a file of another version is not read.
    public static let version = 1
    /// The largest state file read: a few hundred bytes a view, far below it.
    public static let maximumBytes = 1 << 20

    /// The views' saved states: in the scene's order when written, by name when parsed.
    public var views: [SavedView]
    /// What MQTT announced (retained topics), for clearing what a later config no longer has.
    public var announcedTopics: Set<String>
    /// The components each device config MQTT announced held (`cmps`): by the config's topic,
    /// each component id's platform. Empty in a file from before they were kept.
    public var deviceComponents: [String: [String: String]]
    /// The display's on/off, brightness and `blank_after` as last set; nil in a file from before.
    public var display: SavedDisplay?

    public init(views: [SavedView] = [], announcedTopics: Set<String> = [], deviceComponents: [String: [String: String]] = [:],
                display: SavedDisplay? = nil) {
        self.views = views
        self.announcedTopics = announcedTopics
        self.deviceComponents = deviceComponents
        self.display = display
    }

    /// The document as the file holds it: one view a line, the topics sorted, numbers in the
    /// shortest spelling that reads back exactly.
    public var text: String {
        var out = "{\n  \"version\": \(Self.version),\n  \"views\": {"
        for (k, v) in views.enumerated() {
            out += k == 0 ? "\n" : ",\n"
            out += "    " + JSONString.quoted(v.name) + ": " + Self.json(v.state)
        }
        out += views.isEmpty ? "},\n" : "\n  },\n"
        out += "  \"mqtt\": {\"announced\": ["
        out += announcedTopics.sorted().map { "\n    " + JSONString.quoted($0) }.joined(separator: ",")
        out += announcedTopics.isEmpty ? "]" : "\n  ]"
        out += ", \"device_components\": {"
        out += deviceComponents.keys.sorted().map { topic in
            let components = (deviceComponents[topic] ?? [:]).sorted { $0.key < $1.key }
            return "\n    " + JSONString.quoted(topic) + ": {"
                + components.map { JSONString.quoted($0.key) + ": " + JSONString.quoted($0.value) }.joined(separator: ", ") + "}"
        }.joined(separator: ",")
        out += deviceComponents.isEmpty ? "}}" : "\n  }}"
        if let d = display { out += ",\n  \"display\": " + d.json }
        return out + "\n}\n"
    }

    private static func json(_ state: SavedViewState) -> String {
        let kind = "{\"kind\": " + JSONString.quoted(state.kind.rawValue) + ", "
        switch state {
        case .slider(let value): return kind + "\"value\": \(value)}"
        case .toggle(let on): return kind + "\"on\": \(on)}"
        case .button(let label, let taps): return kind + "\"label\": " + JSONString.quoted(label) + ", \"taps\": \(taps)}"
        case .canvas(let theme): return kind + "\"theme\": " + JSONString.quoted(theme) + "}"
        }
    }

    /// Reads a state file's bytes. Throws why they are not a state document of this version:
    /// empty, not JSON (a torn or corrupt file), another version, a view entry of the wrong shape.
    public static func parse(_ bytes: [UInt8]) throws(StateFileProblem) -> StateDocument {
        guard bytes.contains(where: { !Self.isSpace($0) }) else { throw StateFileProblem("the file is empty") }
        guard bytes.count <= maximumBytes else {
            throw StateFileProblem("the file is \(bytes.count) bytes, larger than the \(maximumBytes) a state file may be")
        }
        let data = Data(bytes)
        let version: Int
        do {
            version = try JSONDecoder().decode(Versioned.self, from: data).version
        } catch {
            throw StateFileProblem(describe(error, whole: true))
        }
        guard version == Self.version else {
            throw StateFileProblem("it is version \(version) of the state file; this kiosk reads version \(Self.version)")
        }
        let form: Form
        do {
            form = try JSONDecoder().decode(Form.self, from: data)
        } catch {
            throw StateFileProblem(describe(error, whole: false))
        }
        var views: [SavedView] = []
        for name in (form.views ?? [:]).keys.sorted() {
            guard let v = form.views?[name] else { continue }
            views.append(SavedView(name: name, state: try v.state(name)))
        }
        return StateDocument(views: views, announcedTopics: Set(form.mqtt?.announced ?? []),
                             deviceComponents: form.mqtt?.device_components ?? [:], display: try form.display?.saved())
    }

    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0a || b == 0x0d || b == 0x09 }

    private static func describe(_ error: any Error, whole: Bool) -> String {
        guard let e = error as? DecodingError else { return "not JSON: \(error)" }
        func path(_ c: DecodingError.Context) -> String {
            c.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch e {
        case .dataCorrupted(let c) where c.codingPath.isEmpty && whole:
            // Foundation's own words name the place; the usual cause is a file cut short.
            return "not JSON (torn or corrupt): \(c.debugDescription)"
        case .dataCorrupted(let c) where c.codingPath.isEmpty:
            // JSON (the version was read), with a value of the wrong type somewhere (a fraction of a tap).
            return "a value is not what a state file holds: \(c.debugDescription)"
        case .typeMismatch(_, let c) where c.codingPath.isEmpty:
            return "not a JSON object; a state file is one, such as {\"version\": \(version), \"views\": {}}"
        case .keyNotFound(let key, let c) where whole && c.codingPath.isEmpty:
            return "no \"\(key.stringValue)\": not a kiosk state file"
        case .keyNotFound(let key, let c):
            return "\(path(c)): missing \"\(key.stringValue)\""
        case .typeMismatch(let type, let c), .valueNotFound(let type, let c):
            return "\(path(c)): expected \(expected(type))"
        case .dataCorrupted(let c):
            return "\(path(c)): \(c.debugDescription)"
        @unknown default:
            return "\(e)"
        }
    }

    private static func expected(_ type: Any.Type) -> String {
        switch type {
        case is Int.Type: "a whole number"
        case is Double.Type: "a number"
        case is Bool.Type: "true or false"
        case is String.Type: "a string"
        default: "an object or a list"
        }
    }

    private struct Versioned: Decodable {
        var version: Int
    }

    private struct Form: Decodable {
        var views: [String: ViewForm]?
        var mqtt: MQTTForm?
        var display: DisplayForm?
    }

    private struct DisplayForm: Decodable {
        var on: Bool
        var brightness: Double?
        var blank_after: Double
        var blank_after_config: Double

        func saved() throws(StateFileProblem) -> SavedDisplay {
            if let b = brightness, !(0...1).contains(b) { throw StateFileProblem("display.brightness: \(b) is not from 0 to 1") }
            guard blank_after.isFinite, blank_after >= 0 else { throw StateFileProblem("display.blank_after: \(blank_after) is not 0 or more seconds") }
            return SavedDisplay(isOn: on, brightness: brightness, blankAfter: blank_after, blankAfterInConfig: blank_after_config)
        }
    }

    private struct MQTTForm: Decodable {
        var announced: [String]?
        /// Not in a file from before the device config's components were kept.
        var device_components: [String: [String: String]]?
    }

    private struct ViewForm: Decodable {
        var kind: String
        var value: Double?
        var on: Bool?
        var label: String?
        var taps: Int?
        var theme: String?

        func state(_ name: String) throws(StateFileProblem) -> SavedViewState {
            func missing(_ key: String) -> StateFileProblem { StateFileProblem("views.\(name): a \(kind) needs \"\(key)\"") }
            switch ViewKind(rawValue: kind) {
            case .slider:
                guard let value else { throw missing("value") }
                return .slider(value: value)
            case .toggle:
                guard let on else { throw missing("on") }
                return .toggle(on: on)
            case .button:
                guard let label else { throw missing("label") }
                guard let taps else { throw missing("taps") }
                return .button(label: label, taps: taps)
            case .canvas:
                guard let theme else { throw missing("theme") }
                return .canvas(theme: theme)
            case .square, nil:
                throw StateFileProblem("views.\(name): kind '\(kind)' has no saved state; expected slider, switch, button or canvas")
            }
        }
    }
}

/// The display's part of the state file: what was set at run time (the socket, MQTT).
public struct SavedDisplay: Sendable, Equatable {
    public var isOn: Bool
    /// The backlight's level, 0...1; nil without a backlight.
    public var brightness: Double?
    public var blankAfter: Double
    /// `[display] blank_after` when `blankAfter` was set: a config changed since wins over it.
    public var blankAfterInConfig: Double

    public init(isOn: Bool, brightness: Double?, blankAfter: Double, blankAfterInConfig: Double) {
        self.isOn = isOn
        self.brightness = brightness
        self.blankAfter = blankAfter
        self.blankAfterInConfig = blankAfterInConfig
    }

    var json: String {
        "{\"on\": \(isOn), " + (brightness.map { "\"brightness\": \($0), " } ?? "")
            + "\"blank_after\": \(blankAfter), \"blank_after_config\": \(blankAfterInConfig)}"
    }
}

/// Why a state file was not read: said in a warning with the file's path, and the kiosk starts
/// from the config's values.
public struct StateFileProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}
