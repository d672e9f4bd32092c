/// Why the display could not be set up or driven; names the card and the cause.
public struct DisplayError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
