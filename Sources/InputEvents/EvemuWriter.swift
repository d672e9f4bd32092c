import KioskCore

extension EvemuTrace {
    /// The trace as evemu-record writes it (`# EVEMU 1.3`), readable by evemu-device and evemu-play.
    ///
    /// Timestamps are written as they are, not made relative; a negative one gets a minus sign,
    /// which only `parse` reads back. `parse(trace.text, file:)` gives this trace back, but with
    /// `formatVersion` 1.3.
    public var text: String {
        var writer = EvemuWriter()
        var out = writer.header(device, ledStates: ledStates, switchStates: switchStates)
        for event in events { writer.append(event, to: &out) }
        return out
    }
}

/// Writes evemu's text format as evemu 2.7 does: a device's header, then its events one line at a
/// time, so a recording can be written as it happens.
public struct EvemuWriter {
    /// The name of a code (`BTN_TOUCH`), or nil for one without a name.
    public typealias Naming = (EventType, EventCode) -> String?

    private let naming: Naming
    /// The millisecond of the last report, for the `+16ms` in its comment; nil before the first event.
    private var lastReport: Int64?

    /// A writer naming codes with `naming`; by default with the names this package knows, which
    /// cover touch devices (libevdev's, through TouchInput, name every code).
    public init(naming: @escaping Naming = { type, code in code.name(for: type) }) {
        self.naming = naming
    }

    /// The types evemu 2.7 writes a bitmask for, even when empty (those libevdev knows a maximum for).
    static let maskTypes: [EventType] = [
        .key, .relative, .absolute, .miscellaneous, .switch, .led, .sound, .autorepeat, .forceFeedback,
    ]

    /// Everything before the events, down to the "Waiting for events" banner, as evemu-record writes
    /// it. `comments` go after `# EVEMU 1.3`, as evemu's `# Kernel:` and `# DMI:` lines do.
    public func header(
        _ device: DeviceDescription, ledStates: [EventCode: Int32] = [:], switchStates: [EventCode: Int32] = [:],
        comments: [String] = []
    ) -> String {
        var out = ""
        func line(_ text: String) {
            out += text
            out += "\n"
        }
        line("# EVEMU \(EvemuFormatVersion.current)")
        for comment in comments { line(comment) }
        describe(device, ledStates: ledStates, switchStates: switchStates, line)
        line("N: \(device.name.replacing("\n", with: " "))")
        line("I: \(hex(device.bus, 4)) \(hex(device.vendor, 4)) \(hex(device.product, 4)) \(hex(device.version, 4))")
        writeProperties(device.properties, line)
        writeMasks(device, line)
        for axis in device.axisList {
            let a = device.axes[axis]!
            line("A: \(hex(axis.rawValue, 2)) \(a.minimum) \(a.maximum) \(a.fuzz) \(a.flat) \(a.resolution)")
        }
        // evemu writes only the LEDs that are on and the switches that are set.
        for (code, state) in ledStates.sorted(by: { $0.key < $1.key }) where state != 0 {
            line("L: \(hex(code.rawValue, 2)) \(state)")
        }
        for (code, state) in switchStates.sorted(by: { $0.key < $1.key }) where state != 0 {
            line("S: \(hex(code.rawValue, 2)) \(state)")
        }
        line("################################")
        line("#      Waiting for events      #")
        line("################################")
        return out
    }

    /// Appends the `E:` line of `event`, with evemu's comment, to `out`.
    public mutating func append(_ event: InputEvent, to out: inout String) {
        out += "E: \(timestamp(event.time)) \(hex(event.type.rawValue, 4)) \(hex(event.code.rawValue, 4)) "
        out += padded(event.value, 4, zeros: true)
        out += "\t# "
        if let sync = event.synchronization, sync == .multitouchReport {
            out += "++++++++++++ SYN_MT_REPORT (\(event.value)) ++++++++++"
        } else if event.type == .synchronization {
            let now = event.time.microseconds / 1000
            let milliseconds = now - (lastReport ?? now)
            lastReport = now
            let sign = milliseconds < 0 ? "-" : "+"
            out += "------------ \(name(event.code, of: event.type)) (\(event.value)) ---------- \(sign)\(abs(milliseconds))ms"
        } else {
            out += "\(event.type.name ?? "(null)") / \(name(event.code, of: event.type).padding(toLength: 20)) \(event.value)"
        }
        out += "\n"
        if lastReport == nil { lastReport = event.time.microseconds / 1000 }
    }

    private func name(_ code: EventCode, of type: EventType) -> String {
        naming(type, code) ?? "0x\(String(code.rawValue, radix: 16))"
    }

    // MARK: Header

    /// The evtest-like comment block evemu writes before the header, for the people who read traces.
    private func describe(
        _ device: DeviceDescription, ledStates: [EventCode: Int32], switchStates: [EventCode: Int32], _ line: (String) -> Void
    ) {
        line("# Input device name: \"\(device.name.replacing("\n", with: " "))\"")
        line("# Input device ID: bus \(alternateHex(device.bus)) vendor \(alternateHex(device.vendor))"
            + " product \(alternateHex(device.product)) version \(alternateHex(device.version))")
        if let x = device.axes[.x], let y = device.axes[.y] {
            // C's integer division, as evemu computes it.
            let width = x.resolution != 0 ? (Int64(x.maximum) - Int64(x.minimum)) / Int64(x.resolution) : 0
            let height = y.resolution != 0 ? (Int64(y.maximum) - Int64(y.minimum)) / Int64(y.resolution) : 0
            if width != 0 && height != 0 { line("# Size in mm: \(width)x\(height)") }
        }
        line("# Supported events:")
        for type in device.supportedTypes {
            line("#   Event type \(type.rawValue) (\(type.name ?? "(null)"))")
            for code in device.supportedCodes[type, default: []].sorted() {
                line("#     Event code \(code.rawValue) (\(naming(type, code) ?? "(null)"))")
                if type == .led || type == .switch {
                    line("#        State \((type == .led ? ledStates : switchStates)[code] ?? 0)")
                }
                if type == .absolute, let a = device.axes[AbsoluteAxis(rawValue: code.rawValue)] {
                    line("#       Value   \(padded(a.value, 6))")
                    line("#       Min     \(padded(a.minimum, 6))")
                    line("#       Max     \(padded(a.maximum, 6))")
                    line("#       Fuzz    \(padded(a.fuzz, 6))")
                    line("#       Flat    \(padded(a.flat, 6))")
                    line("#       Resolution \(padded(a.resolution, 3))")
                }
            }
        }
        line("# Properties:")
        for bit in device.properties.bits {
            line("#   Property  type \(bit) (\(InputProperties.name(ofBit: bit) ?? "(null)"))")
        }
    }

    private func writeProperties(_ properties: InputProperties, _ line: (String) -> Void) {
        // evemu writes the property bits as one line of 8 bytes; 32 bits fill the first four.
        var bytes = [UInt8](repeating: 0, count: 8)
        for bit in properties.bits { bytes[bit / 8] |= 1 << UInt8(bit % 8) }
        line("P: " + bytes.map { hex($0, 2) }.joined(separator: " "))
    }

    private func writeMasks(_ device: DeviceDescription, _ line: (String) -> Void) {
        // evemu writes EV_SYN's mask as SYN_REPORT, SYN_CONFIG and SYN_DROPPED whatever the device
        // says ("just because older versions printed out exactly that").
        line("B: 00 0b 00 00 00 00 00 00 00")
        var types = Self.maskTypes
        types += device.supportedTypes.filter { !types.contains($0) && $0 != .synchronization }
        for type in types {
            let codes = device.supportedCodes[type, default: []]
            // evemu sizes each mask by the type's maximum code; a code beyond it still gets its bit.
            let highest = max(Int(type.maximumCode ?? 0), Int(codes.max()?.rawValue ?? 0))
            let lineCount = (highest / 64) + 1
            var bytes = [UInt8](repeating: 0, count: lineCount * 8)
            for code in codes { bytes[Int(code.rawValue) / 8] |= 1 << UInt8(code.rawValue % 8) }
            for start in stride(from: 0, to: bytes.count, by: 8) {
                line("B: \(hex(type.rawValue, 2)) " + bytes[start..<start + 8].map { hex($0, 2) }.joined(separator: " "))
            }
        }
    }

    // MARK: Numbers

    /// `sec.usec` with six fraction digits, as evemu's `%lu.%06u`.
    private func timestamp(_ time: Instant) -> String {
        let magnitude = time.microseconds.magnitude
        let sign = time.microseconds < 0 ? "-" : ""
        let fraction = String(magnitude % 1_000_000)
        return "\(sign)\(magnitude / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }

    /// Lower-case hex, zero-padded to `width` digits (`%0Nx`).
    private func hex<Value: BinaryInteger>(_ value: Value, _ width: Int) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// `%#04x`: "0x" and at least two digits, but "0000" for zero.
    private func alternateHex(_ value: UInt16) -> String {
        value == 0 ? "0000" : "0x" + hex(value, 2)
    }

    /// `%Nd`, or `%0Nd` with `zeros`, where the width counts the sign.
    private func padded(_ value: Int32, _ width: Int, zeros: Bool = false) -> String {
        let digits = String(value.magnitude)
        let sign = value < 0 ? "-" : ""
        let fill = max(0, width - digits.count - sign.count)
        return zeros
            ? sign + String(repeating: "0", count: fill) + digits
            : String(repeating: " ", count: fill) + sign + digits
    }
}

extension String {
    /// This string with spaces added up to `length` characters (`%-Ns`).
    fileprivate func padding(toLength length: Int) -> String {
        count >= length ? self : self + String(repeating: " ", count: length - count)
    }
}
