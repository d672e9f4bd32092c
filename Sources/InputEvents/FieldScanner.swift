/// Splits one line into blank-separated fields.
struct FieldScanner {
    private var rest: ArraySlice<UInt8>

    init(_ line: ArraySlice<UInt8>) { rest = line }

    /// The `X` of an `X:` line start, consumed with its colon; "" when the line has none.
    mutating func tag() -> String {
        guard rest.count >= 2, rest[rest.startIndex + 1] == UInt8(ascii: ":") else { return "" }
        let tag = String(decoding: rest.prefix(1), as: UTF8.self)
        rest = rest.dropFirst(2)
        return tag
    }

    mutating func next() -> ArraySlice<UInt8>? {
        skipBlanks()
        guard !rest.isEmpty else { return nil }
        let end = rest.firstIndex(where: EvemuParser.isBlank) ?? rest.endIndex
        let token = rest[rest.startIndex..<end]
        rest = rest[end...]
        return token
    }

    /// The rest of the line without the blanks around it.
    mutating func remainder() -> String {
        String(decoding: EvemuParser.trimmed(rest), as: UTF8.self)
    }

    var isAtEnd: Bool { rest.allSatisfy(EvemuParser.isBlank) }

    /// True when nothing but blanks, or a `#` comment, is left: evemu-record comments its events.
    var isAtEndOrComment: Bool {
        guard let first = rest.firstIndex(where: { !EvemuParser.isBlank($0) }) else { return true }
        return rest[first] == UInt8(ascii: "#")
    }

    private mutating func skipBlanks() {
        while let first = rest.first, EvemuParser.isBlank(first) { rest = rest.dropFirst() }
    }
}
