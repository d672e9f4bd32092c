import TOMLKit

/// TOMLKit's parser, toml++ 3.4.0, checks two of its own preconditions with `assert`, not with a
/// parse error, so two kinds of malformed text abort the whole program (in a release build too:
/// SwiftPM does not define NDEBUG for it, and with NDEBUG the checks become undefined behaviour):
///
/// - a table header whose name starts with anything but a bare-key character (`A-Z a-z 0-9 _ -`),
///   a quote or `]`: `[` then a line break, `[#`, `[.]`, `[[[`, `[{`, `[ é]` (`parse_key`);
/// - a list with `}` or a Unicode line break (U+0085, U+2028, U+2029) where a value would start:
///   `x = [}`, `x = [1, }` (`parse_value`);
/// - a value that toml++ takes for a date-time by its characters (a digit first, a '-', a ':' and
///   a 't' anywhere in it) whose date reads and whose 'T' is followed by no digit:
///   `x = 1979-05-27Tx:` (`parse_time`). Any value that starts `YYYY-MM-DDT` and then no digit is
///   refused: none is valid.
///
/// None can be switched to an error from this package (a define for a dependency's C++ target
/// cannot be set from our manifest; upstream fixed the first in toml++ PR 301, after 3.4.0), so
/// the text is scanned for them before the parser sees it. All are invalid TOML, so nothing valid
/// is refused. The scan follows the text as toml++ does (strings, comments, lists, inline tables,
/// headers); toml++ stops at the first error, so the scan only has to be right on text that is
/// valid up to the point it looks at. The first two were found by reading toml++'s parser at every
/// `TOML_ASSERT` on the current character, the third by running toml++ with its assertions on over
/// every string of up to three TOML punctuation characters and 300000 random token strings
/// (`Tests/toml-probe/run.sh`), which now finds no other; TOMLGuardTests keeps cases of each.
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

        /// toml++ skips a byte order mark at the start, and so does the scan; columns count from after it, as an editor shows them.
        let start: Int

        init(_ s: [Unicode.Scalar]) {
            self.s = s
            start = s.first == "\u{FEFF}" ? 1 : 0
        }

        func at(_ k: Int) -> Unicode.Scalar? { k < s.count ? s[k] : nil }

        func problem(at k: Int, _ message: String) -> Problem {
            var line = 1, column = 1
            for c in s[start..<max(start, min(k, s.count))] {
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
            i = start
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
                    if Self.isDigit(c), i > 0, "=[,{ \t\n\r".unicodeScalars.contains(s[i - 1]), let p = dateTimeProblem(at: i) {
                        return p
                    }
                }
                i += 1
            }
            return nil
        }

        static func isDigit(_ c: Unicode.Scalar) -> Bool { ("0"..."9").contains(c) }

        /// A value at `k` that starts `YYYY-MM-DDT` (or `t`) with no digit after the `T`.
        func dateTimeProblem(at k: Int) -> Problem? {
            guard k + 11 < s.count else { return nil }
            let w = s[k...(k + 11)].map { $0 }
            guard [0, 1, 2, 3, 5, 6, 8, 9].allSatisfy({ Self.isDigit(w[$0]) }), w[4] == "-", w[7] == "-", w[10] == "T" || w[10] == "t",
                  !Self.isDigit(w[11]) else { return nil }
            return problem(at: k + 11, "a date-time needs the time after its '\(w[10])', such as 1979-05-27T07:32:00; "
                + "found \(Self.describe(w[11]))")
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
