import TOMLKit

/// TOMLKit's parser, toml++ 3.4.0, checks two of its own preconditions with `assert`, not with a
/// parse error, so two kinds of malformed text abort the whole program (in a release build too:
/// SwiftPM does not define NDEBUG for it, and with NDEBUG the checks become undefined behaviour):
///
/// - a table header whose name starts with anything but a bare-key character (`A-Z a-z 0-9 _ -`),
///   a quote or `]`: `[` then a line break, `[#`, `[.]`, `[[[`, `[{`, `[ é]` (`parse_key`);
/// - a list with `}` or a Unicode line break (U+0085, U+2028, U+2029) where a value would start:
///   `x = [}`, `x = [1, }` (`parse_value`).
///
/// Neither can be switched to an error from this package (a define for a dependency's C++ target
/// cannot be set from our manifest; upstream fixed the first in toml++ PR 301, after 3.4.0), so
/// the text is scanned for both before the parser sees it. Both are invalid TOML, so nothing valid
/// is refused. The scan follows the text as toml++ does (strings, comments, lists, inline tables,
/// headers); toml++ stops at the first error, so the scan only has to be right on text that is
/// valid up to the point it looks at. Found by reading toml++'s parser at every `TOML_ASSERT` on
/// the current character, and checked by running toml++ with its assertions on over every string
/// of up to three TOML punctuation characters and 300000 random token strings
/// (`Tests/toml-probe/run.sh`; TOMLGuardTests keeps a case of each class found).
enum TOMLGuard {
    /// What toml++ would assert on, at its line and column (1-based, in Unicode scalars, as toml++ counts).
    struct Problem: Equatable {
        var line: Int
        var column: Int
        var message: String
    }

    /// Parses `text` with TOMLKit after the scan; every malformed text is a `TOMLParseError` or a `Problem`.
    static func parse(_ text: String) throws -> TOMLTable {
        if let problem = check(text) { throw problem }
        return try TOMLTable(string: text)
    }

    /// The first place in `text` that would stop toml++ on an assertion, if there is one.
    static func check(_ text: String) -> Problem? {
        var scanner = Scanner(Array(text.unicodeScalars))
        return scanner.run()
    }

    private struct Scanner {
        let s: [Unicode.Scalar]
        var i = 0
        /// The open lists (`[`) and inline tables (`{`) of the value being read; empty between statements.
        var open: [Unicode.Scalar] = []

        init(_ s: [Unicode.Scalar]) { self.s = s }

        func at(_ k: Int) -> Unicode.Scalar? { k < s.count ? s[k] : nil }

        func problem(at k: Int, _ message: String) -> Problem {
            var line = 1, column = 1
            for c in s[..<min(k, s.count)] {
                if c == "\n" { line += 1; column = 1 } else { column += 1 }
            }
            return Problem(line: line, column: column, message: message)
        }

        static func isBlank(_ c: Unicode.Scalar) -> Bool { c == " " || c == "\t" }

        static func startsKey(_ c: Unicode.Scalar) -> Bool {
            switch c {
            case "A"..."Z", "a"..."z", "0"..."9", "_", "-", "\"", "'": true
            default: false
            }
        }

        static func isUnicodeLineBreak(_ c: Unicode.Scalar) -> Bool { c == "\u{85}" || c == "\u{2028}" || c == "\u{2029}" }

        mutating func run() -> Problem? {
            while i < s.count {
                if let p = statement() { return p }
            }
            return nil
        }

        /// One line at the document level: blank, a comment, a table header, or a key and its value.
        mutating func statement() -> Problem? {
            while let c = at(i), Self.isBlank(c) { i += 1 }
            guard let c = at(i) else { return nil }
            switch c {
            case "\n":
                i += 1
            case "#":
                skipToLineEnd()
            case "[":
                if let p = header() { return p }
                skipToLineEnd()
            default:
                // The key, up to its '=', then the value, which may run over several lines in a list.
                while let k = at(i), k != "=", k != "\n" {
                    if k == "\"" || k == "'" { skipString() } else { i += 1 }
                }
                // A key without '=' is an error toml++ reports; go on at the next line.
                guard at(i) == "=" else { return nil }
                i += 1
                return value()
            }
            return nil
        }

        /// `[name]` or `[[name]]`: the name must start with a key character (or be empty, which toml++ reports).
        mutating func header() -> Problem? {
            var k = i + 1
            var blank = false
            while let c = at(k), Self.isBlank(c) { k += 1; blank = true }
            if at(k) == "[", !blank {
                k += 1
                while let c = at(k), Self.isBlank(c) { k += 1 }
            }
            guard let c = at(k), c != "]", !Self.startsKey(c) else { return nil }
            return problem(at: k, "a table header needs a name: [name] or [[name]], the name in letters, digits, '_' and '-', "
                + "or in quotes; found \(Self.describe(c))")
        }

        /// A value after '=' to the end of its statement: strings, comments, and nested lists and inline tables.
        mutating func value() -> Problem? {
            open.removeAll()
            while let c = at(i) {
                switch c {
                case "\"", "'":
                    skipString()
                    continue
                case "#":
                    skipToLineEnd()
                    continue
                case "[", "{":
                    open.append(c)
                case "]":
                    if open.last == "[" { open.removeLast() }
                case "}":
                    if open.last == "[" { return problem(at: i, "'}' in a list closes no inline table; a list ends with ']'") }
                    if open.last == "{" { open.removeLast() }
                case "\n":
                    if open.isEmpty {
                        i += 1
                        return nil
                    }
                default:
                    if open.last == "[", Self.isUnicodeLineBreak(c) {
                        return problem(at: i, "\(Self.describe(c)) in a list; only spaces, tabs and \\n or \\r\\n may separate values")
                    }
                }
                i += 1
            }
            return nil
        }

        /// From a quote to past its closing quote: basic (with escapes) or literal, on one line or on several.
        mutating func skipString() {
            let quote = s[i]
            let multiline = at(i + 1) == quote && at(i + 2) == quote
            i += multiline ? 3 : 1
            while let c = at(i) {
                if c == "\\", quote == "\"" {
                    i += 2
                    continue
                }
                if !multiline, c == "\n" { return }
                if c == quote {
                    if !multiline {
                        i += 1
                        return
                    }
                    if at(i + 1) == quote, at(i + 2) == quote {
                        i += 3
                        // Up to two more quotes belong to the string: `""""a""""` is `"a"`.
                        var extra = 0
                        while extra < 2, at(i) == quote { i += 1; extra += 1 }
                        return
                    }
                }
                i += 1
            }
        }

        mutating func skipToLineEnd() {
            while let c = at(i), c != "\n" { i += 1 }
        }

        static func describe(_ c: Unicode.Scalar) -> String {
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
}

extension TOMLGuard.Problem: Error {}
