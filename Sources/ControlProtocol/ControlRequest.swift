import Foundation
import KioskCore

/// One request line of the control socket, checked: a command with its arguments, and the `id`
/// to echo in the reply.
public struct ControlRequest: Sendable, Equatable {
    /// What the client asked for.
    public enum Command: Sendable, Equatable {
        case getState
        case setValue(view: String, Double)
        case setOn(view: String, Bool)
        case setLabel(view: String, String)
        case subscribe(Set<EventKind>)
        case unsubscribe
        case tap(Point)
        case swipe(from: Point, to: Point, seconds: Double)
        /// `set` on `display`: on or off, the backlight's brightness (0...1), `blank_after`; one or more.
        case setDisplay(on: Bool?, brightness: Double?, blankAfter: Double?)
        /// Wake the panel, as a touch would (without the touch).
        case wake
        /// A PNG of the frame the panel shows, in the reply (`ControlReply.screenshot`).
        case screenshot
    }

    /// The events a client may subscribe to.
    public enum EventKind: String, Sendable, CaseIterable, Comparable {
        case control, gesture, state
        public static func < (a: EventKind, b: EventKind) -> Bool { a.rawValue < b.rawValue }
    }

    public var command: Command
    /// The request's `id` as it was written (a JSON number or string), echoed in the reply.
    public var id: String?

    public static let commands = ["get_state", "set", "subscribe", "unsubscribe", "tap", "swipe", "screenshot", "wake"]
    /// The name `set` takes for the display (reserved: no view may have it).
    public static let displayView = "display"
    /// A swipe's duration when the request gives none, as adb's `input swipe`.
    public static let defaultSwipeSeconds = 0.3
    /// The longest request line read; a longer one is refused whole.
    public static let maximumLineBytes = 16 * 1024

    /// What was wrong with a request line; the reply says it, with the `id` when one was read.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        public var message: String
        public var id: String?
        public var description: String { message }
    }

    /// Reads one line (without its newline). Never throws anything but `Problem`; never traps.
    public static func parse(_ line: some Collection<UInt8>) throws(Problem) -> ControlRequest {
        let data = Data(line)
        guard data.count <= maximumLineBytes else {
            throw Problem(message: "request longer than \(maximumLineBytes) bytes")
        }
        let fields: Fields
        do {
            fields = try JSONDecoder().decode(Fields.self, from: data)
        } catch let error as DecodingError {
            throw Problem(message: describe(error), id: rawID(data))
        } catch {
            throw Problem(message: "malformed JSON: \(error)", id: rawID(data))
        }
        do throws(Problem) {
            return ControlRequest(command: try fields.checked(), id: fields.id?.text)
        } catch {
            throw Problem(message: error.message, id: fields.id?.text)
        }
    }

    /// The id of a request whose other fields are wrong, when the line is JSON at all.
    private static func rawID(_ data: Data) -> String? {
        (try? JSONDecoder().decode(OnlyID.self, from: data))?.id?.text
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ c: DecodingError.Context) -> String {
            c.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .typeMismatch(_, let c) where c.codingPath.isEmpty:
            return "a request must be one JSON object, such as {\"command\": \"get_state\"}"
        case .typeMismatch(let type, let c):
            return "\"\(path(c))\" must be \(expected(type))"
        case .valueNotFound(let type, let c):
            return "\"\(path(c))\" must be \(expected(type)), not null"
        case .keyNotFound(let key, _):
            return "missing \"\(key.stringValue)\""
        case .dataCorrupted(let c):
            if c.codingPath.isEmpty { return "malformed JSON: not one JSON object on the line" }
            return "\"\(path(c))\": \(c.debugDescription)"
        @unknown default:
            return "malformed request"
        }
    }

    private static func expected(_ type: Any.Type) -> String {
        switch type {
        case is Bool.Type: "true or false"
        case is Double.Type: "a number"
        case is String.Type: "a string"
        case is [Double].Type: "an array of two numbers"
        case is [String].Type: "an array of strings"
        default: "a \(type)"
        }
    }
}

/// A request's `id`: any number or string, written back as it came.
struct RequestID: Decodable, Sendable {
    var text: String

    init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let i = try? c.decode(Int64.self) {
            text = "\(i)"
        } else if let d = try? c.decode(Double.self), d.isFinite {
            // Swift writes a finite Double as JSON reads it (1.5, 1e-05, 1e+20).
            text = "\(d)"
        } else if let s = try? c.decode(String.self) {
            text = JSONString.quoted(s)
        } else {
            throw DecodingError.typeMismatch(String.self, .init(codingPath: decoder.codingPath, debugDescription: "id"))
        }
    }
}

private struct OnlyID: Decodable {
    var id: RequestID?
}

/// The request's keys as JSON has them, before they are checked against its command.
private struct Fields: Decodable {
    var id: RequestID?
    var command: String?
    var view: String?
    var value: Double?
    var on: Bool?
    var label: String?
    var events: [String]?
    var x: Double?
    var y: Double?
    var from: [Double]?
    var to: [Double]?
    var duration: Double?
    var brightness: Double?
    var blank_after: Double?

    func checked() throws(ControlRequest.Problem) -> ControlRequest.Command {
        guard let name = command else { throw problem("missing \"command\"; one of: \(ControlRequest.commands.joined(separator: ", "))") }
        switch name {
        case "get_state":
            return .getState
        case "set":
            guard let view else { throw problem("set: missing \"view\"") }
            if view == ControlRequest.displayView { return try display() }
            let given = [value != nil, on != nil, label != nil].filter { $0 }.count
            guard given == 1 else { throw problem("set: give exactly one of \"value\" (a slider), \"on\" (a switch), \"label\" (a button)") }
            if let value { return .setValue(view: view, value) }
            if let on { return .setOn(view: view, on) }
            return .setLabel(view: view, label ?? "")
        case "subscribe":
            let names = events ?? ControlRequest.EventKind.allCases.map(\.rawValue)
            var kinds = Set<ControlRequest.EventKind>()
            for n in names {
                guard let k = ControlRequest.EventKind(rawValue: n) else {
                    throw problem("subscribe: unknown event '\(n)'; expected control, gesture or state")
                }
                kinds.insert(k)
            }
            return .subscribe(kinds)
        case "unsubscribe":
            return .unsubscribe
        case "wake":
            return .wake
        case "screenshot":
            return .screenshot
        case "tap":
            guard let x, let y else { throw problem("tap: give \"x\" and \"y\" (screen pixels)") }
            return .tap(Point(x: x, y: y))
        case "swipe":
            guard let a = try point(from, "from"), let b = try point(to, "to") else {
                throw problem("swipe: give \"from\": [x, y] and \"to\": [x, y] (screen pixels)")
            }
            return .swipe(from: a, to: b, seconds: duration ?? ControlRequest.defaultSwipeSeconds)
        default:
            throw problem("unknown command '\(name)'; one of: \(ControlRequest.commands.joined(separator: ", "))")
        }
    }

    /// `set` on `display`: any of "on", "brightness", "blank_after"; nothing else.
    private func display() throws(ControlRequest.Problem) -> ControlRequest.Command {
        guard value == nil, label == nil else {
            throw problem("set: the display takes \"on\", \"brightness\" (0 to 1) and \"blank_after\" (seconds), not \"\(value != nil ? "value" : "label")\"")
        }
        guard on != nil || brightness != nil || blank_after != nil else {
            throw problem("set: give the display \"on\" (true or false), \"brightness\" (0 to 1) or \"blank_after\" (seconds)")
        }
        return .setDisplay(on: on, brightness: brightness, blankAfter: blank_after)
    }

    private func point(_ xy: [Double]?, _ key: String) throws(ControlRequest.Problem) -> Point? {
        guard let xy else { return nil }
        guard xy.count == 2 else { throw problem("swipe: \"\(key)\" must be [x, y], found \(xy.count) numbers") }
        return Point(x: xy[0], y: xy[1])
    }

    private func problem(_ message: String) -> ControlRequest.Problem { ControlRequest.Problem(message: message) }
}
