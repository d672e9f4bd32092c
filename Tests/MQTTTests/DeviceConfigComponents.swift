import Foundation
import MQTTProtocol
import Testing

/// The `cmps` of the device config that announces only `entities`: each entity's keys and values.
func deviceConfigComponents(_ entities: [DeviceEntity], topics: KioskTopics) throws -> [String: [String: Any]] {
    let d = HomeAssistantDiscovery(topics: topics, deviceName: "kiosk hall", softwareVersion: "1.0")
    let m = d.messages([], deviceEntities: entities)
    let j = try #require(try JSONSerialization.jsonObject(with: Data(m[0].payload.utf8)) as? [String: Any])
    return try #require(j["cmps"] as? [String: [String: Any]])
}
