import Control
import Foundation
@testable import KioskConfig
import KioskCore
import KioskLog
@testable import MQTT
@testable import Runtime
import Testing
import TouchInput

/// Issue 21, part 2: a reload applies what it can, and each key it cannot take without a restart
/// is named in its log line. Every key of the config's key table (ConfigKeys.swift, and the
/// scene's sections whole) is in `ReloadedKey.table`, either as applied or as a restart key; a
/// key added to the key table and not here fails `everyKeyOfTheKeyTableIsInTheTable`, and each
/// row is checked on the real loop (`ReloadRig`: the control socket, hooks and MQTT installed as
/// `kiosk run` installs them): an applied key reaches the part that uses it, which then holds
/// what a kiosk started on the new file holds; a restart key is named in the reload's warning,
/// alone; and docs/running.md lists the restart keys. (Seen to fail: with `display.blank_after`
/// left out of `reloadScreen`, with `openInput()` out of `reload(at:)`, with `log.baud` dropped
/// from KioskConfig/RestartKeys.swift's runtime keys and with `state.file` dropped from its
/// state keys; a key added to `StateKey`.) One row at a time:
/// each rig holds an inotify instance, and a user has 128 for every process.
@Suite("A reload applies each key or names it", .serialized)
struct ReloadKeyTableTests {
    /// Every key the key table spells, as `section.key`; `[[view]]` and `[[gesture]]` (built into
    /// the scene whole, SceneKeys.swift) and `[mqtt]` itself as their sections' names. A switch
    /// without `default`: a new section does not compile until it is placed here.
    static var keysOfTheKeyTable: [String] {
        SectionKey.allCases.flatMap { section -> [String] in
            func keys(_ names: [String]) -> [String] { names.map { "\(section.name).\($0)" } }
            switch section {
            case .panel: return keys(PanelKey.names)
            case .scene: return keys(SceneKey.names)
            case .view, .gesture: return [section.name]
            case .display: return keys(DisplayKey.names)
            case .input: return keys(InputKey.names)
            case .log: return keys(LogKey.names)
            case .loop:
                return keys(LoopKey.names.filter { $0 != LoopKey.stages.name }) + LoopSettings.Stage.names.map { "loop.stages.\($0)" }
            case .control: return keys(ControlKey.names)
            case .hook: return keys(HookKey.names)
            case .hooks: return keys(HooksKey.names)
            case .mqtt: return [section.name] + keys(MQTTKey.names)
            case .state: return keys(StateKey.names)
            }
        }
    }

    @Test func everyKeyOfTheKeyTableIsInTheTable() {
        let rows = ReloadedKey.table.map(\.key)
        let missing = Self.keysOfTheKeyTable.filter { !rows.contains($0) }
        #expect(missing.isEmpty, "neither applied by a reload nor named as a restart key: \(missing); give each a row in ReloadedKey.table")
        #expect(Set(rows).count == rows.count, "one row per key")
        #expect(Set(rows).subtracting(Self.keysOfTheKeyTable).isEmpty, "rows for keys the key table does not have")
    }

    /// docs/running.md lists the restart keys for users: the table's, no more, no fewer.
    @Test func theUsersListOfRestartKeysIsTheTables() throws {
        let docs = URL(fileURLWithPath: KioskLoopTests.configPath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/running.md")
        let text = try String(contentsOf: docs, encoding: .utf8).replacingOccurrences(of: "\n", with: " ")
        let start = try #require(text.range(of: "the reload's warning names each such key:"))
        let end = try #require(text.range(of: "(`config reloaded;", range: start.upperBound..<text.endIndex))
        // `name` in backticks; after `[mqtt]`, the names are that section's.
        var listed: Set<String> = [], section = ""
        for (i, part) in text[start.upperBound..<end.lowerBound].components(separatedBy: "`").enumerated() where i % 2 == 1 {
            if part.hasPrefix("[") { section = part.dropFirst().dropLast() + "." } else { listed.insert(section + part) }
        }
        let restart = Set(ReloadedKey.table.filter { $0.outcome == .restart }.map(\.key))
        #expect(restart.subtracting(listed).isEmpty, "restart keys docs/running.md does not list: \(restart.subtracting(listed).sorted())")
        #expect(listed.subtracting(restart).isEmpty, "docs/running.md lists as restart keys: \(listed.subtracting(restart).sorted())")
    }

    @Test(arguments: ReloadedKey.table)
    func aReloadAppliesTheKeyOrNamesIt(_ row: ReloadedKey) throws {
        // What the part holds, with the rig's own folder as the config writes it.
        func observe(_ rig: ReloadRig) -> String {
            row.observe(rig).replacingOccurrences(of: rig.folder.path, with: "@FOLDER@")
        }
        let rig = try ReloadRig(config: ReloadRig.config)
        let before = observe(rig)
        let restart = try rig.reload(to: row.change(ReloadRig.config))
        switch row.outcome {
        case .restart:
            #expect(restart == [row.key], "\(row.key): the reload's warning names it, alone")
        case .applied:
            #expect(restart.isEmpty, "\(row.key) is applied by a reload, yet named as a restart key: \(restart)")
            let after = observe(rig)
            #expect(after != before, "\(row.key): the reload changed nothing in the part that uses it (still \(before))")
            let started = try ReloadRig(config: row.change(ReloadRig.config))
            #expect(after == observe(started), "\(row.key): after the reload the part holds what a start on the new file gives")
        }
    }
}

/// One key of the table: how the test changes it, and what a reload does with it.
struct ReloadedKey: Sendable, CustomTestStringConvertible {
    enum Outcome: Sendable { case applied, restart }

    /// `section.key`, as the restart warning names it.
    let key: String
    let outcome: Outcome
    /// The config text with this key changed.
    let change: @Sendable (String) -> String
    /// What the part that uses the key holds now (for a restart key: nothing is compared).
    let observe: @Sendable (ReloadRig) -> String

    var testDescription: String { key }

    /// `key = value` set in `[section]` (`key` is the part of `self.key` after the section).
    static func set(_ key: String, _ value: String, _ outcome: Outcome, observe: @escaping @Sendable (ReloadRig) -> String = { _ in "" }) -> ReloadedKey {
        let parts = key.split(separator: ".", maxSplits: 1).map(String.init)
        return ReloadedKey(key: key, outcome: outcome, change: { ReloadRig.setting(parts[0], parts[1], to: value, in: $0) }, observe: observe)
    }

    /// `old` replaced by `new` in the config text (the scene's sections).
    static func replace(_ key: String, _ old: String, _ new: String, observe: @escaping @Sendable (ReloadRig) -> String) -> ReloadedKey {
        ReloadedKey(key: key, outcome: .applied, change: { text in
            precondition(text.contains(old), "\(key): '\(old)' is not in the config")
            return text.replacingOccurrences(of: old, with: new)
        }, observe: observe)
    }

    static let table: [ReloadedKey] = sceneRows + displayRows + inputRows + logRows + loopRows + extensionRows + stateRows

    /// Built into a new scene whole: the scene as drawn, and the shadow buffer's size.
    static let sceneRows: [ReloadedKey] = {
        let scene: @Sendable (ReloadRig) -> String = { "\($0.loop.scene.definition) \($0.loop.shadow.width)x\($0.loop.shadow.height)" }
        return [
            replace("panel.width_px", "width_px = 800", "width_px = 640", observe: scene),
            replace("panel.height_px", "height_px = 480", "height_px = 400", observe: scene),
            replace("panel.width_mm", "width_mm = 154.2", "width_mm = 150", observe: scene),
            replace("panel.height_mm", "height_mm = 85.9", "height_mm = 90", observe: scene),
            replace("scene.drop_animation", "drop_animation = 0.3", "drop_animation = 0.5", observe: scene),
            replace("scene.lift_scale", "lift_scale = 1.2", "lift_scale = 1.4", observe: scene),
            replace("view", "color = \"#f5c518\"", "color = \"#ff0000\"", observe: scene),
            replace("gesture", "minimum_press_duration = 0.5", "minimum_press_duration = 0.8", observe: scene),
        ]
    }()

    static let displayRows: [ReloadedKey] = [
        set("display.card", "\"/dev/dri/card1\"", .restart),
        set("display.connector", "\"HDMI-A-1\"", .restart),
        set("display.mode", "\"1024x600\"", .restart),
        set("display.pixel_format", "\"rgb565\"", .restart),
        set("display.rotation", "180", .restart),
        set("display.blank_after", "7", .applied) { "\($0.loop.blanking.blankAfter)" },
        set("display.font", "\"/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf\"", .applied) { $0.loop.pipeline.renderer?.font.path ?? "none" },
        set("display.backlight", "\"bl-b\"", .applied) { $0.loop.screen.backlight?.name ?? "none" },
        set("display.screenshot_directory", "\"@FOLDER@/shots-b\"", .applied) { rig in
            rig.loop.writeScreenshot()
            // Written by a child: the loop's wake-ups until it is gone.
            rig.loop.runOnce(seconds: 20, waitingUpTo: 1000) { !rig.loop.extensions.fileScreenshots.inFlight }
            return rig.loop.screenshotsWritten.last.map { URL(fileURLWithPath: $0).deletingLastPathComponent().lastPathComponent } ?? "none"
        },
    ]

    /// Each reaches the touchscreen's watcher, made anew by the reload.
    static let inputRows: [ReloadedKey] = {
        let watcher: @Sendable (ReloadRig) -> String = { rig in
            guard let w = rig.loop.liveInput?.watcher else { return "no watcher" }
            return "\(w.directory) \(w.wanted ?? "any") grab \(w.grabs) \(w.calibration) pointercal \(w.calibrate != nil) \(w.filters)"
        }
        return [
            set("input.device", "\"@SHARED@/input/event7\"", .applied, observe: watcher),
            set("input.directory", "\"@SHARED@/input-b\"", .applied, observe: watcher),
            set("input.grab", "false", .applied, observe: watcher),
            set("input.calibration", "[1.1, 0, -0.05, 0, 1, 0]", .applied, observe: watcher),
            set("input.pointercal", "\"@SHARED@/pointercal\"", .applied, observe: watcher),
            set("input.rotation", "90", .applied, observe: watcher),
            set("input.flip_x", "true", .applied, observe: watcher),
            set("input.flip_y", "true", .applied, observe: watcher),
            set("input.jitter", "3", .applied, observe: watcher),
            set("input.minimum_pressure", "20", .applied, observe: watcher),
            set("input.minimum_touch_duration", "0.05", .applied, observe: watcher),
            set("input.maximum_touch_size", "12", .applied, observe: watcher),
            set("input.ignore", "[[0, 0, 800, 8]]", .applied, observe: watcher),
        ]
    }()

    static let logRows: [ReloadedKey] = [
        set("log.serial", "\"/dev/ttyS9\"", .restart),
        set("log.baud", "9600", .restart),
        set("log.stderr", "false", .restart),
        set("log.buffer_lines", "100", .restart),
        set("log.repeat_interval", "5", .restart),
        set("log.level", "\"warning\"", .applied) { "\($0.level)" },
        set("log.stats_interval", "30", .applied) { rig in rig.loop.nextStats.map { "\($0.seconds - rig.clock.now.seconds)" } ?? "none" },
    ]

    /// The stage budgets; a share moved from or to `render` (`present` for render's own), as the
    /// shares must sum to 1.
    static let loopRows: [ReloadedKey] = {
        let budgets: @Sendable (ReloadRig) -> String = { "\($0.loop.meter.stats.budgets)" }
        let stages = LoopSettings.Stage.allCases.map { stage in
            let other: LoopSettings.Stage = stage == .render ? .present : .render
            return ReloadedKey(key: "loop.stages.\(stage.rawValue)", outcome: .applied, change: { text in
                var shares = LoopSettings.defaultShares
                shares[stage, default: 0] += 0.05
                shares[other, default: 0] -= 0.05
                return ReloadRig.setting("loop.stages", nil, to: LoopSettings.Stage.allCases.map { "\($0.rawValue) = \(shares[$0] ?? 0)" }
                    .joined(separator: "\n"), in: text)
            }, observe: budgets)
        }
        return [set("loop.frame_budget", "20", .applied, observe: budgets)] + stages
    }()

    static let extensionRows: [ReloadedKey] = {
        let socket: @Sendable (ReloadRig) -> String = { "\($0.socket.settings)" }
        let hooks: @Sendable (ReloadRig) -> String = { "\($0.hooks.settings)" }
        let mqtt: @Sendable (ReloadRig) -> String = { "\($0.mqtt.settings)" }
        return [
            set("control.socket", "\"@FOLDER@/other.sock\"", .restart),
            set("control.max_clients", "3", .applied, observe: socket),
            set("control.client_queue", "100", .applied, observe: socket),
            set("hooks.max_running", "2", .applied, observe: hooks),
            set("hooks.queue", "10", .applied, observe: hooks),
            set("hooks.kill_grace", "1", .applied, observe: hooks),
            set("hook.view", "\"slider\"", .applied, observe: hooks),
            set("hook.event", "\"touchUpInside\"", .applied, observe: hooks),
            set("hook.run", "[\"/bin/false\"]", .applied, observe: hooks),
            set("hook.timeout", "5", .applied, observe: hooks),
            ReloadedKey(key: "mqtt", outcome: .restart, change: { ReloadRig.setting("mqtt", nil, to: nil, in: $0) }, observe: { _ in "" }),
            set("mqtt.broker", "\"mqtts://127.0.0.1:2\"", .restart),
            set("mqtt.ca_file", "\"@SHARED@/ca-b.pem\"", .restart),
            set("mqtt.client_id", "\"kiosk-b\"", .restart),
            set("mqtt.username", "\"user-b\"", .restart),
            set("mqtt.password_file", "\"@SHARED@/password-b\"", .restart),
            set("mqtt.topic_prefix", "\"kiosk/b\"", .restart),
            set("mqtt.discovery_prefix", "\"ha-b\"", .restart),
            set("mqtt.node", "\"node-b\"", .restart),
            set("mqtt.discovery", "\"entity\"", .applied, observe: mqtt),
            set("mqtt.state_interval", "0.5", .applied, observe: mqtt),
        ]
    }()

    static let stateRows: [ReloadedKey] = [
        set("state.enabled", "false", .restart),
        set("state.directory", "\"@FOLDER@/state-b\"", .restart),
        set("state.file", "\"other.json\"", .restart),
        set("state.write_interval", "5", .applied) { "\($0.loop.stateStore?.interval ?? -1)" },
    ]
}
