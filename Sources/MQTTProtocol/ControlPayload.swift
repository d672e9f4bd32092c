import KioskCore
import Scene

/// What a message on a control's command topic asks for, in Home Assistant's payloads.
public enum ControlCommand: Sendable, Equatable {
    /// The slider's value as a percentage, 0 to 100 (Home Assistant's `number`).
    case percent(Double)
    /// The switch: `ON` or `OFF`.
    case on(Bool)
    /// The button: `PRESS` fires it as one tap.
    case press
}

/// The payloads kiosk publishes and the commands it accepts, per control kind.
public enum ControlPayload {
    /// Home Assistant's defaults: `payload_on`, `payload_off`, `payload_press`.
    public static let on = "ON"
    public static let off = "OFF"
    public static let press = "PRESS"
    /// The button's event type in its `event` entity.
    public static let pressEvent = "press"
    /// The longest command payload read; longer ones are refused unread.
    public static let maximumCommandBytes = 64
    /// The longest label: the scene's (and the control socket's) limit, Home Assistant's `max`.
    public static let maximumLabelCharacters = KioskScene.maximumLabelLength
    /// The longest label command read: its characters in UTF-8 (up to 4 bytes each); longer ones
    /// are refused unread.
    public static let maximumLabelBytes = maximumLabelCharacters * 4

    /// Reads a new label for a button: UTF-8, one line, at most `maximumLabelCharacters` (the
    /// scene checks the characters and the line again, as for the socket's).
    public static func label(_ payload: [UInt8]) -> Result<String, PayloadError> {
        let expected = "one line of at most \(maximumLabelCharacters) characters"
        guard payload.count <= maximumLabelBytes else { return .failure(PayloadError(shown: "\(payload.count) bytes", expected: expected)) }
        guard let text = String(validating: payload, as: UTF8.self) else {
            return .failure(PayloadError(shown: "\(payload.count) bytes that are not UTF-8", expected: expected))
        }
        guard text.count <= maximumLabelCharacters, !text.contains(where: \.isNewline) else {
            return .failure(PayloadError(shown: "\(shown(text)) (\(text.count) characters)", expected: expected))
        }
        return .success(text)
    }

    /// Reads a command for a control of `kind`; the error says what was wrong and what is expected.
    public static func command(_ payload: [UInt8], for kind: ViewKind) -> Result<ControlCommand, PayloadError> {
        guard payload.count <= maximumCommandBytes else {
            return .failure(PayloadError(shown: "\(payload.count) bytes", expected: expected(kind)))
        }
        guard let text = String(validating: payload, as: UTF8.self) else {
            return .failure(PayloadError(shown: "\(payload.count) bytes that are not UTF-8", expected: expected(kind)))
        }
        let word = text.trimmingSpaces
        let fail = PayloadError(shown: shown(text), expected: expected(kind))
        switch kind {
        case .slider:
            guard let n = decimal(word), (0...100).contains(n) else { return .failure(fail) }
            return .success(.percent(n))
        case .toggle:
            switch word.uppercased() {
            case on: return .success(.on(true))
            case off: return .success(.on(false))
            default: return .failure(fail)
            }
        case .button:
            return word.uppercased() == press ? .success(.press) : .failure(fail)
        case .canvas, .square:
            return .failure(PayloadError(shown: shown(text), expected: "nothing: a \(kind.rawValue) takes no commands"))
        }
    }

    /// The slider's state: its value as a percentage with one decimal.
    public static func percentState(_ value: Double) -> String { fixedDecimal(min(max(value, 0), 1) * 100, 1) }
    public static func switchState(_ on: Bool) -> String { on ? Self.on : off }
    /// The button's state: its tap count and label, as JSON.
    public static func buttonState(taps: Int, label: String) -> String {
        "{\"taps\":\(taps),\"label\":\(JSONString.quoted(label))}"
    }
    /// One press, for Home Assistant's `event` entity: `event_type`, and the tap count as an attribute.
    public static func pressEvent(taps: Int) -> String { "{\"event_type\":\"\(pressEvent)\",\"taps\":\(taps)}" }

    static func expected(_ kind: ViewKind) -> String {
        switch kind {
        case .slider: "a number from 0 to 100 (percent), such as 42.5"
        case .toggle: "ON or OFF"
        case .button: "PRESS"
        case .canvas, .square: "nothing"
        }
    }

    /// Plain decimal notation only: Swift's `Double(_:)` would also take `nan`, `inf` and hexadecimal.
    static func decimal(_ s: Substring) -> Double? {
        guard !s.isEmpty, s.count <= 32 else { return nil }
        var digits = 0
        for (i, c) in s.enumerated() {
            switch c {
            case "0"..."9": digits += 1
            case ".": break
            case "+" where i == 0, "-" where i == 0: break
            default: return nil
            }
        }
        guard digits > 0, let n = Double(s), n.isFinite else { return nil }
        return n
    }

    /// The payload as a log line can show it: printable, at most 40 characters.
    static func shown(_ text: String) -> String {
        var out = ""
        for u in text.unicodeScalars.prefix(40) {
            out += u.value >= 0x20 && u.value != 0x7F ? String(u) : "\\u{\(String(u.value, radix: 16))}"
        }
        if text.unicodeScalars.count > 40 { out += "..." }
        return "'\(out)'"
    }
}

/// A command payload kiosk refuses: what came and what would be right.
public struct PayloadError: Error, Sendable, Equatable, CustomStringConvertible {
    public var shown: String
    public var expected: String
    public init(shown: String, expected: String) {
        self.shown = shown
        self.expected = expected
    }
    public var description: String { "\(shown) is not a command; expected \(expected)" }
}

extension String {
    var trimmingSpaces: Substring {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" || f == "\n" || f == "\r" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\n" || l == "\r" { s.removeLast() }
        return s
    }
}
