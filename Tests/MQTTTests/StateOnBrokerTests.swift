import Foundation
import KioskTestSupport
import Testing

/// The state file with MQTT: what Home Assistant set survives a restart, and kiosk's first state
/// messages after it are the restored values, never the config's (which would overwrite the
/// house's truth with a default).
@Suite(.enabled(if: Broker.available, "needs mosquitto and mosquitto-clients"), .serialized)
struct StateOnBrokerTests {
    func topic(_ t: String) -> String { "\(KioskOnBrokerTests.prefix)/\(t)" }

    @Test func aRestartPublishesTheRestoredStateNeverTheDefault() throws {
        let broker = try Broker()
        let state = try KioskExecutable.temporaryFolder("mqtt-state")
        defer { try? FileManager.default.removeItem(at: state) }
        let section = "\n[state]\ndirectory = \"\(state.path)\"\n"
        var kiosk: KioskOnBrokerTests.Kiosk? = try KioskOnBrokerTests.Kiosk(broker: broker, loop: section)
        #expect(kiosk?.process.waitFor(containing: "mqtt: connected") == true, "\(kiosk?.process.text ?? "")")
        let first = try broker.subscribe(["\(KioskOnBrokerTests.prefix)/#"])
        #expect(first.waitFor(line: "\(topic("slider/state")) 50.0"), "\(first.text)")
        try broker.publish(topic("slider/set"), "95.6")
        try broker.publish(topic("switch/set"), "ON")
        #expect(first.waitFor(line: "\(topic("slider/state")) 95.6"), "\(first.text)")
        #expect(first.waitFor(line: "\(topic("switch/state")) ON"), "\(first.text)")
        kiosk?.process.stop(SIGTERM)
        kiosk?.process.waitUntilExit()
        kiosk = nil

        // Every state message from here on, from the retained ones to the restarted kiosk's own.
        let sub = try broker.subscribe(["\(KioskOnBrokerTests.prefix)/#"])
        #expect(sub.waitFor(line: "\(topic("slider/state")) 95.6"), "\(sub.text)")
        let again = try KioskOnBrokerTests.Kiosk(broker: broker, loop: section)
        #expect(again.process.waitFor(containing: "state restored"), "\(again.process.text)")
        #expect(again.process.waitFor(containing: "mqtt: connected"), "\(again.process.text)")
        #expect(sub.waitFor(line: "\(topic("availability")) online", count: 1), "\(sub.text)")
        // kiosk republishes every state on connect: the restored ones.
        #expect(sub.waitFor(line: "\(topic("slider/state")) 95.6", count: 2), "\(sub.text)")
        #expect(sub.waitFor(line: "\(topic("switch/state")) ON", count: 2), "\(sub.text)")
        #expect(!sub.lines.contains("\(topic("slider/state")) 50.0") && !sub.lines.contains("\(topic("switch/state")) OFF"), "\(sub.text)")
    }
}
