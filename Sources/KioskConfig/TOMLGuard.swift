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
/// the text is walked for them before the parser sees it, by `TOMLTokens`, which reads the text as
/// toml++ does (strings, comments, lists, inline tables, headers) and marks these places as
/// `abortsParser`. All are invalid TOML, so nothing valid is refused. toml++ stops at the first
/// error, and so does the walk: where it stops on plain bad TOML, toml++ reports it. The first two
/// were found by reading toml++'s parser at every `TOML_ASSERT` on the current character, the third
/// by running toml++ with its assertions on over every string of up to three TOML punctuation
/// characters and 300000 random token strings (`Tests/toml-probe/run.sh`), which now finds no
/// other; TOMLGuardTests keeps cases of each.
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
        guard let p = TOMLTokens(text).problem, p.abortsParser else { return nil }
        return Problem(line: p.line, column: p.column, message: p.message)
    }
}

extension TOMLGuard.Problem: Error {}
