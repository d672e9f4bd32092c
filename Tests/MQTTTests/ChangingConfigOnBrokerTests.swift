import Foundation
import KioskConfig
import KioskCore
import KioskTestSupport
@testable import MQTT
import MQTTProtocol
import Testing

/// `kiosk run` (headless) on a real Mosquitto while its config changes: by SIGHUP, and across
/// restarts. After each change the retained messages on the broker (read by `mosquitto_sub
/// --retained-only`, as Home Assistant starting would get them) are exactly what the config
/// announces, and a set from MQTT on each control is applied on the glass (`kiosk control
/// state`) and comes back on its state topic.
@Suite(.enabled(if: Broker.available, "needs mosquitto and mosquitto-clients"), .serialized)
struct ChangingConfigOnBrokerTests {
    static let prefix = KioskOnBrokerTests.prefix

    /// A control as the test places it: name and the config's kind.
    struct View: Equatable {
        var name: String
        var kind: String
        /// Home Assistant's components for it.
        var components: [String] {
            switch kind {
            case "switch": ["switch"]
            case "slider": ["number"]
            case "button": ["event", "button", "text"]
            default: []
            }
        }
    }

    static let defaultControls = [View(name: "button", kind: "button"), View(name: "slider", kind: "slider"), View(name: "switch", kind: "switch")]

    /// The kiosk, its config file rewritten by the test, its state folder kept across restarts.
    final class Kiosk {
        let folder: URL
        let broker: Broker
        var process: LineProcess?
        var configPath: String { folder.appendingPathComponent("kiosk.conf").path }
        var socket: String { folder.appendingPathComponent("control.sock").path }
        var state: URL { folder.appendingPathComponent("state") }

        init(broker: Broker) throws {
            folder = try KioskExecutable.temporaryFolder("mqtt-changes")
            self.broker = broker
            try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        }

        deinit {
            process?.stop(SIGKILL)
            try? FileManager.default.removeItem(at: folder)
        }

        /// The default scene with `before` views placed ahead of its controls and `after` views
        /// behind them; `mqtt` lines added to `[mqtt]`.
        func write(before: [View] = [], after: [View] = [], mqtt: String = "", prefix: String = ChangingConfigOnBrokerTests.prefix) throws {
            var scene = try KioskOnBrokerTests.Kiosk.config(folder: folder, mqtt: nil)
            func block(_ v: View, x: Int) -> String {
                "[[view]]\nname = \"\(v.name)\"\nkind = \"\(v.kind)\"\nparent = \"canvas\"\nframe = [\(x), 20, 110, 56]\n\n"
            }
            let controls = "# Controls are 56 px"
            let gestures = "# ---------------------------------------------------------------------------------------------\n# Gestures."
            scene = scene.replacingOccurrences(of: controls, with: before.enumerated().map { block($1, x: 20 + 120 * $0) }.joined() + controls)
            scene = scene.replacingOccurrences(of: gestures, with: after.enumerated().map { block($1, x: 400 + 120 * $0) }.joined() + gestures)
            scene += "\n[control]\nsocket = \"\(socket)\"\n\n[mqtt]\nbroker = \"mqtt://127.0.0.1:\(broker.port)\"\nclient_id = \"kiosk-test\"\n"
                + "topic_prefix = \"\(prefix)\"\n" + mqtt
            try scene.write(toFile: configPath, atomically: true, encoding: .utf8)
        }

        /// `kiosk run` with the unit's state folder (`$STATE_DIRECTORY`); waits for the connection.
        func start() throws {
            let p = try LineProcess(KioskExecutable.url.path, ["run", "--config", configPath], directory: folder,
                                    environment: ["STATE_DIRECTORY": state.path])
            process = p
            #expect(p.waitFor(containing: "mqtt: connected"), "\(p.text)")
        }

        /// SIGHUP, and the reload's line.
        func reload(number: Int) {
            guard let p = process else { return }
            p.signal(SIGHUP)
            #expect(p.waitFor(containing: "config reloaded", count: number), "\(p.text)")
        }

        func stop() { process?.stop(SIGTERM) }

        /// The views' states on the glass, by name (`kiosk control state`).
        func glass() throws -> [String: [String: Any]] {
            let r = try KioskExecutable.run(["control", "state", "--socket", socket])
            let state = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
            let views = state?["views"] as? [[String: Any]] ?? []
            return Dictionary(views.map { ($0["name"] as? String ?? "", $0) }, uniquingKeysWith: { a, _ in a })
        }
    }

    /// The retained topics `controls` are announced on: availability, their states (a button's
    /// label too), and with discovery their configs: the device's one (`discovery = "device"`) or
    /// one per entity (`"entity"`); the kiosk's own entities' (`ownEntities`) as well.
    static func announced(_ controls: [View], discovery: String? = "device", prefix: String = prefix) -> Set<String> {
        var topics: Set<String> = ["\(prefix)/availability"]
        for c in controls {
            topics.insert("\(prefix)/\(c.name)/state")
            if c.kind == "button" { topics.insert("\(prefix)/\(c.name)/label") }
            if discovery == "entity" { for k in c.components { topics.insert("homeassistant/\(k)/kiosk-test/\(c.name)/config") } }
        }
        let own = ownEntities(prefix: prefix)
        for e in own {
            // The screenshot's image is on the broker only once one was taken, the last touch once a
            // finger came down: neither is here.
            topics.formUnion(e.retainedTopics.filter { !$0.hasSuffix("/screenshot/image") && !$0.hasSuffix("/last_touch/state") })
            if discovery == "entity" { topics.insert("homeassistant/\(e.component)/kiosk-test/\(e.level)/config") }
        }
        if discovery == "device", !controls.isEmpty || !own.isEmpty { topics.insert(deviceConfig) }
        return topics
    }

    /// The kiosk's own entities (`DeviceEntity`: the diagnostics and the others), as `kiosk run`
    /// on the default scene announces them under `prefix`, whatever the views.
    static func ownEntities(prefix: String = prefix) -> [DeviceEntity] {
        guard let text = try? KioskOnBrokerTests.Kiosk.config(folder: FileManager.default.temporaryDirectory, mqtt: "broker = \"mqtt://127.0.0.1\"\n"),
              let configuration = try? KioskConfiguration.parse(text, file: "kiosk.conf") else { return [] }
        return MQTTExtension.deviceEntities(topics: KioskTopics(prefix: prefix, discoveryPrefix: "homeassistant", clientID: "kiosk-test"),
                                            configuration: configuration)
    }

    static let deviceConfig = "homeassistant/device/kiosk-test/config"

    /// Waits until the broker's retained set is `expected` (empty payloads are no retained
    /// message: the broker deletes them), and the device config (when retained) holds exactly
    /// `controls`' components.
    static func expectRetained(_ expected: Set<String>, controls: [View] = [], on broker: Broker, _ step: String) throws {
        let components = Set(controls.flatMap { c in c.components.map { "\(c.name)_\($0)" } } + ownEntities().map { "\($0.level)_\($0.component)" })
        var seen: [String: String] = [:]
        func inDevice() -> Set<String>? {
            guard let payload = seen[deviceConfig],
                  let j = try? JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any] else { return nil }
            // A component that is its platform alone is one Home Assistant is told to remove.
            return Set((j["cmps"] as? [String: [String: Any]] ?? [:]).filter { $0.value.count > 1 }.keys)
        }
        for _ in 0..<10 {
            seen = try broker.retained(["homeassistant/#", "kiosk/#"])
            if Set(seen.keys) == expected, seen[deviceConfig] == nil || inDevice() == components { break }
        }
        #expect(Set(seen.keys) == expected, "\(step): left over \(Set(seen.keys).subtracting(expected).sorted()), missing \(expected.subtracting(seen.keys).sorted())")
        if seen[deviceConfig] != nil { #expect(inDevice() == components, "\(step): the device config's components") }
        #expect(seen["\(prefix)/availability"] ?? "online" == "online", "\(step)")
    }

    /// A set from MQTT on each control, to a value it does not hold: applied on the glass and said
    /// back on its state topic, in a message after the retained one a new subscriber is given at
    /// once (a switch is turned over, a slider moved, a button's taps counted on by exactly one).
    static func expectSetsWork(_ controls: [View], kiosk: Kiosk, round: Int, prefix: String = prefix, _ step: String) throws {
        let sub = try kiosk.broker.subscribe(["\(prefix)/+/state"])
        defer { sub.stop(SIGKILL) }
        #expect(sub.wait { text in controls.allSatisfy { c in text.contains("\(prefix)/\(c.name)/state ") } },
                "\(step): the retained states, first: \(sub.text)")
        let glass = try kiosk.glass()
        for c in controls {
            let before = glass[c.name]
            let on = !(before?["on"] as? Bool ?? true)
            var percent = Double(10 + round * 7)
            if abs((before?["value"] as? Double ?? -1) * 100 - percent) < 1 { percent += 5 }
            let taps = (before?["taps"] as? Int ?? -1) + 1
            let (payload, state): (String, String) = switch c.kind {
            case "switch": (on ? "ON" : "OFF", on ? "ON" : "OFF")
            case "slider": (fixedDecimal(percent, 1), fixedDecimal(percent, 1))
            default: ("PRESS", "{\"taps\":\(taps),")
            }
            let seen = sub.lines.count
            try kiosk.broker.publish("\(prefix)/\(c.name)/set", payload)
            let line = "\(prefix)/\(c.name)/state \(state)"
            #expect(sub.wait { _ in sub.lines.dropFirst(seen).contains { c.kind == "button" ? $0.hasPrefix(line) : $0 == line } },
                    "\(step): \(c.name)'s state after \(payload) (was \(String(describing: before))): \(sub.text)")
            let view = try kiosk.glass()[c.name]
            switch c.kind {
            case "switch": #expect(view?["on"] as? Bool == on, "\(step): \(c.name) on the glass: \(String(describing: view))")
            case "slider": #expect(abs((view?["value"] as? Double ?? -1) - percent / 100) < 1e-6, "\(step): \(c.name) on the glass: \(String(describing: view))")
            default: #expect(view?["taps"] as? Int == taps, "\(step): \(c.name) on the glass: \(String(describing: view))")
            }
        }
    }

    func check(_ controls: [View], _ kiosk: Kiosk, round: Int, discovery: String? = "device", _ step: String) throws {
        try Self.expectRetained(Self.announced(controls, discovery: discovery), controls: controls, on: kiosk.broker, step)
        try Self.expectSetsWork(controls, kiosk: kiosk, round: round, step)
    }

    /// Views added before and after the controls, removed, renamed, of another kind: each reload
    /// announces what is new, clears what is gone, and every control (old and new) takes sets.
    @Test func reloadsThatChangeTheViews() throws {
        let broker = try Broker()
        let kiosk = try Kiosk(broker: broker)
        let base = Self.defaultControls
        try kiosk.write()
        try kiosk.start()
        try check(base, kiosk, round: 1, "at start")

        let lamp = View(name: "lamp", kind: "switch"), fan = View(name: "fan", kind: "switch")
        try kiosk.write(before: [lamp])
        kiosk.reload(number: 1)
        try check([lamp] + base, kiosk, round: 2, "a switch added before the controls")
        #expect(try kiosk.glass()["lamp"]?["on"] as? Bool == true, "the new switch, off by default, set ON from MQTT")

        try kiosk.write(before: [lamp], after: [fan])
        kiosk.reload(number: 2)
        try check([lamp] + base + [fan], kiosk, round: 3, "a switch added after the controls")

        try kiosk.write(after: [fan])
        kiosk.reload(number: 3)
        try check(base + [fan], kiosk, round: 4, "the first one removed")

        let fan2 = View(name: "fan2", kind: "switch")
        try kiosk.write(after: [fan2])
        kiosk.reload(number: 4)
        try check(base + [fan2], kiosk, round: 5, "renamed")

        let dimmer = View(name: "fan2", kind: "slider")
        try kiosk.write(after: [dimmer])
        kiosk.reload(number: 5)
        try check(base + [dimmer], kiosk, round: 6, "its kind changed")
        let p = try #require(kiosk.process)
        #expect(!p.text.contains("until the next start"), "no change here needs a restart: \(p.text)")
    }

    /// Switching the form of discovery clears the other form's configs; `discovery = false`
    /// clears every discovery config (states stay); a change that needs a restart is named in the
    /// log and changes nothing on the broker until then.
    @Test func reloadsThatSwitchDiscoveryAndOneThatNeedsARestart() throws {
        let broker = try Broker()
        let kiosk = try Kiosk(broker: broker)
        let base = Self.defaultControls
        try kiosk.write()
        try kiosk.start()
        try check(base, kiosk, round: 1, "at start")

        try kiosk.write(mqtt: "discovery = \"entity\"\n")
        kiosk.reload(number: 1)
        try check(base, kiosk, round: 2, discovery: "entity", "device to entity")

        try kiosk.write(mqtt: "discovery = false\n")
        kiosk.reload(number: 2)
        try check(base, kiosk, round: 3, discovery: nil, "discovery turned off")

        try kiosk.write(mqtt: "discovery = \"entity\"\n")
        kiosk.reload(number: 3)
        try check(base, kiosk, round: 4, discovery: "entity", "entity again")

        try kiosk.write(mqtt: "discovery = \"device\"\n")
        kiosk.reload(number: 4)
        try check(base, kiosk, round: 5, "entity to device")

        try kiosk.write(prefix: "kiosk/elsewhere")
        kiosk.reload(number: 5)
        let p = try #require(kiosk.process)
        #expect(p.waitFor(containing: "these keys keep their old values until the next start: mqtt.topic_prefix"), "\(p.text)")
        try check(base, kiosk, round: 6, "a new topic prefix waits for the restart")
    }

    /// kiosk remembers what it announced (in its state folder), so a restart with a view removed,
    /// with another topic prefix, another form of discovery or `discovery = false` clears what the earlier run left.
    @Test func restartsClearWhatTheEarlierRunAnnounced() throws {
        let broker = try Broker()
        let kiosk = try Kiosk(broker: broker)
        let base = Self.defaultControls
        let lamp = View(name: "lamp", kind: "switch")
        try kiosk.write(after: [lamp])
        try kiosk.start()
        try check(base + [lamp], kiosk, round: 1, "at start")

        kiosk.stop()
        try kiosk.write()
        try kiosk.start()
        try check(base, kiosk, round: 2, "restarted with a view removed")

        kiosk.stop()
        try kiosk.write(prefix: "kiosk/elsewhere")
        try kiosk.start()
        let moved = Self.announced(base, prefix: "kiosk/elsewhere")
        var seen: Set<String> = []
        for _ in 0..<10 where seen != moved { seen = Set(try broker.retained(["homeassistant/#", "kiosk/#"]).keys) }
        #expect(seen == moved, "restarted with another prefix: left over \(seen.subtracting(moved).sorted())")
        try Self.expectSetsWork(base, kiosk: kiosk, round: 3, prefix: "kiosk/elsewhere", "restarted with another prefix")

        kiosk.stop()
        try kiosk.write(mqtt: "discovery = \"entity\"\n")
        try kiosk.start()
        try check(base, kiosk, round: 4, discovery: "entity", "restarted with per-entity discovery")

        kiosk.stop()
        try kiosk.write()
        try kiosk.start()
        try check(base, kiosk, round: 5, "restarted with device discovery")

        kiosk.stop()
        try kiosk.write(mqtt: "discovery = false\n")
        try kiosk.start()
        try check(base, kiosk, round: 6, discovery: nil, "restarted with discovery off")
    }

    /// In the device form a view removed while kiosk was stopped is removed in Home Assistant by
    /// the next start (which keeps a component merely left out of `cmps`): the device config holds
    /// each of its components once as its platform alone, and at the start after no more.
    @Test func aRestartRemovesTheDeviceComponentsOfAViewRemovedMeanwhile() throws {
        let broker = try Broker()
        let kiosk = try Kiosk(broker: broker)
        let base = Self.defaultControls
        let lamp = View(name: "lamp", kind: "switch"), bell = View(name: "bell", kind: "button")
        try kiosk.write(after: [lamp, bell])
        try kiosk.start()
        try check(base + [lamp, bell], kiosk, round: 1, "at start")

        kiosk.stop()
        try kiosk.write(after: [lamp])
        try kiosk.start()
        try check(base + [lamp], kiosk, round: 2, "restarted with bell removed")
        let gone = ["bell_event": "event", "bell_button": "button", "bell_text": "text"]
        var alone = try Self.platformsAlone(on: broker)
        for _ in 0..<10 where alone != gone { alone = try Self.platformsAlone(on: broker) }
        #expect(alone == gone, "bell's components, each its platform alone")

        kiosk.stop()
        try kiosk.start()
        try check(base + [lamp], kiosk, round: 3, "restarted again")
        for _ in 0..<10 where !alone.isEmpty { alone = try Self.platformsAlone(on: broker) }
        #expect(alone.isEmpty, "a component is removed once: \(alone)")
    }

    /// The retained device config's components that are their platform alone (component id: platform).
    static func platformsAlone(on broker: Broker) throws -> [String: String] {
        let payload = try broker.retained([deviceConfig])[deviceConfig] ?? ""
        let j = try JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any]
        let cmps = j?["cmps"] as? [String: [String: Any]] ?? [:]
        return cmps.filter { $0.value.count == 1 }.mapValues { $0["p"] as? String ?? "" }
    }
}
