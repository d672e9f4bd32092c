
/// How a message becomes one line of text: `[  1234.567890] info message key.a=1 key.b="two words"`.
///
/// One message is always one line, so a reader can grep and count: control characters (newlines
/// included) are written as escapes (`\n`, `\r`, `\t`, `\x1b`), which also keeps a stray escape
/// sequence from reprogramming the engineer's terminal. Metadata follows sorted by key, so the
/// same message always looks the same.
public enum LogLineFormat {
    /// The whole line, without a terminator; `repeats` > 0 adds ` (repeated N times)` after the message.
    public static func line(
        timestamp: Double, level: Logger.Level, message: String, repeats: Int = 0, metadata: Logger.Metadata = [:]
    ) -> String {
        var line = self.timestamp(timestamp)
        line += " "
        line += level.rawValue
        line += " "
        line += escaped(message)
        if repeats > 0 {
            line += " (repeated \(repeats) times)"
        }
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
            line += " "
            line += escaped(key)
            line += "="
            line += self.value("\(value)")
        }
        return line
    }

    /// `[  1234.567890]`: seconds right-aligned in six columns, microseconds always six digits.
    public static func timestamp(_ seconds: Double) -> String {
        let micros = seconds.isFinite && seconds > 0 ? Int64((seconds * 1_000_000).rounded()) : 0
        let whole = String(micros / 1_000_000)
        let fraction = String(micros % 1_000_000)
        return "[" + String(repeating: " ", count: max(0, 6 - whole.count)) + whole + "."
            + String(repeating: "0", count: 6 - fraction.count) + fraction + "]"
    }

    /// A metadata value, quoted when it is empty or holds spaces, quotes or control characters,
    /// so `key=value` pairs stay splittable on spaces.
    static func value(_ text: String) -> String {
        let needsQuotes = text.isEmpty || text.unicodeScalars.contains { $0 == " " || $0 == "\"" || isControl($0) }
        guard needsQuotes else { return text }
        var quoted = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            default: append(scalar, to: &quoted)
            }
        }
        return quoted + "\""
    }

    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        for scalar in text.unicodeScalars { append(scalar, to: &result) }
        return result
    }

    private static func append(_ scalar: Unicode.Scalar, to text: inout String) {
        switch scalar {
        case "\n": text += "\\n"
        case "\r": text += "\\r"
        case "\t": text += "\\t"
        case _ where isControl(scalar):
            let hex = String(scalar.value, radix: 16)
            text += "\\x" + (hex.count < 2 ? "0" : "") + hex
        default: text.unicodeScalars.append(scalar)
        }
    }

    /// C0 controls, DEL and C1 controls: what a terminal may act on instead of printing.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
