/// Identifies a recognizer within its engine: its index, in the order recognizers were added.
public struct RecognizerID: Hashable, Comparable, Sendable {
    public var rawValue: Int
    public init(_ rawValue: Int) { self.rawValue = rawValue }
    public static func < (a: RecognizerID, b: RecognizerID) -> Bool { a.rawValue < b.rawValue }
}
