import KioskConfig
import KioskCore
import KioskLog
import KioskTestSupport
import MQTT
import MQTTProtocol
import Testing

/// `[mqtt] node` fixes the device's id and name apart from the host name and the client id.
@Suite struct NodeTests {
    let logger = Logger(label: "test", factory: { _ in InMemoryLogHandler() })

    func mqtt(node: String?, hostname: String) throws -> MQTTExtension {
        var settings = MQTTSettings(broker: .init(tls: false, host: "127.0.0.1", port: 1883))
        settings.node = node
        return try MQTTExtension(settings: settings, hostname: hostname, logger: logger, now: Instant(seconds: 0))
    }

    @Test func nodeIsTheDevicesIdAndName() throws {
        for host in ["pi-1", "pi-2"] {
            let m = try mqtt(node: "hall", hostname: host)
            #expect(m.topics.nodeID == "hall" && m.topics.deviceDiscovery == "homeassistant/device/hall/config")
            #expect(m.discovery.deviceName == "kiosk hall", "the same device whatever the host's name")
            #expect(m.topics.prefix == "kiosk/\(host)", "the topic prefix is topic_prefix's")
        }
        let m = try mqtt(node: nil, hostname: "pi-1")
        #expect(m.topics.nodeID == "kiosk-pi-1" && m.discovery.deviceName == "kiosk pi-1", "without node: the client id and host name")
    }
}
