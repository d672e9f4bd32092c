import Foundation
import KioskCore

extension LogSettings {
    /// The `[log]` settings of a config file that does not load, so why it does not can still be
    /// logged where the integrator reads the log; nil when the file does not read, is not TOML, or
    /// its `[log] serial` is missing or wrong.
    ///
    /// The whole `[log]` section when it reads; else its `serial` (and `baud`, when that reads)
    /// over the defaults.
    public static func salvaged(fromFile path: String) -> LogSettings? {
        guard let text = try? TextFile.readText(path, what: "the config file", limit: KioskConfiguration.maximumFileSize),
              case .success(let root) = ConfigParsing.parse(text) else { return nil }
        let top = TableReader(root, path: "", label: "the file", file: path, locator: KeyLocator(text))
        guard let section = try? top.subtable("log"), section.has("serial") else { return nil }
        if let whole = try? RuntimeSection().log(section) { return whole }
        guard let serial = try? section.string("serial"), serial == RuntimeSection.noSerial || serial.hasPrefix("/") else { return nil }
        var settings = LogSettings()
        settings.serial = serial == RuntimeSection.noSerial ? nil : serial
        if let baud = try? section.int("baud", oneOf: RuntimeSection.baudRates) { settings.baud = baud }
        return settings
    }
}
