/// A moment on the input's clock, in microseconds. Time is always a parameter: the engine never reads a clock.
public struct Instant: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var microseconds: Int64

    public init(microseconds: Int64) { self.microseconds = microseconds }

    /// An instant `seconds` after zero, rounded to the microsecond.
    public init(seconds: Double) { microseconds = Int64((seconds * 1_000_000).rounded()) }

    public static let zero = Instant(microseconds: 0)

    public var seconds: Double { Double(microseconds) / 1_000_000 }

    public static func < (a: Instant, b: Instant) -> Bool { a.microseconds < b.microseconds }

    /// The instant `seconds` later.
    public func adding(seconds: Double) -> Instant {
        Instant(microseconds: microseconds + Int64((seconds * 1_000_000).rounded()))
    }

    /// Seconds from `earlier` to this instant.
    public func seconds(since earlier: Instant) -> Double {
        Double(microseconds - earlier.microseconds) / 1_000_000
    }

    public var description: String { "\(seconds)s" }
}
