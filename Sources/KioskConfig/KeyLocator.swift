/// Finds the line on which each key of a TOML document is written.
///
/// TOMLKit reports line and column for syntax errors but keeps no positions on the values it
/// parses, so errors found later (a bad value, an unknown name) would have no line. This reads the
/// same text once more, line by line, and records where each key path is written: `panel.width_mm`,
/// `view[2].frame`, and the elements of a multi-line array of inline tables (`view[0].themes[1]`).
/// It only locates; TOMLKit has already accepted the document, so it can assume the syntax is valid.
struct KeyLocator {
    private var lines: [String: Int] = [:]

    init(_ text: String) {
        var table = ""
        var arrayCounts: [String: Int] = [:]
        var openArray: (key: String, depth: Int, elements: Int)?
        var inMultilineString = false
        var number = 0
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            let line = raw.trimmingWhitespace()
            if inMultilineString {
                if line.contains("\"\"\"") || line.contains("'''") { inMultilineString = false }
                continue
            }
            if var array = openArray {
                // One inline table a line, as a config writes them; scalar arrays point at their key.
                if line.hasPrefix("{") {
                    lines["\(array.key)[\(array.elements)]"] = number
                    array.elements += 1
                }
                array.depth += Self.bracketBalance(line)
                openArray = array.depth > 0 ? array : nil
                continue
            }
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("[[") {
                let name = Self.headerName(line, brackets: 2)
                let index = arrayCounts[name, default: 0]
                arrayCounts[name] = index + 1
                table = "\(name)[\(index)]"
                lines[table] = number
            } else if line.hasPrefix("[") {
                table = Self.headerName(line, brackets: 1)
                lines[table] = number
            } else if let equals = Self.firstUnquoted("=", in: line) {
                let key = Self.unquoted(String(line[..<equals]).trimmingWhitespace())
                let path = table.isEmpty ? key : "\(table).\(key)"
                lines[path] = number
                let value = String(line[line.index(after: equals)...]).trimmingWhitespace()
                for delimiter in ["\"\"\"", "'''"] where value.hasPrefix(delimiter) {
                    inMultilineString = !value.dropFirst(3).contains(delimiter)
                }
                let depth = Self.bracketBalance(value)
                if depth > 0, value.hasPrefix("[") { openArray = (path, depth, 0) }
            }
        }
    }

    /// The line of `path`, or of its nearest enclosing path that was written down.
    func line(of path: String) -> Int {
        var p = Substring(path)
        while !p.isEmpty {
            if let n = lines[String(p)] { return n }
            guard let cut = p.lastIndex(where: { $0 == "." || $0 == "[" }) else { break }
            p = p[..<cut]
        }
        return 0
    }

    private static func headerName(_ line: String, brackets: Int) -> String {
        var s = Substring(line).dropFirst(brackets)
        if let end = s.firstIndex(of: "]") { s = s[..<end] }
        return s.split(separator: ".").map { unquoted(String($0).trimmingWhitespace()) }.joined(separator: ".")
    }

    private static func unquoted(_ key: String) -> String {
        if key.count >= 2, let f = key.first, f == "\"" || f == "'", key.last == f { return String(key.dropFirst().dropLast()) }
        return key
    }

    private static func firstUnquoted(_ target: Character, in line: String) -> String.Index? {
        var quote: Character?
        var i = line.startIndex
        while i < line.endIndex {
            let c = line[i]
            if let q = quote {
                if c == "\\", q == "\"" { i = line.index(after: i) } else if c == q { quote = nil }
            } else if c == "\"" || c == "'" {
                quote = c
            } else if c == "#" {
                return nil
            } else if c == target {
                return i
            }
            if i < line.endIndex { i = line.index(after: i) }
        }
        return nil
    }

    /// Opening minus closing brackets and braces outside strings and comments.
    private static func bracketBalance(_ text: String) -> Int {
        var balance = 0
        scan(text) { c in
            if c == "[" || c == "{" { balance += 1 }
            if c == "]" || c == "}" { balance -= 1 }
        }
        return balance
    }

    /// Calls `body` with each character outside strings and comments.
    private static func scan(_ text: String, _ body: (Character) -> Void) {
        var quote: Character?
        var escaped = false
        for c in text {
            if let q = quote {
                if escaped { escaped = false } else if c == "\\", q == "\"" { escaped = true } else if c == q { quote = nil }
                continue
            }
            if c == "\"" || c == "'" { quote = c; continue }
            if c == "#" { return }
            body(c)
        }
    }
}

extension StringProtocol {
    func trimmingWhitespace() -> String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" || f == "\r" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\r" { s = s.dropLast() }
        return String(s)
    }
}
