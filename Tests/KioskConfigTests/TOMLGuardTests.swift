import Testing
import TOMLKit
@testable import KioskConfig

/// The scan before TOMLKit's toml++ (issue 16, fault 5): every class of text that reaches one of
/// toml++'s assertions is refused with its line and column, and nothing valid is. The classes were
/// found by reading toml++'s parser and by running it with its assertions on (TOMLGuard's comment);
/// a crash of the real kiosk on them is tested in HostileConfigCommandTests.
@Suite("Text toml++ would abort on is refused before it parses")
struct TOMLGuardTests {
    /// Each text, where toml++ would assert (line, column), and a word of the message.
    @Test(arguments: [
        // parse_key from a table header: the name starts with no key character.
        ("[\n", 1, 2, "a line break"), ("[ \n", 1, 3, "a line break"), ("[#", 1, 2, "'#'"), ("[.]", 1, 2, "'.'"),
        ("[[\n", 1, 3, "a line break"), ("[[[1]]]", 1, 3, "'['"), ("[[ [a]]", 1, 4, "'['"), ("[{", 1, 2, "'{'"),
        ("[+]", 1, 2, "'+'"), ("[=", 1, 2, "'='"), ("[\r\n", 1, 2, "a carriage return"), ("[\u{0B}a]", 1, 2, "U+000B"),
        ("[ \u{2028}a]", 1, 3, "U+2028"), ("[\u{85}]", 1, 2, "U+0085"), ("[é]", 1, 2, "'é'"), ("[\u{7F}]", 1, 2, "U+007F"),
        ("a = 1\n\n  [\n", 3, 4, "a line break"), ("x = [\n  1,\n]\n[#", 4, 2, "'#'"),
        ("s = \"\"\"\n[ok]\n\"\"\"\n[.]", 4, 2, "'.'"),
        ("\u{FEFF}[\n", 1, 2, "a line break"),  // after a byte order mark, which toml++ skips
        // parse_value from a list: '}' or a Unicode line break where a value would start.
        ("x = [}", 1, 6, "'}'"), ("x = [\n}", 2, 1, "'}'"), ("x = [1, }", 1, 9, "'}'"), ("x = [ # c\n  }", 2, 3, "'}'"),
        ("x = [[1], [}]]", 1, 12, "'}'"), ("x = [{a = 1}, }", 1, 15, "'}'"), ("x = [\u{85}1]", 1, 6, "U+0085"),
        // parse_time from a value toml++ took for a date-time: no digit after the 'T'.
        ("x = 1979-05-27truetrueT07:32:00\\:]]_T07:32:00 ", 1, 16, "'r'"), ("x = 1979-05-27Tx:", 1, 16, "'x'"),
        ("x = [1979-05-27t:]", 1, 17, "':'"), ("t = { d = 2000-01-01T_1:2 }", 1, 22, "'_'"), ("x = [\n  1,\n  1979-05-27T:]", 3, 14, "':'"),
        ("x = [\u{2029}]", 1, 6, "U+2029"), ("t = { a = [}] }", 1, 12, "'}'"), ("\u{FEFF}x = [}", 1, 6, "'}'"),
    ])
    func isRefusedWhereTomlPlusPlusWouldAssert(text: String, line: Int, column: Int, word: String) throws {
        let p = try #require(TOMLGuard.check(text))
        #expect(p.line == line && p.column == column, "\(p)")
        #expect(p.message.contains(word), "\(p.message)")
        // Through the config reader: file, line and column, as TOMLKit's own syntax errors.
        let e = try #require(configError(text))
        #expect(e.description.hasPrefix("kiosk.toml:\(line): column \(column): not valid TOML: "), "\(e)")
    }

    /// Valid TOML much like the above, which TOMLKit reads and the scan lets through.
    @Test(arguments: [
        "[a]", "[ a ]", "[[a]]", "[[ a ]]", "[\"#\"]", "['.']", "[a.\"b c\"]", "[_]", "[-]", "[1]", "[ \"[\" ]",
        "x = [ \"}\" ]", "x = [ '}' ]", "x = [ { a = 1 }, { b = \"}\" } ]", "x = [ # }\n 1 ]", "x = [\n  [1],\n  [\n    2\n  ],\n]",
        "x = \"\"\"\n[#\n}\n\"\"\"", "x = '''\n[\n'''", "x = \"\"\"a\\\"\"\"\"\n[ok]", "x = \"\"\"\"\"\"\n[ok]", "x = \"\"\"a\"\"\"\"\"\n[ok]",
        "x = \"[\\\"\"\n[ok]", "# [#\n[ok]", "x = 1 # [\n[ok]", "x = \"\u{2028}\"", "x = [ \"a\" # \u{2028} }\n]", "t = { a = [1] }",
        "\"[\" = 1", "a.\"}\".c = [ ]", "d = 1979-05-27T07:32:00Z", "d = [1979-05-27t07:32:00, 1979-05-27 07:32:00.5+01:00]",
        "d = 1979-05-27", "s = \"1979-05-27Tx:\"", "t = { a = 07:32:00 }",
    ])
    func validTOMLIsNotRefused(text: String) throws {
        #expect(TOMLGuard.check(text) == nil)
        _ = try TOMLGuard.parse(text)
    }

    @Test func theConfigItselfAndItsResolvedTextPass() throws {
        let config = try KioskConfiguration.load(path: defaultConfigPath)
        #expect(TOMLGuard.check(try String(contentsOfFile: defaultConfigPath, encoding: .utf8)) == nil)
        #expect(TOMLGuard.check(config.resolvedText) == nil)
    }
}
