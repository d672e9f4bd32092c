/// A JSON object written key by key in a fixed order with fixed precision, so equal inputs give
/// byte-identical text on every run and platform: the state, events and stats (Runtime, Control),
/// and Home Assistant's discovery configs (MQTTProtocol).
public struct JSONObject: Sendable, Equatable {
    private var text = "{"
    private var first = true
    /// `{"a":1,"b":2}` rather than `{"a": 1, "b": 2}`: what goes over the network.
    private let compact: Bool

    public init(compact: Bool = false) { self.compact = compact }

    private mutating func key(_ k: String) {
        if !first { text += compact ? "," : ", " }
        first = false
        text += JSONString.quoted(k) + (compact ? ":" : ": ")
    }

    public mutating func add(_ k: String, _ value: String) {
        key(k)
        text += JSONString.quoted(value)
    }

    public mutating func add(_ k: String, _ value: Double, digits: Int) {
        key(k)
        text += Self.number(value, digits)
    }

    public mutating func add(_ k: String, _ value: Int) {
        key(k)
        text += String(value)
    }

    public mutating func add(_ k: String, _ value: Bool) {
        key(k)
        text += value ? "true" : "false"
    }

    public mutating func add(_ k: String, _ values: [Double], digits: Int) {
        key(k)
        text += "[" + values.map { Self.number($0, digits) }.joined(separator: ", ") + "]"
    }

    /// A value already written as JSON.
    public mutating func add(_ k: String, raw: String) {
        key(k)
        text += raw
    }

    /// Every member of `other`, after this one's, in its order (both compact, or both not).
    public mutating func add(contentsOf other: JSONObject) {
        guard !other.first else { return }
        if !first { text += compact ? "," : ", " }
        first = false
        text += other.text.dropFirst()
    }

    public var json: String { text + "}" }

    /// `value` with at most `digits` decimals, trailing zeros dropped; -0 is written as 0. A value
    /// too large for its decimals to fit 53 bits (beyond 2^53 / 10^digits, where a Double has no
    /// such decimals left) is written in Swift's shortest exact spelling, `1e+17`, also valid JSON.
    public static func number(_ value: Double, _ digits: Int) -> String {
        guard value.isFinite else { return "null" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (value * scale).rounded()
        if scaled == 0 { return "0" }
        guard abs(scaled) < 9_007_199_254_740_992 else { return String(value) }
        let negative = scaled < 0
        let magnitude = Int64(abs(scaled))
        let whole = magnitude / Int64(scale)
        var fraction = String(magnitude % Int64(scale))
        while fraction.count < digits { fraction = "0" + fraction }
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return (negative ? "-" : "") + String(whole) + (fraction.isEmpty ? "" : "." + fraction)
    }
}
