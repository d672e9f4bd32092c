/// An opaque sRGB colour, 8 bits a channel.
public struct Color: Hashable, Sendable, CustomStringConvertible {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Parses `#rrggbb`; nil for anything else (`UInt32(_:radix:)` alone would take a sign: `#+12345`).
    public init?(hex: String) {
        let digits = hex.utf8.dropFirst()
        guard hex.utf8.count == 7, hex.first == "#", digits.allSatisfy({ $0 < 0x80 && Character(Unicode.Scalar($0)).isHexDigit }),
              let v = UInt32(Substring(digits), radix: 16) else { return nil }
        red = UInt8((v >> 16) & 0xff)
        green = UInt8((v >> 8) & 0xff)
        blue = UInt8(v & 0xff)
    }

    /// `#rrggbb`.
    public var description: String {
        let digits = Array("0123456789abcdef")
        var s = "#"
        for c in [red, green, blue] {
            s.append(digits[Int(c >> 4)])
            s.append(digits[Int(c & 0xf)])
        }
        return s
    }
}
