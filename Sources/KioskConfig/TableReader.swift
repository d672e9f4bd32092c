/// Reads one TOML table key by key, turning every wrong type, bad value and unknown key into a
/// `ConfigError` that names the file, the line, the key path, the value and what is allowed.
struct TableReader {
    let table: TOMLDocument
    /// The table's path: `panel`, `view[2]`.
    let path: String
    /// Words that name the table in errors: `view "yellow"`.
    var label: String
    /// How error keys name the table once it is known by name, `gesture "tap@yellow"` rather than
    /// `gesture[4]`; `path` still finds its line.
    var shownPath: String?
    let file: String
    let locator: KeyLocator

    init(_ table: TOMLDocument, path: String, label: String? = nil, file: String, locator: KeyLocator) {
        self.table = table
        self.path = path
        self.label = label ?? path
        self.file = file
        self.locator = locator
    }

    func keyPath(_ key: any ConfigKeyName) -> String { path.isEmpty ? key.name : "\(path).\(key.name)" }

    /// An error about `key` (or the table itself when nil), on the line where it is written.
    func error(_ key: (any ConfigKeyName)?, _ message: String) -> ConfigError {
        let at = key.map(keyPath) ?? path
        let shown = shownPath.map { table in key.map { "\(table).\($0.name)" } ?? table } ?? at
        return ConfigError(file: file, line: locator.line(of: at), key: shown, message: message)
    }

    func has(_ key: any ConfigKeyName) -> Bool { table[key.name] != nil }

    /// Every key must be one of `allowed`; a typo names the nearest valid key.
    func rejectUnknownKeys(allowed: [String]) throws(ConfigError) {
        for key in table.keys.sorted() where !allowed.contains(key) {
            var message = "unknown key in \(label)"
            message += nearest(key, among: allowed).map { "; did you mean '\($0)'?" } ?? "."
            message += " Allowed: \(allowed.joined(separator: ", "))"
            throw error(KeyInFile(key), message)
        }
    }

    func string(_ key: any ConfigKeyName) throws(ConfigError) -> String? {
        guard let v = table[key.name] else { return nil }
        guard let s = v.string else { throw error(key, "expected a string in quotes, found \(show(v))") }
        return s
    }

    func requiredString(_ key: any ConfigKeyName) throws(ConfigError) -> String {
        guard let s = try string(key) else { throw error(nil, "\(label) needs '\(key.name)'") }
        return s
    }

    /// One of `choices`, spelled as the config spells them.
    func choice(_ key: any ConfigKeyName, _ choices: [String]) throws(ConfigError) -> String? {
        guard let s = try string(key) else { return nil }
        guard choices.contains(s) else {
            var message = "'\(s)' is not one of: \(choices.joined(separator: ", "))"
            if let near = nearest(s, among: choices) { message += "; did you mean '\(near)'?" }
            throw error(key, message)
        }
        return s
    }

    func bool(_ key: any ConfigKeyName) throws(ConfigError) -> Bool? {
        guard let v = table[key.name] else { return nil }
        guard let b = v.bool else { throw error(key, "expected true or false, found \(show(v))") }
        return b
    }

    func int(_ key: any ConfigKeyName, in range: ClosedRange<Int>) throws(ConfigError) -> Int? {
        guard let v = table[key.name] else { return nil }
        guard let n = v.int else { throw error(key, "expected a whole number \(describe(range)), found \(show(v))") }
        guard range.contains(n) else { throw error(key, "\(n) is out of range; allowed: a whole number \(describe(range))") }
        return n
    }

    /// A number (integer or floating point) within `range`.
    func number(_ key: any ConfigKeyName, in range: ClosedRange<Double>, unit: String = "") throws(ConfigError) -> Double? {
        guard let v = table[key.name] else { return nil }
        guard let n = v.double ?? v.int.map(Double.init) else {
            throw error(key, "expected a number\(unit) \(describe(range)), found \(show(v))")
        }
        guard range.contains(n) else {
            throw error(key, "\(show(v)) is out of range; allowed: a number\(unit) \(describe(range))")
        }
        return n
    }

    /// A number that `isAllowed` accepts, for a rule a range cannot say; `allowed` says it in words.
    func number(_ key: any ConfigKeyName, allowed: String, _ isAllowed: (Double) -> Bool) throws(ConfigError) -> Double? {
        guard let v = table[key.name] else { return nil }
        guard let n = v.double ?? v.int.map(Double.init) else { throw error(key, "expected \(allowed), found \(show(v))") }
        guard isAllowed(n) else { throw error(key, "\(show(v)) is out of range; allowed: \(allowed)") }
        return n
    }

    /// A whole number from a short list, such as the rotations 0, 90, 180 and 270; `meaning` follows the list in errors.
    func int(_ key: any ConfigKeyName, oneOf allowed: [Int], meaning: String = "") throws(ConfigError) -> Int? {
        guard let v = table[key.name] else { return nil }
        let list = allowed.map(String.init).joined(separator: ", ") + meaning
        guard let n = v.int else { throw error(key, "expected a whole number, one of: \(list), found \(show(v))") }
        guard allowed.contains(n) else { throw error(key, "\(n) is not one of: \(list)") }
        return n
    }

    /// An array of exactly `count` numbers.
    func numbers(_ key: any ConfigKeyName, count: Int, meaning: String) throws(ConfigError) -> [Double]? {
        guard let v = table[key.name] else { return nil }
        let problem = "expected \(meaning), \(count) numbers in brackets, found \(show(v))"
        guard let a = v.array, a.count == count else { throw error(key, problem) }
        var out: [Double] = []
        for element in a {
            guard let n = element.double ?? element.int.map(Double.init) else { throw error(key, problem) }
            out.append(n)
        }
        return out
    }

    func strings(_ key: any ConfigKeyName) throws(ConfigError) -> [String]? {
        guard let v = table[key.name] else { return nil }
        let problem = "expected a list of strings in brackets, such as [\"pan\", \"pinch@yellow\"], found \(show(v))"
        guard let a = v.array else { throw error(key, problem) }
        var out: [String] = []
        for element in a {
            guard let s = element.string else { throw error(key, problem) }
            out.append(s)
        }
        return out
    }

    /// The tables of an array of tables or of inline tables, each with its own reader.
    func tables(_ key: any ConfigKeyName) throws(ConfigError) -> [TableReader]? {
        guard let v = table[key.name] else { return nil }
        guard let a = v.array else { throw error(key, "expected a list of tables, found \(show(v))") }
        var out: [TableReader] = []
        for (i, element) in a.enumerated() {
            guard let t = element.table else { throw error(key, "expected a list of tables, found \(show(element))") }
            var reader = TableReader(t, path: "\(keyPath(key))[\(i)]", file: file, locator: locator)
            reader.shownPath = shownPath.map { "\($0).\(key.name)[\(i)]" }
            out.append(reader)
        }
        return out
    }

    func subtable(_ key: any ConfigKeyName) throws(ConfigError) -> TableReader? {
        guard let v = table[key.name] else { return nil }
        guard let t = v.table else { throw error(key, "expected a table ([\(keyPath(key))]), found \(show(v))") }
        return TableReader(t, path: keyPath(key), label: "[\(keyPath(key))]", file: file, locator: locator)
    }

    private func describe(_ range: ClosedRange<Int>) -> String {
        range.upperBound == Int.max ? "of at least \(range.lowerBound)" : "from \(range.lowerBound) to \(range.upperBound)"
    }

    /// `0...greatestFiniteMagnitude` reads as "of at least 0" and, unlike `0...infinity`, refuses `inf`.
    private func describe(_ range: ClosedRange<Double>) -> String {
        let open = range.upperBound == .infinity || range.upperBound == .greatestFiniteMagnitude
        switch (range.lowerBound == .leastNonzeroMagnitude, open) {
        case (true, true): return "greater than 0"
        case (true, false): return "greater than 0 and at most \(format(range.upperBound))"
        case (false, true): return "of at least \(format(range.lowerBound))"
        case (false, false): return "from \(format(range.lowerBound)) to \(format(range.upperBound))"
        }
    }

    private func format(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x)
    }

    /// A value as the file spells it, with its TOML type when that is what is wrong.
    func show(_ v: TOMLNode) -> String {
        switch v {
        case .string(let s): "\"\(s)\""
        case .int(let n): String(n)
        case .double(let d): String(d)  // 90.0 stays 90.0, so "expected a whole number" makes sense
        case .bool(let b): b ? "true" : "false"
        case .array: "a list"
        case .table: "a table"
        case .other(let type): "a \(type)"
        }
    }
}

/// The candidate closest to `word` by edit distance, when it is close enough to be a typo.
func nearest(_ word: String, among candidates: [String]) -> String? {
    var best: (String, Int)?
    for c in candidates {
        let d = editDistance(word.lowercased(), c.lowercased())
        if d <= max(2, c.count / 3), d < (best?.1 ?? Int.max) { best = (c, d) }
    }
    return best?.0
}

/// Levenshtein distance: insertions, deletions and substitutions.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    if a.isEmpty { return b.count }
    var previous = Array(0...b.count)
    var current = previous
    for i in 1...a.count {
        current[0] = i
        if !b.isEmpty {
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}
