import KioskCore
import Foundation

/// The reply lines of the control socket: `{"id": ..., "ok": true, ...}` or
/// `{"id": ..., "ok": false, "error": "..."}`, each one line of JSON.
public enum ControlReply {
    /// A success reply: `ok`, the id echoed (as it was written), and `extra`, a key with its JSON text.
    public static func ok(_ id: String?, _ extra: (key: String, json: String)? = nil) -> String {
        var fields: [String] = []
        if let id { fields.append("\"id\": \(id)") }
        fields.append("\"ok\": true")
        if let extra { fields.append("\(JSONString.quoted(extra.key)): \(extra.json)") }
        return "{" + fields.joined(separator: ", ") + "}"
    }

    /// A success reply with more than one key: each key with its JSON text, in order.
    public static func ok(_ id: String?, keys extras: [(key: String, json: String)]) -> String {
        var fields: [String] = []
        if let id { fields.append("\"id\": \(id)") }
        fields.append("\"ok\": true")
        for e in extras { fields.append("\(JSONString.quoted(e.key)): \(e.json)") }
        return "{" + fields.joined(separator: ", ") + "}"
    }

    /// An error reply naming what is wrong, with the id echoed when one was read.
    public static func error(_ id: String?, _ message: String) -> String {
        var fields: [String] = []
        if let id { fields.append("\"id\": \(id)") }
        fields.append("\"ok\": false")
        fields.append("\"error\": \(JSONString.quoted(message))")
        return "{" + fields.joined(separator: ", ") + "}"
    }

    /// The reply to `screenshot`: the PNG's bytes in base64 (`png`), its size in pixels and bytes.
    /// In the reply, not in a file the client names: the kiosk runs sandboxed as its own user and
    /// may not write where the client wants, and no client should make it write files; the
    /// client writes the file itself, as its own user (`kiosk control screenshot --out FILE`).
    public static func screenshot(_ id: String?, png: [UInt8], width: Int, height: Int) -> String {
        var fields: [String] = []
        if let id { fields.append("\"id\": \(id)") }
        fields.append("\"ok\": true")
        fields.append("\"width\": \(width)")
        fields.append("\"height\": \(height)")
        fields.append("\"bytes\": \(png.count)")
        fields.append("\"png\": \"\(Data(png).base64EncodedString())\"")
        return "{" + fields.joined(separator: ", ") + "}"
    }
}
