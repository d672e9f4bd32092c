/// Typed values read in order from a fuzzer's input; zeros once it is used up, so every input is valid.
public struct FuzzInput {
    private let bytes: UnsafeRawBufferPointer
    private var index = 0

    public init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    /// True when every byte has been read.
    public var isAtEnd: Bool { index >= bytes.count }

    public mutating func uint8() -> UInt8 {
        guard index < bytes.count else { return 0 }
        defer { index += 1 }
        return bytes[index]
    }

    public mutating func int8() -> Int8 { Int8(bitPattern: uint8()) }

    /// Little-endian, as the seed corpus writes it.
    public mutating func uint16() -> UInt16 { UInt16(uint8()) | UInt16(uint8()) << 8 }

    public mutating func int16() -> Int16 { Int16(bitPattern: uint16()) }

    public mutating func uint32() -> UInt32 { UInt32(uint16()) | UInt32(uint16()) << 16 }

    public mutating func int32() -> Int32 { Int32(bitPattern: uint32()) }

    public mutating func uint64() -> UInt64 { UInt64(uint32()) | UInt64(uint32()) << 32 }
}
