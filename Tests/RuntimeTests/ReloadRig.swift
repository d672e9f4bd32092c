import Control
import Display
import Foundation
import KioskConfig
import KioskCore
import KioskLog
import KioskTestSupport
import MQTT
@testable import Runtime
import Testing

/// A live loop on a `VirtualClock` (headless) with every part a config can reach: the control
/// socket, hooks and MQTT installed as `kiosk run` installs them (MQTT never connects: the loop is
/// never served), a state file and screenshot folders of its own (`@FOLDER@` in the config), and
/// input folders, backlights and files that every rig reads (`@SHARED@`). ReloadKeyTableTests
/// reloads it and looks at each part.
final class ReloadRig {
    let folder: URL
    let clock = VirtualClock(Instant(seconds: 1000))
    let handler = InMemoryLogHandler()
    let loop: KioskLoop
    let socket: ControlSocket
    let hooks: HookRunner
    let mqtt: MQTTExtension
    /// The level the executable's log handler has: the config's at the start, then each reload's (`onLogLevel`).
    var level: Logger.Level

    var configPath: String { folder.appendingPathComponent("kiosk.conf").path }

    /// The files and folders every rig only reads (`@SHARED@` in the config), made once: the input
    /// folders, two backlights, the MQTT files and a pointercal file (the same for every run,
    /// written whole: runs at once read them as they are written).
    static let shared: URL = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-reload-shared")
        for sub in ["input", "input-b", "backlight/bl-a", "backlight/bl-b"] {
            try? FileManager.default.createDirectory(at: folder.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        for light in ["bl-a", "bl-b"] {
            for (file, value) in [("max_brightness", "255"), ("brightness", "200"), ("bl_power", "0")] {
                try? "\(value)\n".write(to: folder.appendingPathComponent("backlight/\(light)/\(file)"), atomically: true, encoding: .utf8)
            }
        }
        for file in ["ca-a.pem", "ca-b.pem", "password-a", "password-b", "pointercal"] {
            try? "x\n".write(to: folder.appendingPathComponent(file), atomically: true, encoding: .utf8)
        }
        return folder
    }()

    init(config: String) throws {
        folder = try KioskExecutable.temporaryFolder("reload")
        for sub in ["shots-a", "shots-b", "state"] {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        try Self.write(config, in: folder)
        let handler = handler, clock = clock
        var logger = Logger(label: "test", factory: { _ in handler })
        logger.logLevel = .debug
        loop = try KioskLoop(options: .init(configPath: folder.appendingPathComponent("kiosk.conf").path,
                                            backlightClass: Self.shared.appendingPathComponent("backlight").path),
                             logger: logger, logPump: nil,
                             output: { _ throws(DisplayError) in
                                 do throws(DrawingResourceError) { return try HeadlessDisplay(width: 800, height: 480, format: .xrgb8888, clock: clock) }
                                 catch { throw DisplayError(.headless(error)) }
                             }, clock: clock)
        level = Logger.Level(loop.configuration.runtime.log.level)
        ControlSocket.install(on: loop, logger: logger)
        HookRunner.install(on: loop, logger: logger)
        mqtt = try MQTTExtension(settings: try #require(loop.configuration.mqtt), logger: logger, now: clock.now)
        loop.install(mqtt)
        socket = try #require(loop.extensions.installed.lazy.compactMap { $0 as? ControlSocket }.first, "\(handler.entries)")
        hooks = try #require(loop.extensions.installed.lazy.compactMap { $0 as? HookRunner }.first)
        // As run() starts: the first stats line an interval from now.
        let interval = loop.configuration.runtime.log.statsInterval
        if interval > 0 { loop.nextStats = clock.now.adding(seconds: interval) }
        loop.onLogLevel = { [unowned self] in level = $0 }
    }

    deinit {
        for e in loop.extensions.installed { e.stop(now: clock.now) }
        try? FileManager.default.removeItem(at: folder)
    }

    static func write(_ config: String, in folder: URL) throws {
        try config.replacingOccurrences(of: "@FOLDER@", with: folder.path).replacingOccurrences(of: "@SHARED@", with: shared.path)
            .write(to: folder.appendingPathComponent("kiosk.conf"), atomically: true, encoding: .utf8)
    }

    /// Writes `config` and reloads (as SIGHUP does, at once: no finger is down); the keys its
    /// warning names as waiting for a restart. A reload that failed is an error.
    func reload(to config: String) throws -> [String] {
        try Self.write(config, in: folder)
        let before = handler.entries.count
        clock.now = clock.now.adding(seconds: 1)
        loop.reload(at: clock.now)
        let lines = handler.entries.dropFirst(before).map { $0.message.description }
        try #require(!lines.contains { $0.contains("config reload failed") }, "\(lines)")
        try #require(loop.generation == 2, "\(lines)")
        guard let warning = lines.first(where: { $0.contains("until the next start: ") }),
              let names = warning.components(separatedBy: "until the next start: ").last else { return [] }
        return names.components(separatedBy: ", ")
    }

    /// The config every row starts from: the default scene, and every runtime section with its
    /// keys set (where a key's default cannot show a change) to files and folders of the rig's.
    static let config: String = {
        let scene = (try? String(contentsOfFile: KioskLoopTests.configPath, encoding: .utf8))?.components(separatedBy: "\n[display]").first ?? ""
        let shares = LoopSettings.Stage.allCases.map { "\($0.rawValue) = \(LoopSettings.defaultShares[$0] ?? 0)" }.joined(separator: "\n")
        return scene + """

            [display]
            card = "headless"
            backlight = "bl-a"
            screenshot_directory = "@FOLDER@/shots-a"

            [input]
            directory = "@SHARED@/input"

            [log]
            serial = "none"
            level = "info"
            stats_interval = 60

            [loop]
            frame_budget = 16

            [loop.stages]
            \(shares)

            [control]
            socket = "@FOLDER@/control.sock"

            [hooks]
            max_running = 4

            [[hook]]
            view = "button"
            event = "touchDown"
            run = ["/bin/true"]
            timeout = 10

            [mqtt]
            broker = "mqtts://127.0.0.1:1"
            ca_file = "@SHARED@/ca-a.pem"
            client_id = "kiosk-a"
            username = "user-a"
            password_file = "@SHARED@/password-a"
            topic_prefix = "kiosk/a"
            discovery_prefix = "ha-a"
            node = "node-a"

            [state]
            directory = "@FOLDER@/state"
            write_interval = 2

            """
    }()

    /// `text` with `key = value` set in the table headed `[section]` (or `[[section]]`): replaced,
    /// or added under the header. A nil `key`: the table's whole body becomes `value`; a nil
    /// `value` too: the table is gone.
    static func setting(_ section: String, _ key: String?, to value: String?, in text: String) -> String {
        var lines = text.components(separatedBy: "\n")
        guard let header = lines.firstIndex(where: { $0 == "[\(section)]" || $0 == "[[\(section)]]" }) else {
            preconditionFailure("no [\(section)] in the config")
        }
        let end = lines[(header + 1)...].firstIndex { $0.hasPrefix("[") } ?? lines.endIndex
        guard let key else {
            lines.replaceSubrange(header..<end, with: value.map { [lines[header], $0, ""] } ?? [])
            return lines.joined(separator: "\n")
        }
        let line = value.map { "\(key) = \($0)" }
        if let at = lines[(header + 1)..<end].firstIndex(where: { $0.hasPrefix("\(key) = ") }) {
            lines.replaceSubrange(at...at, with: line.map { [$0] } ?? [])
        } else if let line {
            lines.insert(line, at: header + 1)
        }
        return lines.joined(separator: "\n")
    }
}
