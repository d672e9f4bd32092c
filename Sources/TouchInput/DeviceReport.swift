import InputEvents

extension DeviceDiscovery {
    /// What `kiosk devices` prints: every device with its axes, ranges, slots and properties, the
    /// one kiosk would use marked, and why each of the others was skipped.
    /// Ends with what kiosk would do when it takes nothing: why the wanted device cannot be used,
    /// or that no touchscreen is there.
    public func report(using wanted: String? = nil) -> String {
        let chosen: Entry?
        let refusal: InputDeviceError?
        do throws(InputDeviceError) {
            chosen = try choose(wanted)
            refusal = nil
        } catch {
            chosen = nil
            refusal = error
        }
        var out = ""
        for e in entries {
            let name = e.description.map { "\"\($0.name)\"" } ?? ""
            let mark: String
            switch e.verdict {
            case .success(let kind): mark = e.path == chosen?.path ? "USED: \(kind)" : "also a touchscreen: \(kind)"
            case .failure(let why): mark = "skipped: \(why.reason)"
            }
            out += "\(e.path)  \(name)\n    \(mark)\n"
            guard let d = e.description else { continue }
            out += "    id: bus \(hex(d.bus)) vendor \(hex(d.vendor)) product \(hex(d.product)) version \(hex(d.version))\n"
            var props: [String] = []
            for bit in 0..<32 where d.properties.contains(InputProperties(bit: bit)) {
                props.append(InputProperties.name(ofBit: bit) ?? "INPUT_PROP_\(bit)")
            }
            if !props.isEmpty { out += "    properties: \(props.joined(separator: ", "))\n" }
            for axis in d.axisList {
                let a = d.axes[axis]!
                var line = "    \(axis.name) \(a.minimum)..\(a.maximum)"
                if a.resolution > 0 { line += ", \(a.resolution) units/mm" }
                if a.fuzz > 0 { line += ", fuzz \(a.fuzz)" }
                if axis == .multitouchSlot { line += " (\(Int(a.maximum) + 1) slots)" }
                out += line + "\n"
            }
            // Only the touch-related keys have names here; the rest are counted, not guessed.
            let keys = d.supportedCodes[.key] ?? []
            let named = keys.sorted().compactMap { $0.name(for: .key) }
            if !keys.isEmpty {
                let others = keys.count - named.count
                out += "    keys: " + (named + (others > 0 ? ["\(others) other\(others == 1 ? "" : "s")"] : [])).joined(separator: ", ") + "\n"
            }
        }
        if entries.isEmpty { out += "no input devices in \(directory)\n" }
        if let refusal {
            switch (wanted, refusal) {
            case (nil, .noTouchscreen):
                out += "kiosk would use no device: no touchscreen in \(directory); kiosk run waits for one to be plugged in\n"
            case (let wanted?, _):
                // The choice's own error, less the skipped list already printed above.
                let why = if case .noTouchscreen = refusal { "no device is named \"\(wanted)\"" } else { refusal.description }
                out += "kiosk would use no device: \"\(wanted)\" cannot be used: \(why)\n"
            default:
                out += "kiosk would use no device: \(refusal)\n"
            }
        }
        return out
    }

    private func hex(_ v: UInt16) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: max(0, 4 - s.count)) + s
    }
}
