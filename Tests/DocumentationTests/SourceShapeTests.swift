import Foundation
import KioskTestSupport
import Testing

/// The house rules ARCHITECTURE.md states for Sources/, checked: no file over 400 lines, no
/// function over 60, and no type with more than 15 stored properties except the ones its table
/// "Types with more than 15 stored properties" names with a reason (and only while they are).
@Suite struct SourceShapeTests {
    static let root = KioskExecutable.repositoryRoot
    static let sources: [(path: String, text: String)] = {
        let base = root.appendingPathComponent("Sources")
        let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil)
        var files: [(String, String)] = []
        while let url = walker?.nextObject() as? URL {
            guard url.pathExtension == "swift", let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
            files.append((String(url.path.dropFirst(root.path.count + 1)), text))
        }
        return files.sorted { $0.0 < $1.0 }
    }()
    static let architecture = (try? String(contentsOf: root.appendingPathComponent("ARCHITECTURE.md"), encoding: .utf8)) ?? ""

    @Test func theSourcesAreFound() {
        #expect(Self.sources.count > 100, "Sources/ was not read")
    }

    @Test func noFileIsOver400Lines() {
        let long = Self.sources.compactMap { file -> String? in
            let lines = file.text.split(separator: "\n", omittingEmptySubsequences: false).count
            return lines > 400 ? "\(file.path): \(lines) lines" : nil
        }
        #expect(long.isEmpty, "files over 400 lines: \(long)")
    }

    @Test func noFunctionIsOver60Lines() {
        let long = Self.sources.flatMap { file in
            SwiftShape.functions(in: file.text).filter { $0.lines > 60 }.map { "\(file.path):\($0.line) \($0.name): \($0.lines) lines" }
        }
        #expect(long.isEmpty, "functions over 60 lines: \(long)")
    }

    /// Every type over 15 stored properties is in ARCHITECTURE.md's table, and every type the
    /// table names is still over 15 (a split type leaves the table).
    @Test func typesOver15StoredPropertiesAreTheOnesArchitectureExplains() {
        var over: Set<String> = []
        for file in Self.sources {
            for type in SwiftShape.storedProperties(in: file.text) where type.count > 15 { over.insert(type.name) }
        }
        let explained = SwiftShape.explainedTypes(in: Self.architecture)
        #expect(over.subtracting(explained).isEmpty,
                "types with more than 15 stored properties that ARCHITECTURE.md does not explain: \(over.subtracting(explained).sorted())")
        #expect(explained.subtracting(over).isEmpty,
                "ARCHITECTURE.md explains types that no longer have more than 15 stored properties: \(explained.subtracting(over).sorted())")
    }

    /// The scanner itself, on a made-up file: what counts as stored, and a function's length.
    @Test func theScannerCountsWhatIsStored() {
        let text = """
        public final class Loop {
            let a: Int
            public internal(set) var b = 1   // a comment with { a brace
            private var c: [Int] = []
            var d: Int { a + b }
            static let e = 1
            var f: Int = 0 { didSet { } }
            let g = "a string with { a brace"
            lazy var h = { 1 }()
            struct Inner {
                var x = 0
                var y = 0
            }
            func one() {
                let local = 1
                _ = local
            }
        }
        extension Loop {
            var computed: Int { 2 }
        }
        """
        let types = SwiftShape.storedProperties(in: text)
        #expect(types.first { $0.name == "Loop" }?.count == 6)
        #expect(types.first { $0.name == "Inner" }?.count == 2)
        let functions = SwiftShape.functions(in: text)
        #expect(functions.map(\.name) == ["one"])
        #expect(functions.first?.lines == 4)
    }
}

/// A rough reader of Swift's shape: enough for the house rules, not a parser. Comments and string
/// literals are blanked first, so their braces do not count.
enum SwiftShape {
    struct Function {
        var name: String
        var line: Int
        var lines: Int
    }

    /// Stored properties per type declared in `text` (extensions cannot hold them). A `var` or
    /// `let` directly in a type's body counts unless it is static or computed (`{` before any `=`
    /// with no `willSet`/`didSet`).
    static func storedProperties(in text: String) -> [(name: String, count: Int)] {
        var result: [(name: String, count: Int)] = []
        var stack: [(index: Int, depth: Int)] = []
        var depth = 0
        for line in blanked(text) {
            let t = line.trimmingCharacters(in: .whitespaces)
            if let name = firstMatch(#"^(?:(?:public|internal|private|fileprivate|package|final|open|indirect|@\w+(?:\([^)]*\))?)\s+)*(?:struct|class|actor|enum)\s+(\w+)"#, in: t),
               t.contains("{") {
                result.append((name, 0))
                stack.append((result.count - 1, depth + 1))
            } else if let top = stack.last, depth == top.depth, isStored(t) {
                result[top.index].count += 1
            }
            depth += line.count { $0 == "{" } - line.count { $0 == "}" }
            while let top = stack.last, depth < top.depth { stack.removeLast() }
        }
        return result
    }

    static func isStored(_ t: String) -> Bool {
        let modifiers = #"(?:(?:public|internal|private|fileprivate|package|nonisolated|final|weak|unowned|lazy|@\w+(?:\([^)]*\))?|(?:public|internal|private|fileprivate|package)\(set\))\s+)*"#
        guard let range = t.range(of: "^" + modifiers + #"(?:var|let)\s+\w+"#, options: .regularExpression) else { return false }
        let rest = t[range.upperBound...]
        guard let brace = rest.firstIndex(of: "{") else { return true }
        if rest.contains("didSet") || rest.contains("willSet") { return true }
        if let equals = rest.firstIndex(of: "="), equals < brace { return true }
        return false
    }

    /// Functions and initialisers with a body: from the line that opens it to the line that closes it.
    static func functions(in text: String) -> [Function] {
        let lines = blanked(text)
        var result: [Function] = []
        var open: [(name: String, line: Int, depth: Int)] = []
        var depth = 0
        var pending: (name: String, line: Int)?
        for (n, line) in lines.enumerated() {
            // A requirement without a body (a protocol's) is forgotten at the next declaration.
            if firstMatch(#"^\s*(?:(?:public|private|fileprivate|internal|package|static|final|mutating|@\w+)\s+)*(extension|struct|class|enum|protocol|actor|var|let|case|typealias|associatedtype)\b"#, in: line) != nil {
                pending = nil
            }
            if let name = firstMatch(#"(?:^|\s)(?:func\s+([^\s(<]+)|(init)[?!]?\s*[(<])"#, in: line) { pending = (name, n + 1) }
            for c in line {
                if c == "{" {
                    depth += 1
                    if let p = pending { open.append((p.name, p.line, depth)); pending = nil }
                } else if c == "}" {
                    pending = nil
                    if let top = open.last, top.depth == depth {
                        result.append(Function(name: top.name, line: top.line, lines: n + 1 - top.line + 1))
                        open.removeLast()
                    }
                    depth -= 1
                }
            }
        }
        return result
    }

    /// The types ARCHITECTURE.md's table names: backticked names in the rows of the section
    /// "Types with more than 15 stored properties", first column.
    static func explainedTypes(in text: String) -> Set<String> {
        guard let start = text.range(of: "Types with more than 15 stored properties") else { return [] }
        var names: Set<String> = []
        var inTable = false
        for line in text[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("|") {
                inTable = true
                let first = line.split(separator: "|").first ?? ""
                if let name = firstMatch(#"`([A-Za-z_.]+)`"#, in: String(first)) { names.insert(String(name.split(separator: ".").last ?? "")) }
            } else if inTable {
                break
            }
        }
        return names
    }

    /// The text's lines with comments and string literals blanked (their braces gone).
    static func blanked(_ text: String) -> [String] {
        var out = ""
        var chars = Array(text.unicodeScalars)[...]
        while let c = chars.first {
            if chars.starts(with: "//".unicodeScalars) {
                while let d = chars.first, d != "\n" { chars.removeFirst() }
            } else if chars.starts(with: "/*".unicodeScalars) {
                while !chars.isEmpty, !chars.starts(with: "*/".unicodeScalars) {
                    if chars.first == "\n" { out += "\n" }
                    chars.removeFirst()
                }
                chars = chars.dropFirst(2)
            } else if chars.starts(with: "\"\"\"".unicodeScalars) {
                chars = chars.dropFirst(3)
                out += "\"\""
                while !chars.isEmpty, !chars.starts(with: "\"\"\"".unicodeScalars) {
                    if chars.first == "\n" { out += "\n" }
                    chars.removeFirst()
                }
                chars = chars.dropFirst(3)
            } else if c == "\"" {
                chars.removeFirst()
                while let d = chars.first, d != "\"", d != "\n" {
                    chars.removeFirst()
                    if d == "\\" { chars = chars.dropFirst() }
                }
                chars = chars.dropFirst()
                out += "\"\""
            } else {
                out.unicodeScalars.append(c)
                chars.removeFirst()
            }
        }
        return out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    static func firstMatch(_ pattern: String, in text: String) -> String? {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return nil }
        let ns = text as NSString
        guard let m = regex.firstMatch(in: text, range: NSRange(location: 0, length: ns.length)) else { return nil }
        for i in 1..<m.numberOfRanges where m.range(at: i).location != NSNotFound { return ns.substring(with: m.range(at: i)) }
        return nil
    }
}
