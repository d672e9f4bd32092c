import KioskCore

/// Writes `[input] calibration = [a, b, c, d, e, f]` into a config file's text in place: one value
/// replaced, or one line (or one inline-table entry) added; every other byte stays as it was.
///
/// It reads the TOML itself (`TOMLSpans`) only to find where the value is, or where `[input]`
/// is: the key as `[input] calibration`, `input.calibration` at the top, or inside an inline
/// `input = { ... }`. The caller reads the result back with the full parser before writing it.
public enum CalibrationWriter {
    /// The text with the calibration set; `lineEnding` of new lines follows the file's own.
    public static func write(_ matrix: [Double], into text: String) throws(CalibrationWriteError) -> String {
        let bytes = Array(text.utf8)
        // The parser reads a C string: it would stop at a NUL, and a value written after one would
        // not be read (the file reader refuses NUL bytes; text handed in directly may hold one).
        if let nul = bytes.firstIndex(of: 0) {
            throw .unreadable("a NUL byte: a config file is text", line: bytes[..<nul].reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) })
        }
        let spans: TOMLSpans
        do { spans = try TOMLSpans(bytes) } catch { throw .unreadable(error.message, line: error.line) }
        let value = "[" + matrix.map(formatted).joined(separator: ", ") + "]"
        let newline = bytes.firstIndex(of: 0x0A).map { $0 > 0 && bytes[$0 - 1] == 0x0D ? "\r\n" : "\n" } ?? "\n"

        if let pointercal = spans.entries.first(where: { $0.path == ["input", "pointercal"] }) {
            throw .pointercalGiven(line: pointercal.line)
        }
        if let entry = spans.entries.first(where: { $0.path == ["input", "calibration"] }) {
            return splice(bytes, entry.value, value)
        }
        if let header = spans.headers.first(where: { $0.path == ["input"] && !$0.isArray }) {
            // Right under the header: the key is in [input] whatever follows.
            let atEnd = header.lineEnd == bytes.count && !text.hasSuffix("\n")
            let insertion = atEnd ? newline + "calibration = " + value : "calibration = " + value + newline
            return splice(bytes, header.lineEnd..<header.lineEnd, insertion)
        }
        if spans.headers.contains(where: { $0.path == ["input"] }) {
            throw .inputIsArrayOfTables(line: spans.headers.first { $0.path == ["input"] }!.line)
        }
        if let table = spans.inlineTables.first(where: { $0.path == ["input"] }) {
            let inside = bytes[table.braces.lowerBound + 1..<table.braces.upperBound - 1]
            let empty = inside.allSatisfy { $0 == 0x20 || $0 == 0x09 }
            let at = table.braces.lowerBound + 1
            return splice(bytes, at..<at, empty ? " calibration = \(value) " : " calibration = \(value),")
        }
        if let last = spans.entries.last(where: { $0.path.first == "input" && $0.path.count > 1 && $0.tablePath.isEmpty }) {
            // Dotted keys at the top define [input]; a header for it now would define it twice.
            let lineEnd = spans.lineEnd(after: last.value.upperBound)
            let atEnd = lineEnd == bytes.count && !text.hasSuffix("\n")
            let insertion = atEnd ? newline + "input.calibration = " + value : "input.calibration = " + value + newline
            return splice(bytes, lineEnd..<lineEnd, insertion)
        }
        var tail = ""
        if !bytes.isEmpty && bytes.last != 0x0A { tail += newline }
        if !bytes.isEmpty { tail += newline }
        return text + tail + "[input]" + newline + "calibration = " + value + newline
    }

    /// A number as the file gets it: up to six decimals, never an exponent (TOML takes both, people read this).
    public static func formatted(_ x: Double) -> String {
        guard x.isFinite, abs(x) < 1e12 else { return "\(x)" }
        let n = Int((x * 1_000_000).rounded())
        var fraction = String(abs(n) % 1_000_000)
        fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
        while fraction.count > 1, fraction.hasSuffix("0") { fraction.removeLast() }
        return (n < 0 ? "-" : "") + "\(abs(n) / 1_000_000).\(fraction)"
    }

    private static func splice(_ bytes: [UInt8], _ range: Range<Int>, _ text: String) -> String {
        String(decoding: bytes[..<range.lowerBound] + Array(text.utf8) + bytes[range.upperBound...], as: UTF8.self)
    }
}

/// Why the calibration could not be written into the file.
public enum CalibrationWriteError: Error, Equatable, CustomStringConvertible {
    case unreadable(String, line: Int)
    case pointercalGiven(line: Int)
    case inputIsArrayOfTables(line: Int)

    public var description: String {
        switch self {
        case .unreadable(let why, let line): "line \(line): \(why)"
        case .pointercalGiven(let line):
            "line \(line): input.pointercal is set, and a config takes calibration or pointercal, not both; "
                + "delete that line (the new calibration replaces it) and run kiosk calibrate again, or use --dry-run"
        case .inputIsArrayOfTables(let line): "line \(line): [[input]] is an array of tables; kiosk reads one [input] table"
        }
    }
}

/// Where a TOML document's keys, values and table headers are, as byte offsets: enough of TOML's
/// grammar to step over any value (strings of the four kinds, arrays and inline tables across
/// lines, comments) without reading it.
struct TOMLSpans {
    struct Entry {
        /// The full key path: the table's, then the dotted key's.
        var path: [String]
        /// The table header's path it is under (empty: the top, or an inline table's owner).
        var tablePath: [String]
        var value: Range<Int>
        var line: Int
    }
    struct Header {
        var path: [String]
        var isArray: Bool
        /// Just past the header line's end, its line break included.
        var lineEnd: Int
        var line: Int
    }
    struct InlineTable {
        var path: [String]
        var braces: Range<Int>
    }
    struct Problem: Error {
        var message: String
        var line: Int
    }

    private(set) var entries: [Entry] = []
    private(set) var headers: [Header] = []
    private(set) var inlineTables: [InlineTable] = []
    private let b: [UInt8]
    private var i = 0

    init(_ bytes: [UInt8]) throws(Problem) {
        b = bytes
        var table: [String] = []
        while true {
            skipBlankLinesAndComments()
            guard i < b.count else { break }
            if b[i] == UInt8(ascii: "[") {
                let isArray = i + 1 < b.count && b[i + 1] == UInt8(ascii: "[")
                i += isArray ? 2 : 1
                skipSpaces()
                let path = try key()
                skipSpaces()
                try expect("]")
                if isArray { try expect("]") }
                table = path
                let end = lineEnd(after: i)
                try expectLineEnd()
                headers.append(Header(path: path, isArray: isArray, lineEnd: end, line: line(at: i - 1)))
                i = end
            } else {
                try keyValue(prefix: table, tablePath: table)
                try expectLineEnd()
            }
        }
    }

    /// Just past the end of the line holding `offset`: after its `\n`, or the text's end.
    func lineEnd(after offset: Int) -> Int {
        var j = offset
        while j < b.count, b[j] != 0x0A { j += 1 }
        return j < b.count ? j + 1 : j
    }

    private func line(at offset: Int) -> Int { b[..<min(offset, b.count)].reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) } }

    private mutating func keyValue(prefix: [String], tablePath: [String]) throws(Problem) {
        let path = prefix + (try key())
        skipSpaces()
        try expect("=")
        skipSpaces()
        let start = i
        try value(path: path, tablePath: tablePath)
        entries.append(Entry(path: path, tablePath: tablePath, value: start..<i, line: line(at: start)))
    }

    /// A dotted key: bare parts and quoted parts, spaces around the dots.
    private mutating func key() throws(Problem) -> [String] {
        var parts: [String] = []
        repeat {
            skipSpaces()
            guard i < b.count else { throw problem("a key is missing") }
            if b[i] == UInt8(ascii: "\"") || b[i] == UInt8(ascii: "'") {
                let quote = b[i], start = i + 1
                i += 1
                while i < b.count, b[i] != quote, b[i] != 0x0A {
                    if quote == UInt8(ascii: "\""), b[i] == UInt8(ascii: "\\") { i += 1 }
                    i += 1
                }
                guard i < b.count, b[i] == quote else { throw problem("a quoted key is not closed") }
                parts.append(String(decoding: b[start..<i], as: UTF8.self))
                i += 1
            } else {
                let start = i
                while i < b.count, Self.isBareKey(b[i]) { i += 1 }
                guard i > start else { throw problem("a key is missing") }
                parts.append(String(decoding: b[start..<i], as: UTF8.self))
            }
            skipSpaces()
        } while accept(".")
        return parts
    }

    private mutating func value(path: [String], tablePath: [String]) throws(Problem) {
        guard i < b.count else { throw problem("a value is missing") }
        switch b[i] {
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            try string()
        case UInt8(ascii: "["):
            i += 1
            while true {
                skipWhitespaceAndComments()
                if accept("]") { return }
                try value(path: path, tablePath: tablePath)
                skipWhitespaceAndComments()
                if accept("]") { return }
                try expect(",")
            }
        case UInt8(ascii: "{"):
            let start = i
            i += 1
            skipSpaces()
            if !accept("}") {
                while true {
                    skipSpaces()
                    try keyValue(prefix: path, tablePath: [])
                    skipSpaces()
                    if accept("}") { break }
                    try expect(",")
                }
            }
            inlineTables.append(InlineTable(path: path, braces: start..<i))
        default:
            // Numbers, booleans, dates: up to what ends a value.
            let start = i
            while i < b.count, !Self.endsScalar(b[i]) {
                // A date and time may hold one space: "1979-05-27 07:32:00".
                if b[i] == 0x20, i + 1 < b.count, (0x30...0x39).contains(b[i + 1]), i > start, (0x30...0x39).contains(b[i - 1]),
                   b[start..<i].contains(UInt8(ascii: "-")) { i += 1; continue }
                if b[i] == 0x20 { break }
                i += 1
            }
            guard i > start else { throw problem("a value is missing") }
        }
    }

    private mutating func string() throws(Problem) {
        let quote = b[i]
        let triple = i + 2 < b.count && b[i + 1] == quote && b[i + 2] == quote
        i += triple ? 3 : 1
        while i < b.count {
            if quote == UInt8(ascii: "\""), b[i] == UInt8(ascii: "\\") { i += 2; continue }
            if b[i] == quote {
                if !triple { i += 1; return }
                if i + 2 < b.count, b[i + 1] == quote, b[i + 2] == quote {
                    // Up to two more quotes may close the string: """a"""" is `a"`.
                    i += 3
                    while i < b.count, b[i] == quote { i += 1 }
                    return
                }
            }
            if !triple, b[i] == 0x0A { break }
            i += 1
        }
        throw problem("a string is not closed")
    }

    private static func isBareKey(_ c: UInt8) -> Bool {
        (0x30...0x39).contains(c) || (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c) || c == UInt8(ascii: "_") || c == UInt8(ascii: "-")
    }

    private static func endsScalar(_ c: UInt8) -> Bool {
        c == UInt8(ascii: ",") || c == UInt8(ascii: "]") || c == UInt8(ascii: "}") || c == UInt8(ascii: "#")
            || c == 0x0A || c == 0x0D || c == 0x09
    }

    private mutating func skipSpaces() { while i < b.count, b[i] == 0x20 || b[i] == 0x09 { i += 1 } }

    private mutating func skipComment() {
        if i < b.count, b[i] == UInt8(ascii: "#") { while i < b.count, b[i] != 0x0A { i += 1 } }
    }

    private mutating func skipWhitespaceAndComments() {
        while i < b.count {
            skipSpaces()
            skipComment()
            guard i < b.count, b[i] == 0x0A || b[i] == 0x0D else { return }
            i += 1
        }
    }

    private mutating func skipBlankLinesAndComments() { skipWhitespaceAndComments() }

    /// After a statement: spaces, a comment, then the line's end or the text's.
    private mutating func expectLineEnd() throws(Problem) {
        skipSpaces()
        skipComment()
        if i < b.count, b[i] == 0x0D { i += 1 }
        guard i >= b.count || b[i] == 0x0A else { throw problem("unexpected text after a value") }
        if i < b.count { i += 1 }
    }

    private mutating func accept(_ c: Character) -> Bool {
        guard i < b.count, b[i] == c.asciiValue! else { return false }
        i += 1
        return true
    }

    private mutating func expect(_ c: Character) throws(Problem) {
        guard accept(c) else { throw problem("expected '\(c)'") }
    }

    private func problem(_ message: String) -> Problem { Problem(message: message, line: line(at: i)) }
}

extension CalibrationWriter {
    /// The config at `path` with its calibration set, read back through the full parser: the
    /// matrix reads as written and nothing else changed. Errors name the file.
    public static func rewritten(_ matrix: [Double], config path: String) throws(ConfigError) -> (old: String, new: String) {
        let old: String
        do {
            old = try TextFile.readText(path, what: "the config file", limit: KioskConfiguration.maximumFileSize)
        } catch {
            throw ConfigError(file: path, line: error.line ?? 0, key: "", message: error.reason)
        }
        let before = try KioskConfiguration.parse(old, file: path)
        let new: String
        do {
            new = try write(matrix, into: old)
        } catch {
            if case .unreadable(_, let line) = error { throw ConfigError(file: path, line: line, key: "", message: "\(error)") }
            throw ConfigError(file: path, line: 0, key: "input.calibration", message: "\(error)")
        }
        let after = try KioskConfiguration.parse(new, file: path)
        var expected = before.runtime
        expected.input.calibration = matrix.map { Double(formatted($0))! }
        // The scene's views know their lines, which an added line moves: compared as check-config prints them.
        let same = KioskConfiguration(file: path, scene: before.scene, runtime: expected).resolvedText == after.resolvedText
        guard after.runtime == expected, same else {
            throw ConfigError(file: path, line: 0, key: "input.calibration",
                              message: "the file's TOML is written in a way kiosk calibrate cannot edit safely; add `calibration = [...]` to [input] by hand")
        }
        return (old, new)
    }

    /// Writes the calibration into the config at `path`, the old file kept as `path.bak`.
    public static func save(_ matrix: [Double], config path: String) throws(ConfigError) -> String {
        let (old, new) = try rewritten(matrix, config: path)
        let backup = path + ".bak"
        do {
            try TextFile.write(old, to: backup, what: "the config's backup")
            try TextFile.write(new, to: path, what: "the config file")
        } catch {
            throw ConfigError(file: error.path, line: 0, key: "", message: error.reason)
        }
        return backup
    }
}
