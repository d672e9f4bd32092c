import Foundation
import KioskConfig
import KioskLog
import Runtime

/// The log for `kiosk run`: the serial console and stderr, set up from the config's `[log]`
/// before anything else, so even a display that cannot be driven is logged on the serial line.
struct LogSetup {
    var logger: Logger
    var pump: LogOutputs

    static func start(configPath: String, override: Logger.Level?) -> LogSetup {
        let outputs = LogOutputs(settings(configPath: configPath), override: override)
        return LogSetup(logger: outputs.bootstrap(), pump: outputs)
    }

    /// The file's `[log]`. A file that does not load is reported where the integrator reads the
    /// log, often only through the cable: the serial device its `[log]` names when that part
    /// reads, else the default device when the machine has one (a kiosk's serial console), else
    /// stderr only.
    static func settings(configPath: String) -> LogSettings {
        if let configuration = try? KioskConfiguration.load(path: configPath) { return configuration.runtime.log }
        var settings = LogSettings.salvaged(fromFile: configPath) ?? LogSettings()
        if let serial = settings.serial, serial == LogSettings().serial, !FileManager.default.fileExists(atPath: serial) {
            settings.serial = nil
        }
        return settings
    }

    func setLevel(_ level: Logger.Level) { pump.level.level = level }
}
