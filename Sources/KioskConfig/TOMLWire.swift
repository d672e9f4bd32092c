/// A parsed document, or why the text is not TOML, as bytes: how the parsing child hands its
/// result to kiosk (ConfigParsing.swift). Each value is a tag byte and its content; counts and
/// lengths are 32-bit, numbers 64-bit, little-endian.
enum TOMLWire {
    /// Why text is not TOML, where toml++ or `TOMLGuard` stopped.
    struct Problem: Error, Equatable {
        var line: Int
        var column: Int
        var message: String
        /// The parser failed (its child died, hung or said nothing), not the text: no verdict on
        /// the file's TOML. Never on the wire: only the parent makes one.
        var parserFailed = false
    }

    /// Bytes that are not a whole result: a child that stopped half way.
    struct Garbled: Error {}

    static func encode(_ result: Result<TOMLDocument, Problem>) -> [UInt8] {
        var out: [UInt8] = []
        switch result {
        case .success(let document):
            out.append(UInt8(ascii: "D"))
            table(document, into: &out)
        case .failure(let problem):
            out.append(UInt8(ascii: "E"))
            number(UInt64(max(0, problem.line)), into: &out)
            number(UInt64(max(0, problem.column)), into: &out)
            text(problem.message, into: &out)
        }
        out.append(UInt8(ascii: "."))
        return out
    }

    static func decode(_ bytes: [UInt8]) throws(Garbled) -> Result<TOMLDocument, Problem> {
        var r = Reader(bytes: bytes)
        let result: Result<TOMLDocument, Problem>
        switch try r.byte() {
        case UInt8(ascii: "D"): result = .success(try r.table(depth: 0))
        case UInt8(ascii: "E"):
            let line = Int(clamping: try r.number()), column = Int(clamping: try r.number())
            result = .failure(Problem(line: line, column: column, message: try r.text()))
        default: throw Garbled()
        }
        guard try r.byte() == UInt8(ascii: "."), r.at == bytes.count else { throw Garbled() }
        return result
    }

    private static func number(_ n: UInt64, into out: inout [UInt8]) {
        for i in 0..<8 { out.append(UInt8(truncatingIfNeeded: n >> (8 * UInt64(i)))) }
    }

    private static func count(_ n: Int, into out: inout [UInt8]) {
        for i in 0..<4 { out.append(UInt8(truncatingIfNeeded: n >> (8 * i))) }
    }

    private static func text(_ s: String, into out: inout [UInt8]) {
        count(s.utf8.count, into: &out)
        out += s.utf8
    }

    private static func table(_ t: TOMLDocument, into out: inout [UInt8]) {
        count(t.keys.count, into: &out)
        for key in t.keys {
            text(key, into: &out)
            node(t[key] ?? .other("missing"), into: &out)
        }
    }

    private static func node(_ v: TOMLNode, into out: inout [UInt8]) {
        switch v {
        case .table(let t): out.append(UInt8(ascii: "t")); table(t, into: &out)
        case .array(let a):
            out.append(UInt8(ascii: "a"))
            count(a.count, into: &out)
            for element in a { node(element, into: &out) }
        case .string(let s): out.append(UInt8(ascii: "s")); text(s, into: &out)
        case .int(let n): out.append(UInt8(ascii: "i")); number(UInt64(bitPattern: Int64(n)), into: &out)
        case .double(let d): out.append(UInt8(ascii: "d")); number(d.bitPattern, into: &out)
        case .bool(let b): out.append(UInt8(ascii: "b")); out.append(b ? 1 : 0)
        case .other(let type): out.append(UInt8(ascii: "o")); text(type, into: &out)
        }
    }

    /// Reads what `encode` wrote, refusing anything short, overlong or nested past any config's depth.
    private struct Reader {
        let bytes: [UInt8]
        var at = 0
        /// Past toml++'s own limit (TOML_MAX_NESTED_VALUES, 256).
        static let deepest = 300

        mutating func byte() throws(Garbled) -> UInt8 {
            guard at < bytes.count else { throw Garbled() }
            defer { at += 1 }
            return bytes[at]
        }

        mutating func number() throws(Garbled) -> UInt64 {
            guard bytes.count - at >= 8 else { throw Garbled() }
            var n: UInt64 = 0
            for i in 0..<8 { n |= UInt64(bytes[at + i]) << (8 * UInt64(i)) }
            at += 8
            return n
        }

        mutating func count() throws(Garbled) -> Int {
            guard bytes.count - at >= 4 else { throw Garbled() }
            var n = 0
            for i in 0..<4 { n |= Int(bytes[at + i]) << (8 * i) }
            at += 4
            guard n <= bytes.count - at else { throw Garbled() }  // each element takes at least a byte
            return n
        }

        mutating func text() throws(Garbled) -> String {
            let n = try count()
            defer { at += n }
            return String(decoding: bytes[at..<at + n], as: UTF8.self)
        }

        mutating func table(depth: Int) throws(Garbled) -> TOMLDocument {
            guard depth < Self.deepest else { throw Garbled() }
            var t = TOMLDocument()
            for _ in 0..<(try count()) {
                let key = try text()
                t.append(key, try node(depth: depth + 1))
            }
            return t
        }

        mutating func node(depth: Int) throws(Garbled) -> TOMLNode {
            guard depth < Self.deepest else { throw Garbled() }
            switch try byte() {
            case UInt8(ascii: "t"): return .table(try table(depth: depth))
            case UInt8(ascii: "a"):
                var a: [TOMLNode] = []
                for _ in 0..<(try count()) { a.append(try node(depth: depth + 1)) }
                return .array(a)
            case UInt8(ascii: "s"): return .string(try text())
            case UInt8(ascii: "i"): return .int(Int(Int64(bitPattern: try number())))
            case UInt8(ascii: "d"): return .double(Double(bitPattern: try number()))
            case UInt8(ascii: "b"): return .bool(try byte() != 0)
            case UInt8(ascii: "o"): return .other(try text())
            default: throw Garbled()
            }
        }
    }
}
