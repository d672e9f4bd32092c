/// JSON strings as RFC 8259 spells them, for every JSON kiosk writes (replay's outputs, the control
/// socket's replies and events, MQTT payloads and Home Assistant's discovery): control characters
/// escaped, and U+2028 and U+2029 too, so a line of JSON Lines is never split by a reader that
/// takes them for line breaks.
public enum JSONString {
    public static func quoted(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where u.value < 0x20 || u.value == 0x2028 || u.value == 0x2029:
                let hex = String(u.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }
}
