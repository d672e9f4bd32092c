import KioskCore

/// What the machine says of itself, read from the kernel's files: the board's model and the CPU's
/// temperature. `root` is `/` on a kiosk; tests lay the files out in a folder of their own.
public struct HostFacts: Sendable {
    public let root: String

    public init(root: String = "/") {
        self.root = root.hasSuffix("/") ? String(root.dropLast()) : root
    }

    /// The board, as the device tree names it ("Raspberry Pi 4 Model B Rev 1.5"); nil on a machine
    /// without a device tree (a PC, a VM) or with an unreadable one.
    public func model() -> String? {
        guard let bytes = try? TextFile.read(root + "/proc/device-tree/model", what: "the board's model", limit: 256) else { return nil }
        // The device tree's strings end in NUL; a model is printable text.
        let text = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        let printable = text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }
        let model = String(String.UnicodeScalarView(printable)).trimmingCharacters(" ")
        return model.isEmpty ? nil : model
    }

    /// The first thermal zone's temperature in °C (the SoC's on a Pi), or nil where there is none.
    public func cpuTemperature() -> Double? {
        guard let text = try? TextFile.readText(root + "/sys/class/thermal/thermal_zone0/temp", what: "the CPU temperature", limit: 64),
              let millidegrees = Int(text.trimmingCharacters("\n").trimmingCharacters(" "))
        else { return nil }
        return Double(millidegrees) / 1000
    }
}

extension String {
    fileprivate func trimmingCharacters(_ character: Character) -> String {
        var text = Substring(self)
        while text.first == character { text = text.dropFirst() }
        while text.last == character { text = text.dropLast() }
        return String(text)
    }
}
