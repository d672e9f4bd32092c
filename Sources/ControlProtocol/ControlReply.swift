import Foundation

/// The reply lines of the control socket: `{"id": ..., "ok": true, ...}` or
/// `{"id": ..., "ok": false, "error": "..."}`, each one line of JSON.
public enum ControlReply {
    /// A success reply: `ok`, the id echoed (as it was written), and `extra`, a key with its JSON text.
    public static func ok(_ id: String?, _ extra: (key: String, json: String)? = nil) -> String {
        var fields: [String] = []
        if let id { fields.append("\"id\": \(id)") }
        fields.append("\"ok\": true")
        if let extra { fields.append("\(quoted(extra.key)): \(extra.json)") }
        return "{" + fields.joined(separator: ", ") + "}"
    }

    /// An error reply naming what is wrong, with the id echoed when one was read.
    public static func error(_ id: String?, _ message: String) -> String {
        var fields: [String] = []
        if let id { fields.append("\"id\": \(id)") }
        fields.append("\"ok\": false")
        fields.append("\"error\": \(quoted(message))")
        return "{" + fields.joined(separator: ", ") + "}"
    }

    /// `s` as a JSON string, control characters escaped: never a raw newline in a line.
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
