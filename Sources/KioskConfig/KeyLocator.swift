/// Finds the line on which each key of a TOML document is written.
///
/// TOMLKit reports line and column for syntax errors but keeps no positions on the values it
/// parses, so errors found later (a bad value, an unknown name) would have no line. This takes the
/// headers, keys and array elements `TOMLTokens` finds and records where each key path is written:
/// `panel.width_mm`, `view[2].frame`, and the inline tables of an array (`view[0].themes[1]`).
/// It only locates; the parser has already accepted the document.
struct KeyLocator {
    private var lines: [String: Int] = [:]

    init(_ text: String) {
        var table = ""
        var arrayCounts: [String: Int] = [:]
        for event in TOMLTokens(text).events {
            switch event {
            case .header(let h):
                let name = h.path.joined(separator: ".")
                if h.isArray {
                    let index = arrayCounts[name, default: 0]
                    arrayCounts[name] = index + 1
                    table = "\(name)[\(index)]"
                } else {
                    table = name
                }
                lines[table] = h.line
            case .entry(let e) where !e.isNested:
                lines[Self.path(table, e.key)] = e.line
            case .element(let e) where e.isInlineTable && !e.isNested:
                // Scalar elements point at their key.
                lines["\(Self.path(table, e.key))[\(e.index)]"] = e.line
            default:
                break
            }
        }
    }

    private static func path(_ table: String, _ key: [String]) -> String {
        let key = key.joined(separator: ".")
        return table.isEmpty ? key : "\(table).\(key)"
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
}
