// The tokens of evemu lines: hex and decimal numbers, times, blanks, and the errors naming a bad one.

extension EvemuParser {
    static func text(_ token: ArraySlice<UInt8>) -> String {
        let text = String(decoding: token, as: UTF8.self)
        return text.count > 40 ? String(text.prefix(40)) + "..." : text
    }

    /// Why `token` is not a hex number up to `maximum`, for an error.
    static func hexProblem(_ token: ArraySlice<UInt8>, maximum: UInt32, name: String?) -> String {
        let limit = "0x" + String(maximum, radix: 16) + (name.map { " (\($0))" } ?? "")
        if !token.isEmpty, token.allSatisfy({ hexDigit($0) != nil }) { return "'\(text(token))' is above \(limit)" }
        return "'\(text(token))' is not a hex number up to \(limit)"
    }

    /// Why `token` is not a 32-bit decimal, for an error.
    static func decimalProblem(_ token: ArraySlice<UInt8>) -> String {
        let digits = token.first == UInt8(ascii: "-") || token.first == UInt8(ascii: "+") ? token.dropFirst() : token
        if !digits.isEmpty, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            return "'\(text(token))' does not fit in 32 bits (\(Int32.min)...\(Int32.max))"
        }
        return "'\(text(token))' is not a decimal number"
    }

    static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
    }

    /// The line without the blanks around it (and so without a CR from a CRLF line end).
    static func trimmed(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        guard let first = line.firstIndex(where: { !isBlank($0) }),
              let last = line.lastIndex(where: { !isBlank($0) })
        else { return line[line.endIndex...] }
        return line[first...last]
    }

    /// The version of a `# EVEMU 1.3` line.
    static func version(in line: ArraySlice<UInt8>) -> EvemuFormatVersion? {
        var fields = FieldScanner(line)
        guard fields.next().map(Array.init) == Array("#".utf8), fields.next().map(Array.init) == Array("EVEMU".utf8),
              let number = fields.next()
        else { return nil }
        let parts = number.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 2, let major = decimal(parts[0]), let minor = decimal(parts[1]),
              major >= 0, minor >= 0
        else { return nil }
        return EvemuFormatVersion(major: Int(major), minor: Int(minor))
    }

    static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    static func hex(_ token: ArraySlice<UInt8>, maximum: UInt32) -> UInt32? {
        guard !token.isEmpty, token.count <= 8 else { return nil }
        var value: UInt32 = 0
        for byte in token {
            guard let digit = hexDigit(byte) else { return nil }
            value = value << 4 | digit
        }
        return value <= maximum ? value : nil
    }

    /// A decimal with an optional sign, as `%d` reads it; nil when it does not fit in 32 bits.
    static func decimal(_ token: ArraySlice<UInt8>) -> Int32? {
        var digits = token
        var negative = false
        if let sign = digits.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            negative = sign == UInt8(ascii: "-")
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty, digits.count <= 11 else { return nil }
        var value: Int64 = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        return Int32(exactly: negative ? -value : value)
    }

    /// `sec.usec` as microseconds: decimal seconds with up to 6 fraction digits.
    static func microseconds(_ token: ArraySlice<UInt8>) -> Int64? {
        var text = token
        var negative = false
        if text.first == UInt8(ascii: "-") {
            negative = true
            text = text.dropFirst()
        }
        let parts = text.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 2, let seconds = digits(parts[0], maximumCount: 12),
              !parts[1].isEmpty, let fraction = digits(parts[1], maximumCount: 6)
        else { return nil }
        var scale: Int64 = 1
        for _ in parts[1].count..<6 { scale *= 10 }
        let total = seconds * 1_000_000 + fraction * scale
        return negative ? -total : total
    }

    static func digits(_ token: ArraySlice<UInt8>, maximumCount: Int) -> Int64? {
        guard !token.isEmpty, token.count <= maximumCount else { return nil }
        var value: Int64 = 0
        for byte in token {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        return value
    }

    static func bytes(_ fields: inout FieldScanner, count: Int) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        while let token = fields.next() {
            guard let value = hex(token, maximum: 0xff) else { return nil }
            bytes.append(UInt8(value))
        }
        return bytes.count == count ? bytes : nil
    }
}
