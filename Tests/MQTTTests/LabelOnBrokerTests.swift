import Foundation
import KioskCore
import KioskTestSupport
import MQTT
@testable import Runtime
import Testing

/// The button's label as Home Assistant's `text`: set on `<prefix>/<view>/label/set`, drawn, and
/// said back retained on `<prefix>/<view>/label`; a change from elsewhere said there too; a bad
/// one refused with a warning naming the topic, the label kept.
@Suite(.enabled(if: Broker.available, "needs mosquitto and mosquitto-clients"), .serialized)
struct LabelOnBrokerTests {
    static let label = "\(KioskOnBrokerTests.prefix)/button/label"

    func labels(_ sub: LineProcess) -> [String] {
        sub.payloads(on: Self.label)
    }

    func labelOnGlass(_ h: VirtualLoopOnBroker) throws -> String {
        let id = try #require(h.loop.scene.viewID(named: "button"))
        return try #require(h.loop.scene.views[id.rawValue].button).label
    }

    @Test func setFromHomeAssistantAndSaidBack() throws {
        let broker = try Broker()
        let sub = try broker.subscribe([Self.label])
        let h = try VirtualLoopOnBroker(broker: broker)
        #expect(h.run { labels(sub) == ["Press"] }, "the config's label, at connect: \(sub.text)")
        try broker.publish(Self.label + "/set", "Öffne die Tür")
        #expect(h.run { labels(sub).last == "Öffne die Tür" }, "\(sub.text)")
        #expect(try labelOnGlass(h) == "Öffne die Tür")
        #expect(try broker.retained([Self.label])[Self.label] == "Öffne die Tür", "retained")
        #expect(h.mqtt.counters.commandsApplied == 1)

        // From the control socket's side (or any other): said back as well.
        if case .failure(let e) = h.loop.apply(.setLabel(view: "button", "Close"), source: .socket) { Issue.record("\(e)") }
        h.wake()
        #expect(h.run { labels(sub).last == "Close" }, "\(sub.text)")
    }

    @Test func aLabelTooLongIsRefusedAndLogged() throws {
        let broker = try Broker()
        let sub = try broker.subscribe([Self.label])
        let h = try VirtualLoopOnBroker(broker: broker)
        #expect(h.run { labels(sub) == ["Press"] }, "\(sub.text)")
        try broker.publish(Self.label + "/set", String(repeating: "x", count: 201))
        try broker.publish("\(KioskOnBrokerTests.prefix)/slider/label/set", "Volume")
        let refusals = { h.handler.entries.filter { $0.message.description == "mqtt: command ignored" } }
        #expect(h.run { refusals().count == 2 }, "\(h.handler.entries.map(\.message))")
        let tooLong = try #require(refusals().first { "\($0.metadata["mqtt.topic"] ?? "")" == Self.label + "/set" })
        #expect("\(tooLong.metadata["mqtt.error"] ?? "")".contains("(201 characters) is not a command; expected one line of at most 200 characters"),
                "\(tooLong.metadata)")
        let notAButton = try #require(refusals().first { "\($0.metadata["mqtt.topic"] ?? "")".contains("slider") })
        #expect("\(notAButton.metadata["mqtt.error"] ?? "")".contains("no button of this kiosk has that topic; buttons' labels: \(Self.label)/set"),
                "\(notAButton.metadata)")
        #expect(try labelOnGlass(h) == "Press" && h.mqtt.counters.commandsRefused == 2)
        #expect(labels(sub) == ["Press"], "nothing said: \(sub.text)")
    }
}
