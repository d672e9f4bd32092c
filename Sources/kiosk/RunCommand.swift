import ArgumentParser
import Control
import Foundation
import KioskConfig
import KioskLog
import KioskVersion
import MQTT
import MQTTProtocol
import Runtime

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the kiosk: touches from the touchscreen, the scene drawn to the display, the log on the serial console.",
        discussion: """
            Reads the config file, takes the display (DRM master) and the touchscreen (grabbed), \
            and runs until SIGTERM or SIGINT, which put the display back. SIGHUP reloads the \
            config (a bad file is logged and the kiosk keeps its last good one); SIGUSR1 writes \
            a PNG screenshot to [display] screenshot_directory.
            Exit status: 0 after SIGTERM/SIGINT, 1 when the display cannot be driven, 2 when the \
            config (or its font) is wrong.
            """
    )

    @Option(help: "The kiosk config file (TOML); default: /etc/kiosk/kiosk.conf when it exists, else a checkout's config/kiosk.toml.")
    var config: String?

    @Option(help: "Overrides [log] level: trace, debug, info, notice, warning, error, critical. debug adds the gesture decision trace.")
    var logLevel: String?

    @Option(help: ArgumentHelp("Testing the frame budget: sleep MS milliseconds in STAGE every time it runs (STAGE:MS).", visibility: .hidden))
    var injectStall: String?

    func run() throws {
        var level: Logger.Level?
        if let logLevel {
            guard let l = Logger.Level(rawValue: logLevel) else {
                throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical; found '\(logLevel)'")
            }
            level = l
        }
        var stall: (stage: LoopSettings.Stage, milliseconds: Double)?
        if let injectStall {
            let parts = injectStall.split(separator: ":")
            guard parts.count == 2, let stage = LoopSettings.Stage(rawValue: String(parts[0])), let ms = Double(parts[1]), ms >= 0 else {
                throw ValidationError("--inject-stall: expected STAGE:MS such as render:40, found '\(injectStall)'")
            }
            stall = (stage, ms)
        }
        // The log is set up from the file before anything else, so even a bad display or a bad
        // file is logged on the serial console (see LogSetup.settings).
        let chosen = ConfigPath.resolve(config)
        chosen.announce("run")
        let config = chosen.path
        let logging = LogSetup.start(configPath: config, override: level)
        let environment = ProcessInfo.processInfo.environment
        // KIOSK_BACKLIGHT_CLASS: a folder standing in for /sys/class/backlight (tests, a bench).
        let options = KioskLoop.Options(configPath: config, logLevel: level, injectedStall: stall, environment: environment,
                                        backlightClass: environment["KIOSK_BACKLIGHT_CLASS"] ?? "/sys/class/backlight")
        let loop: KioskLoop
        do {
            loop = try KioskLoop(options: options, logger: logging.logger, logPump: logging.pump)
        } catch {
            logging.logger.critical("kiosk cannot start: \(error)", metadata: ["kiosk.version": "\(KioskVersion.current)"])
            logging.pump.drain(seconds: Self.exitDrainSeconds)
            throw ExitCode(error.isConfig ? 2 : 1)
        }
        loop.onLogLevel = { logging.setLevel($0) }
        ControlSocket.install(on: loop, logger: logging.logger)
        HookRunner.install(on: loop, logger: logging.logger)
        if let mqtt = loop.configuration.mqtt {
            // With the state file off ([state] enabled = false), what was announced is forgotten at exit.
            let memory: any AnnouncementMemory = loop.stateStore.map { StoredAnnouncements($0, clock: loop.clock) } ?? AnnouncementsInMemory()
            MQTTExtension.install(mqtt, in: loop, memory: memory, logger: logging.logger)
        }
        do {
            _ = try loop.run()
        } catch {
            logging.logger.critical("kiosk cannot run: \(error)")
            logging.pump.drain(seconds: Self.exitDrainSeconds)
            throw ExitCode(1)
        }
        // The display is back already; the last lines (the stopping line) still have to reach
        // the wire, which the loop only flushed without waiting.
        logging.pump.drain(seconds: Self.exitDrainSeconds)
    }

    /// How long kiosk waits at exit for the log's outputs to take their last lines: at 115200
    /// baud, about 150 lines; a wire that takes nothing delays the exit this long.
    static let exitDrainSeconds = 2.0
}
