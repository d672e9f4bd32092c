/// A drawing resource that could not be made; the message names the call and the file.
public struct DrawingResourceError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
