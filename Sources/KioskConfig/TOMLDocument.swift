import TOMLKit

/// One TOML value as kiosk reads it: plain Swift, nothing held by the parser.
///
/// TOMLKit 0.6.0 frees nothing it makes: the toml++ document behind a `TOMLTable` (the class
/// has no deinit), a copy of every string read (`strdup`), every table's list of keys. Each
/// load of the config left about 65 kB behind (issue 21). So what the parser found is copied
/// into these values at once, and in the `kiosk` executable the parser runs in a child process
/// whose leaks end with it (ConfigParsing.swift).
enum TOMLNode: Sendable, Equatable {
    case table(TOMLDocument)
    case array([TOMLNode])
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    /// A date, time or date-time, by its TOML type's name: kiosk reads none, errors name them.
    case other(String)

    var string: String? { if case .string(let s) = self { s } else { nil } }
    var int: Int? { if case .int(let n) = self { n } else { nil } }
    var double: Double? { if case .double(let d) = self { d } else { nil } }
    var bool: Bool? { if case .bool(let b) = self { b } else { nil } }
    var array: [TOMLNode]? { if case .array(let a) = self { a } else { nil } }
    var table: TOMLDocument? { if case .table(let t) = self { t } else { nil } }
}

/// A TOML table (the document itself, or one in it): its keys in the parser's order, and their values.
struct TOMLDocument: Sendable, Equatable {
    private(set) var keys: [String] = []
    private var values: [String: TOMLNode] = [:]

    init() {}

    subscript(key: String) -> TOMLNode? { values[key] }

    mutating func append(_ key: String, _ value: TOMLNode) {
        if values.updateValue(value, forKey: key) == nil { keys.append(key) }
    }
}

extension TOMLDocument {
    /// A copy of what TOMLKit parsed (which stays allocated: see `TOMLNode`).
    init(_ table: TOMLTable) {
        for key in table.keys {
            if let value = table[key] { append(key, TOMLNode(value)) }
        }
    }
}

extension TOMLNode {
    init(_ v: any TOMLValueConvertible) {
        switch v.type {
        case .table: self = v.table.map { .table(TOMLDocument($0)) } ?? .other("table")
        case .array: self = v.array.map { .array($0.map { TOMLNode($0) }) } ?? .other("array")
        case .string: self = v.string.map { .string($0) } ?? .other("string")
        case .int: self = v.int.map { .int($0) } ?? .other("int")
        case .double: self = v.double.map { .double($0) } ?? .other("double")
        case .bool: self = v.bool.map { .bool($0) } ?? .other("bool")
        default: self = .other("\(v.type)")
        }
    }
}
