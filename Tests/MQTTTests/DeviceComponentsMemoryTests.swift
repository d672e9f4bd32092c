import Foundation
import KioskCore
import MQTT
import MQTTProtocol
import Testing

/// The device config's components remembered across restarts (`AnnouncementMemory.deviceComponents`),
/// on a real broker with the loop on a virtual clock: a start sends each remembered component the
/// config no longer has once as its platform alone, remembering that before it sends; a device
/// config that is no longer announced (another node, another form of discovery) is cleared and
/// forgotten with its components, never given another's.
@Suite(.enabled(if: Broker.available, "needs mosquitto and mosquitto-clients"), .serialized)
struct DeviceComponentsMemoryTests {
    static let deviceConfig = ChangingConfigOnBrokerTests.deviceConfig
    static let lamp = DeviceComponent(platform: "switch", view: "lamp")

    /// Memory that notes, at each `remember`, how many messages MQTT had sent by then.
    final class WatchedMemory: AnnouncementMemory {
        private(set) var announcedTopics: Set<String>
        private(set) var deviceComponents: DeviceComponents
        weak var mqtt: MQTTExtension?
        private(set) var remembered: [(sent: Int, components: DeviceComponents)] = []

        init(_ topics: Set<String>, _ components: DeviceComponents) {
            announcedTopics = topics
            deviceComponents = components
        }

        func remember(announced: Set<String>, deviceComponents: DeviceComponents) {
            remembered.append((mqtt?.counters.published ?? -1, deviceComponents))
            announcedTopics = announced
            self.deviceComponents = deviceComponents
        }
    }

    /// Connected, and every retained message of the first round sent.
    static func started(_ broker: Broker, memory: WatchedMemory, mqtt extra: String = "") throws -> VirtualLoopOnBroker {
        let loop = try VirtualLoopOnBroker(broker: broker, mqtt: extra, memory: memory)
        memory.mqtt = loop.mqtt
        #expect(loop.run { loop.mqtt.isConnected && memory.remembered.count >= 2 }, "\(loop.handler.entries.map(\.message))")
        return loop
    }

    /// A component the earlier run announced and this config has not: sent once as its platform
    /// alone, remembered (with the current ones) before anything of the round is sent, and
    /// forgotten once sent.
    @Test func aRememberedComponentIsRemovedAndRememberedBeforeItIsSent() throws {
        let broker = try Broker()
        let memory = WatchedMemory([Self.deviceConfig], [Self.deviceConfig: [Self.lamp]])
        let loop = try Self.started(broker, memory: memory)
        var alone: [String: String] = [:]
        for _ in 0..<10 where alone.isEmpty { alone = try ChangingConfigOnBrokerTests.platformsAlone(on: broker) }
        #expect(alone == ["lamp_switch": "switch"])
        let first = try #require(memory.remembered.first)
        #expect(first.components[Self.deviceConfig]?.contains(Self.lamp) == true, "remembered while it is still to remove")
        #expect(first.components[Self.deviceConfig]?.contains(DeviceComponent(platform: "number", view: "slider")) == true,
                "the ones about to be announced with it")
        let last = try #require(memory.remembered.last)
        #expect(first.sent < last.sent, "remembered before the round was sent: \(memory.remembered.map(\.sent))")
        #expect(last.components[Self.deviceConfig]?.contains(Self.lamp) == false)
        #expect(loop.mqtt.counters.cleared == 0)
    }

    /// Another node's device config (the node or the discovery prefix changed): cleared as an
    /// orphan, which removes that whole device in Home Assistant; its components are forgotten
    /// and never sent as removals in this node's config.
    @Test func anotherNodesDeviceConfigIsClearedAndItsComponentsForgotten() throws {
        let broker = try Broker()
        let old = "homeassistant/device/old-node/config"
        try broker.publish(old, "{\"cmps\":{}}", retain: true)
        let memory = WatchedMemory([old], [old: [Self.lamp]])
        let loop = try Self.started(broker, memory: memory)
        var retained = try broker.retained(["homeassistant/#"])
        for _ in 0..<10 where retained[old] != nil || retained[Self.deviceConfig] == nil { retained = try broker.retained(["homeassistant/#"]) }
        #expect(retained[old] == nil && retained[Self.deviceConfig] != nil, "\(retained.keys.sorted())")
        #expect(try ChangingConfigOnBrokerTests.platformsAlone(on: broker).isEmpty)
        #expect(memory.deviceComponents.keys.sorted() == [Self.deviceConfig])
        #expect(loop.mqtt.counters.cleared == 1)
    }

    /// Per-entity discovery after the device form: the device config is cleared (as on a reload)
    /// and its components forgotten, so a later switch back sends no stale removal.
    @Test func theEntityFormForgetsTheDeviceComponents() throws {
        let broker = try Broker()
        let memory = WatchedMemory([Self.deviceConfig], [Self.deviceConfig: [Self.lamp]])
        let loop = try Self.started(broker, memory: memory, mqtt: "discovery = \"entity\"\n")
        #expect(memory.deviceComponents.isEmpty)
        #expect(!memory.announcedTopics.contains(Self.deviceConfig))
        #expect(loop.mqtt.counters.cleared == 1)
    }
}
