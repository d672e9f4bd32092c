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

        let input = SectionKey.input.name, calibration = InputKey.calibration.name
        if let pointercal = spans.entries.first(where: { $0.path == [input, InputKey.pointercal.name] }) {
            throw .pointercalGiven(line: pointercal.line)
        }
        if let entry = spans.entries.first(where: { $0.path == [input, calibration] }) {
            return splice(bytes, entry.value, value)
        }
        if let header = spans.headers.first(where: { $0.path == [input] && !$0.isArray }) {
            // Right under the header: the key is in [input] whatever follows.
            let atEnd = header.lineEnd == bytes.count && !text.hasSuffix("\n")
            let insertion = atEnd ? newline + calibration + " = " + value : calibration + " = " + value + newline
            return splice(bytes, header.lineEnd..<header.lineEnd, insertion)
        }
        if spans.headers.contains(where: { $0.path == [input] }) {
            throw .inputIsArrayOfTables(line: spans.headers.first { $0.path == [input] }!.line)
        }
        if let table = spans.inlineTables.first(where: { $0.path == [input] }) {
            let inside = bytes[table.braces.lowerBound + 1..<table.braces.upperBound - 1]
            let empty = inside.allSatisfy { $0 == 0x20 || $0 == 0x09 }
            let at = table.braces.lowerBound + 1
            return splice(bytes, at..<at, empty ? " \(calibration) = \(value) " : " \(calibration) = \(value),")
        }
        if let last = spans.entries.last(where: { $0.path.first == input && $0.path.count > 1 && $0.tablePath.isEmpty }) {
            // Dotted keys at the top define [input]; a header for it now would define it twice.
            let lineEnd = spans.lineEnd(after: last.value.upperBound)
            let atEnd = lineEnd == bytes.count && !text.hasSuffix("\n")
            let line = "\(input).\(calibration) = \(value)"
            let insertion = atEnd ? newline + line : line + newline
            return splice(bytes, lineEnd..<lineEnd, insertion)
        }
        var tail = ""
        if !bytes.isEmpty && bytes.last != 0x0A { tail += newline }
        if !bytes.isEmpty { tail += newline }
        return text + tail + SectionKey.input.header + newline + calibration + " = " + value + newline
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

/// Where a TOML document's keys, values and table headers are, as byte offsets: `TOMLTokens`'
/// events, sorted for the writer.
struct TOMLSpans {
    typealias Entry = TOMLTokens.Entry
    typealias Header = TOMLTokens.Header
    typealias InlineTable = TOMLTokens.InlineTable
    struct Problem: Error {
        var message: String
        var line: Int
    }

    private(set) var entries: [Entry] = []
    private(set) var headers: [Header] = []
    private(set) var inlineTables: [InlineTable] = []
    private let tokens: TOMLTokens

    init(_ bytes: [UInt8]) throws(Problem) {
        tokens = TOMLTokens(bytes: bytes)
        if let p = tokens.problem { throw Problem(message: p.message, line: p.line) }
        for event in tokens.events {
            switch event {
            case .entry(let e): entries.append(e)
            case .header(let h): headers.append(h)
            case .inlineTable(let t): inlineTables.append(t)
            case .element: break
            }
        }
    }

    /// Just past the end of the line holding `offset`: after its `\n`, or the text's end.
    func lineEnd(after offset: Int) -> Int { tokens.lineEnd(after: offset) }
}

extension CalibrationWriter {
    static let calibrationPath = "\(SectionKey.input.name).\(InputKey.calibration.name)"

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
            throw ConfigError(file: path, line: 0, key: calibrationPath, message: "\(error)")
        }
        let after = try KioskConfiguration.parse(new, file: path)
        var expected = before.runtime
        expected.input.calibration = matrix.map { Double(formatted($0))! }
        // The scene's views know their lines, which an added line moves: compared as check-config prints them.
        let same = KioskConfiguration(file: path, scene: before.scene, runtime: expected).resolvedText == after.resolvedText
        guard after.runtime == expected, same else {
            throw ConfigError(file: path, line: 0, key: calibrationPath,
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
