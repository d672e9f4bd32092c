import Gestures

extension EvemuTrace {
    /// The trace as evemu-record writes it (`# EVEMU 1.3`), readable by evemu-device and evemu-play.
    ///
    /// Timestamps are written as they are, not made relative; a negative one gets a minus sign,
    /// which only `parse` reads back. `parse(trace.text, file:)` gives this trace back, but with
    /// `formatVersion` 1.3.
    public var text: String { EvemuWriter(trace: self).write() }
}

/// Writes one trace in evemu's text format.
struct EvemuWriter {
    let trace: EvemuTrace
    var out = ""

    init(trace: EvemuTrace) { self.trace = trace }

    /// The types evemu 2.7 writes a bitmask for, even when empty (those libevdev knows a maximum for).
    static let maskTypes: [EventType] = [
        .key, .relative, .absolute, .miscellaneous, .switch, .led, .sound, .autorepeat, .forceFeedback,
    ]

    consuming func write() -> String {
        let device = trace.device
        line("# EVEMU \(EvemuFormatVersion.current)")
        describe(device)
        line("N: \(device.name.replacing("\n", with: " "))")
        line("I: \(hex(device.bus, 4)) \(hex(device.vendor, 4)) \(hex(device.product, 4)) \(hex(device.version, 4))")
        writeProperties(device.properties)
        writeMasks(device)
        for axis in device.axisList {
            let a = device.axes[axis]!
            line("A: \(hex(axis.rawValue, 2)) \(a.minimum) \(a.maximum) \(a.fuzz) \(a.flat) \(a.resolution)")
        }
        for (code, state) in trace.ledStates.sorted(by: { $0.key < $1.key }) {
            line("L: \(hex(code.rawValue, 2)) \(state)")
        }
        for (code, state) in trace.switchStates.sorted(by: { $0.key < $1.key }) {
            line("S: \(hex(code.rawValue, 2)) \(state)")
        }
        line("################################")
        line("#      Waiting for events      #")
        line("################################")
        writeEvents(trace.events)
        return out
    }

    private mutating func line(_ text: String) {
        out += text
        out += "\n"
    }

    // MARK: Header

    /// The evtest-like comment block evemu writes before the header, for the people who read traces.
    private mutating func describe(_ device: DeviceDescription) {
        line("# Input device name: \"\(device.name.replacing("\n", with: " "))\"")
        line("# Input device ID: bus \(alternateHex(device.bus)) vendor \(alternateHex(device.vendor))"
            + " product \(alternateHex(device.product)) version \(alternateHex(device.version))")
        line("# Supported events:")
        for type in device.supportedTypes {
            line("#   Event type \(type.rawValue) (\(type.name ?? "(null)"))")
            for code in device.supportedCodes[type, default: []].sorted() {
                line("#     Event code \(code.rawValue) (\(code.name(for: type) ?? "(null)"))")
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

    private mutating func writeProperties(_ properties: InputProperties) {
        // evemu writes the property bits as one line of 8 bytes; 32 bits fill the first four.
        var bytes = [UInt8](repeating: 0, count: 8)
        for bit in properties.bits { bytes[bit / 8] |= 1 << UInt8(bit % 8) }
        line("P: " + bytes.map { hex($0, 2) }.joined(separator: " "))
    }

    private mutating func writeMasks(_ device: DeviceDescription) {
        var types = [EventType.synchronization] + Self.maskTypes
        types += device.supportedTypes.filter { !types.contains($0) }
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

    // MARK: Events

    private mutating func writeEvents(_ events: [InputEvent]) {
        var lastReport = events.first?.time.microseconds ?? 0
        for event in events {
            out += "E: \(timestamp(event.time)) \(hex(event.type.rawValue, 4)) \(hex(event.code.rawValue, 4)) "
            out += padded(event.value, 4, zeros: true)
            out += "\t# "
            if let sync = event.synchronization, sync == .multitouchReport {
                out += "++++++++++++ SYN_MT_REPORT (\(event.value)) ++++++++++"
            } else if let sync = event.synchronization {
                let milliseconds = event.time.microseconds / 1000 - lastReport / 1000
                lastReport = event.time.microseconds
                let sign = milliseconds < 0 ? "-" : "+"
                out += "------------ \(sync) (\(event.value)) ---------- \(sign)\(abs(milliseconds))ms"
            } else {
                let name = event.code.name(for: event.type) ?? "0x\(String(event.code.rawValue, radix: 16))"
                out += "\(event.type.name ?? "(null)") / \(name.padding(toLength: 20)) \(event.value)"
            }
            out += "\n"
        }
    }

    /// `sec.usec` with six fraction digits, as evemu's `%lu.%06u`.
    private func timestamp(_ time: Instant) -> String {
        let magnitude = time.microseconds.magnitude
        let sign = time.microseconds < 0 ? "-" : ""
        let fraction = String(magnitude % 1_000_000)
        return "\(sign)\(magnitude / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }

    // MARK: Numbers

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
