import KioskConfig
import Logging
import Runtime

/// The log for `kiosk run`: the serial console and stderr, set up from the config's `[log]`
/// before anything else, so even a display that cannot be driven is logged on the serial line.
struct LogSetup {
    var logger: Logger
    var pump: LogOutputs

    static func start(configPath: String, override: Logger.Level?) -> LogSetup {
        // A file that does not read is reported by the loop itself, through this log on stderr
        // only: its serial port may drive something else.
        var settings = LogSettings()
        settings.serial = nil
        if let configuration = try? KioskConfiguration.load(path: configPath) { settings = configuration.runtime.log }
        let outputs = LogOutputs(settings, override: override)
        return LogSetup(logger: outputs.bootstrap(), pump: outputs)
    }

    func setLevel(_ level: Logger.Level) { pump.level.level = level }
}
