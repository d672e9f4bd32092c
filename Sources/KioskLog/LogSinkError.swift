/// Why a sink could not be made at all: a setting the kiosk cannot use, named in the message.
public struct LogSinkError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
