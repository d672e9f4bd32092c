/// A set of recognizers, as a fixed-size bit set: testing and updating it never allocates.
public struct RecognizerMask: Hashable, Sendable, Sequence {
    /// How many recognizers one engine can hold.
    public static let capacity = 128

    private var low: UInt64 = 0
    private var high: UInt64 = 0

    public init() {}

    public var isEmpty: Bool { low == 0 && high == 0 }

    public func contains(_ id: RecognizerID) -> Bool {
        id.rawValue < 64 ? low & (1 << UInt64(id.rawValue)) != 0 : high & (1 << UInt64(id.rawValue - 64)) != 0
    }

    public mutating func insert(_ id: RecognizerID) {
        if id.rawValue < 64 { low |= 1 << UInt64(id.rawValue) } else { high |= 1 << UInt64(id.rawValue - 64) }
    }

    public mutating func remove(_ id: RecognizerID) {
        if id.rawValue < 64 { low &= ~(1 << UInt64(id.rawValue)) } else { high &= ~(1 << UInt64(id.rawValue - 64)) }
    }

    public mutating func removeAll() {
        low = 0
        high = 0
    }

    public func union(_ other: RecognizerMask) -> RecognizerMask {
        var m = self
        m.low |= other.low
        m.high |= other.high
        return m
    }

    public func intersection(_ other: RecognizerMask) -> RecognizerMask {
        var m = self
        m.low &= other.low
        m.high &= other.high
        return m
    }

    /// The members in ascending order.
    public struct Iterator: IteratorProtocol {
        var low: UInt64
        var high: UInt64
        public mutating func next() -> RecognizerID? {
            if low != 0 {
                let bit = low.trailingZeroBitCount
                low &= low - 1
                return RecognizerID(bit)
            }
            if high != 0 {
                let bit = high.trailingZeroBitCount
                high &= high - 1
                return RecognizerID(64 + bit)
            }
            return nil
        }
    }

    public func makeIterator() -> Iterator { Iterator(low: low, high: high) }
}
