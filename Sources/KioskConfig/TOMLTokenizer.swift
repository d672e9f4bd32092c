/// The one walk over TOML text that kiosk does itself, beside the parser: table headers, keys,
/// values with their byte spans (strings of the four kinds, arrays and inline tables across lines,
/// comments, scalars up to what ends them), each with its line. It does not read a value, only steps over it.
///
/// Three users sit on it: `TOMLGuard` (the places toml++ would stop on an assertion, found before
/// toml++ sees the text), `KeyLocator` (the line of each key path, for errors) and `TOMLSpans`
/// (where `[input] calibration` is, for `CalibrationWriter`). It stops at the first text that is
/// not TOML as it reads it; it accepts all valid TOML, so it never stops before toml++ would.
/// Imports nothing: `Tests/toml-probe/run.sh` compiles it alone with TOMLGuard.swift.
struct TOMLTokens {
    enum Event {
        case header(Header)
        /// A key and its value, after the value's own events (an inline table's entries come first).
        case entry(Entry)
        /// One element of an array, after its own events.
        case element(Element)
        case inlineTable(InlineTable)
    }
    struct Header {
        var path: [String]
        var isArray: Bool
        var line: Int
        /// Just past the header line's end, its line break included.
        var lineEnd: Int
    }
    struct Entry {
        /// The full key path: the table's (or the inline table's owner's), then the dotted key's.
        var path: [String]
        /// The dotted key as written.
        var key: [String]
        /// The table header's path it is under (empty: the top, or inside a value).
        var tablePath: [String]
        /// Inside an inline table, not a statement of its own.
        var isNested: Bool
        var value: Range<Int>
        var line: Int
    }
    struct Element {
        /// The array's key path, and the dotted key of the statement that holds it.
        var path: [String]
        var key: [String]
        var index: Int
        var value: Range<Int>
        var line: Int
        var isInlineTable: Bool
        /// In an array that is not a statement's own value (in another array, or in an inline table).
        var isNested: Bool
    }
    struct InlineTable {
        var path: [String]
        var braces: Range<Int>
    }
    /// Where the walk stopped; `abortsParser`: toml++ would stop there on an assertion, not an error.
    struct Problem: Error, Equatable {
        var line: Int
        /// 1-based, in Unicode scalars, as toml++ and an editor count; from after a byte order mark.
        var column: Int
        var message: String
        var abortsParser = false
    }

    private(set) var events: [Event] = []
    private(set) var problem: Problem?
    let bytes: [UInt8]
    /// toml++ skips a byte order mark at the start, and so does the walk.
    private let start: Int
    /// The offset at which each line starts: line n starts at `lineStarts[n - 1]`.
    private let lineStarts: [Int]
    private var i = 0

    init(_ text: String) { self.init(bytes: Array(text.utf8)) }

    init(bytes: [UInt8]) {
        self.bytes = bytes
        start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        i = start
        lineStarts = [0] + bytes.indices.filter { bytes[$0] == 0x0A }.map { $0 + 1 }
        do { try document() } catch { problem = error }
    }

    /// Just past the end of the line holding `offset`: after its `\n`, or the text's end.
    func lineEnd(after offset: Int) -> Int {
        var j = offset
        while j < bytes.count, bytes[j] != 0x0A { j += 1 }
        return j < bytes.count ? j + 1 : j
    }

    /// The 1-based line of byte `offset`.
    func line(at offset: Int) -> Int {
        var low = 0, high = lineStarts.count
        while high - low > 1 {
            let middle = (low + high) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle }
        }
        return low + 1
    }

    private func column(at offset: Int) -> Int {
        var k = min(offset, bytes.count)
        var column = 1
        while k > start, bytes[k - 1] != 0x0A {
            k -= 1
            if bytes[k] & 0xC0 != 0x80 { column += 1 }
        }
        return column
    }

    // MARK: Statements

    private mutating func document() throws(Problem) {
        var table: [String] = []
        while true {
            skipWhitespaceAndComments()
            guard i < bytes.count else { return }
            if bytes[i] == UInt8(ascii: "[") {
                table = try header()
            } else {
                try keyValue(prefix: table, tablePath: table, isNested: false)
                try expectLineEnd()
            }
        }
    }

    /// `[name]` or `[[name]]`.
    private mutating func header() throws(Problem) -> [String] {
        let isArray = peek(1) == UInt8(ascii: "[")
        i += isArray ? 2 : 1
        skipSpaces()
        // toml++ asserts (parse_key) on a name that starts with anything but a key character, a quote or ']'.
        if i < bytes.count, bytes[i] != UInt8(ascii: "]"), !Self.startsKey(bytes[i]) {
            throw aborting(at: i, "a table header needs a name: [name] or [[name]], the name in letters, digits, '_' and '-', "
                + "or in quotes; found \(describe(at: i))")
        }
        let path = try key()
        skipSpaces()
        try expect("]")
        if isArray { try expect("]") }
        let line = line(at: i - 1), end = lineEnd(after: i)
        try expectLineEnd()
        events.append(.header(Header(path: path, isArray: isArray, line: line, lineEnd: end)))
        i = end
        return path
    }

    private mutating func keyValue(prefix: [String], tablePath: [String], isNested: Bool) throws(Problem) {
        let key = try key()
        let path = prefix + key
        skipSpaces()
        try expect("=")
        skipSpaces()
        let from = i
        try value(path: path, key: key, inArray: false, isNested: isNested)
        events.append(.entry(Entry(path: path, key: key, tablePath: tablePath, isNested: isNested, value: from..<i, line: line(at: from))))
    }

    /// A dotted key: bare parts and quoted parts, spaces around the dots.
    private mutating func key() throws(Problem) -> [String] {
        var parts: [String] = []
        repeat {
            skipSpaces()
            guard i < bytes.count else { throw problem("a key is missing") }
            if bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") {
                let quote = bytes[i], from = i + 1
                i += 1
                while i < bytes.count, bytes[i] != quote, bytes[i] != 0x0A {
                    if quote == UInt8(ascii: "\""), bytes[i] == UInt8(ascii: "\\") { i += 1 }
                    i += 1
                }
                guard i < bytes.count, bytes[i] == quote else { throw problem("a quoted key is not closed") }
                parts.append(String(decoding: bytes[from..<i], as: UTF8.self))
                i += 1
            } else {
                let from = i
                while i < bytes.count, Self.isBareKey(bytes[i]) { i += 1 }
                guard i > from else { throw problem("a key is missing") }
                parts.append(String(decoding: bytes[from..<i], as: UTF8.self))
            }
            skipSpaces()
        } while accept(".")
        return parts
    }

    // MARK: Values

    private mutating func value(path: [String], key: [String], inArray: Bool, isNested: Bool) throws(Problem) {
        guard i < bytes.count else { throw problem("a value is missing") }
        switch bytes[i] {
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            try string()
        case UInt8(ascii: "["):
            try array(path: path, key: key, isNested: isNested || inArray)
        case UInt8(ascii: "{"):
            let from = i
            i += 1
            skipSpaces()
            if !accept("}") {
                while true {
                    skipSpaces()
                    try keyValue(prefix: path, tablePath: [], isNested: true)
                    skipSpaces()
                    if accept("}") { break }
                    try expect(",")
                }
            }
            events.append(.inlineTable(InlineTable(path: path, braces: from..<i)))
        default:
            try scalar(inArray: inArray)
        }
    }

    private mutating func array(path: [String], key: [String], isNested: Bool) throws(Problem) {
        i += 1
        var index = 0
        while true {
            skipWhitespaceAndComments()
            if accept("]") { return }
            // toml++ asserts (parse_value) on '}' or a Unicode line break where a list's value would start.
            try refuseInList()
            let from = i
            try value(path: path, key: key, inArray: true, isNested: true)
            let isTable = bytes[from] == UInt8(ascii: "{")
            events.append(.element(Element(path: path, key: key, index: index, value: from..<i, line: line(at: from),
                                           isInlineTable: isTable, isNested: isNested)))
            index += 1
            skipWhitespaceAndComments()
            if accept("]") { return }
            try refuseInList()
            try expect(",")
        }
    }

    private func refuseInList() throws(Problem) {
        guard i < bytes.count else { return }
        if bytes[i] == UInt8(ascii: "}") { throw aborting(at: i, "'}' in a list closes no inline table; a list ends with ']'") }
        if isUnicodeLineBreak(at: i) {
            throw aborting(at: i, "\(describe(at: i)) in a list; only spaces, tabs and \\n or \\r\\n may separate values")
        }
    }

    /// Numbers, booleans, dates: up to what ends a value.
    private mutating func scalar(inArray: Bool) throws(Problem) {
        let from = i
        try refuseDateTime(at: i)
        while i < bytes.count, !Self.endsScalar(bytes[i]) {
            if inArray, isUnicodeLineBreak(at: i) { try refuseInList() }
            // A date and time may hold one space: "1979-05-27 07:32:00".
            if bytes[i] == 0x20, i + 1 < bytes.count, Self.isDigit(bytes[i + 1]), i > from, Self.isDigit(bytes[i - 1]),
               bytes[from..<i].contains(UInt8(ascii: "-")) {
                i += 1
                try refuseDateTime(at: i)
                continue
            }
            if bytes[i] == 0x20 { break }
            i += 1
        }
        guard i > from else { throw problem("a value is missing") }
    }

    /// toml++ asserts (parse_time) on a value that starts `YYYY-MM-DDT` (or `t`) with no digit after the `T`.
    private func refuseDateTime(at k: Int) throws(Problem) {
        guard k + 11 < bytes.count else { return }
        let w = bytes[k...(k + 10)].map { $0 }
        guard [0, 1, 2, 3, 5, 6, 8, 9].allSatisfy({ Self.isDigit(w[$0]) }), w[4] == UInt8(ascii: "-"), w[7] == UInt8(ascii: "-"),
              w[10] == UInt8(ascii: "T") || w[10] == UInt8(ascii: "t"), !Self.isDigit(bytes[k + 11]) else { return }
        throw aborting(at: k + 11, "a date-time needs the time after its '\(Character(Unicode.Scalar(w[10])))', "
            + "such as 1979-05-27T07:32:00; found \(describe(at: k + 11))")
    }

    /// From a quote to past its closing quote: basic (with escapes) or literal, on one line or on several.
    private mutating func string() throws(Problem) {
        let quote = bytes[i]
        let triple = peek(1) == quote && peek(2) == quote
        i += triple ? 3 : 1
        while i < bytes.count {
            if quote == UInt8(ascii: "\""), bytes[i] == UInt8(ascii: "\\") { i += 2; continue }
            if bytes[i] == quote {
                if !triple { i += 1; return }
                if peek(1) == quote, peek(2) == quote {
                    // Up to two more quotes belong to the string: `""""a""""` is `"a"`.
                    i += 3
                    var extra = 0
                    while extra < 2, peek(0) == quote { i += 1; extra += 1 }
                    return
                }
            }
            if !triple, bytes[i] == 0x0A { break }
            i += 1
        }
        throw problem("a string is not closed")
    }

    // MARK: Characters

    private func peek(_ ahead: Int) -> UInt8? { i + ahead < bytes.count ? bytes[i + ahead] : nil }

    private static func isDigit(_ c: UInt8) -> Bool { (0x30...0x39).contains(c) }

    private static func isBareKey(_ c: UInt8) -> Bool {
        isDigit(c) || (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c) || c == UInt8(ascii: "_") || c == UInt8(ascii: "-")
    }

    private static func startsKey(_ c: UInt8) -> Bool { isBareKey(c) || c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") }

    private static func endsScalar(_ c: UInt8) -> Bool {
        c == UInt8(ascii: ",") || c == UInt8(ascii: "]") || c == UInt8(ascii: "}") || c == UInt8(ascii: "#")
            || c == 0x0A || c == 0x0D || c == 0x09
    }

    /// U+0085, U+2028 or U+2029 in UTF-8.
    private func isUnicodeLineBreak(at k: Int) -> Bool {
        let rest = bytes[k...]
        return rest.starts(with: [0xC2, 0x85]) || rest.starts(with: [0xE2, 0x80, 0xA8]) || rest.starts(with: [0xE2, 0x80, 0xA9])
    }

    private mutating func skipSpaces() { while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 } }

    private mutating func skipComment() {
        if i < bytes.count, bytes[i] == UInt8(ascii: "#") { while i < bytes.count, bytes[i] != 0x0A { i += 1 } }
    }

    private mutating func skipWhitespaceAndComments() {
        while i < bytes.count {
            skipSpaces()
            skipComment()
            guard i < bytes.count, bytes[i] == 0x0A || bytes[i] == 0x0D else { return }
            i += 1
        }
    }

    /// After a statement: spaces, a comment, then the line's end or the text's.
    private mutating func expectLineEnd() throws(Problem) {
        skipSpaces()
        skipComment()
        if i < bytes.count, bytes[i] == 0x0D { i += 1 }
        guard i >= bytes.count || bytes[i] == 0x0A else { throw problem("unexpected text after a value") }
        if i < bytes.count { i += 1 }
    }

    private mutating func accept(_ c: Character) -> Bool {
        guard i < bytes.count, bytes[i] == c.asciiValue! else { return false }
        i += 1
        return true
    }

    private mutating func expect(_ c: Character) throws(Problem) {
        guard accept(c) else { throw problem("expected '\(c)'") }
    }

    private func problem(_ message: String) -> Problem { Problem(line: line(at: i), column: column(at: i), message: message) }

    private func aborting(at k: Int, _ message: String) -> Problem {
        Problem(line: line(at: k), column: column(at: k), message: message, abortsParser: true)
    }

    /// The character at byte `k` as an error names it.
    private func describe(at k: Int) -> String {
        let length = bytes[k] < 0x80 ? 1 : bytes[k] < 0xE0 ? 2 : bytes[k] < 0xF0 ? 3 : 4
        let c = String(decoding: bytes[k..<min(k + length, bytes.count)], as: UTF8.self).unicodeScalars.first ?? "\u{FFFD}"
        switch c {
        case "\n": return "a line break"
        case "\r": return "a carriage return"
        default:
            if c.value < 0x20 || c.value == 0x7F || c.value >= 0x80 && !c.properties.isAlphabetic {
                let hex = String(c.value, radix: 16, uppercase: true)
                return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            }
            return "'\(c)'"
        }
    }
}
