/// Identifies a view of the scene's view tree: its index, in the order views are declared.
public struct ViewID: Hashable, Sendable {
    public var rawValue: Int
    public init(_ rawValue: Int) { self.rawValue = rawValue }
}
