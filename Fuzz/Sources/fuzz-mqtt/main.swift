import Foundation
import FuzzSupport
import KioskConfig
import MQTTProtocol
import Scene

// What MQTT brings in from outside: a command payload on a control's topic (the first byte picks
// the control's kind, the rest is the payload), a topic a message came on, a broker URL from the
// config, and a view name that goes into topics and Home Assistant's discovery JSON. Promises: a
// slider's command is a finite percentage from 0 to 100; a command topic names one level; a
// broker that is accepted has a host and a port from 1 to 65535; a view's topic level is
// [A-Za-z0-9_-] only; every discovery payload is JSON that reads back with its unique_id.
fuzz { data in
    guard let first = data.first else { return }
    let kinds: [ViewKind] = [.slider, .toggle, .button, .canvas, .square]
    let kind = kinds[Int(first) % kinds.count]
    let payload = Array(data.dropFirst())
    if case .success(let command) = ControlPayload.command(payload, for: kind) {
        switch (kind, command) {
        case (.slider, .percent(let p)): precondition(p.isFinite && p >= 0 && p <= 100, "slider command \(p)")
        case (.toggle, .on), (.button, .press): break
        default: preconditionFailure("\(kind) took \(command)")
        }
    }
    let text = String(decoding: payload, as: UTF8.self)
    let topics = KioskTopics(prefix: "kiosk/fuzz", discoveryPrefix: "homeassistant", clientID: text)
    if let level = topics.commandLevel(of: text) { precondition(!level.isEmpty && !level.contains("/"), "level \(level)") }
    if case .success(let broker) = MQTTSettings.parseBroker(text) {
        precondition(!broker.host.isEmpty && (1...65535).contains(broker.port), "broker \(broker)")
    }
    let level = KioskTopics.level(text)
    precondition(!level.isEmpty && level.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-") },
                 "level \(level)")
    // Both forms: one device config whose every component (`cmps`) has its unique_id, or a config per entity.
    for form in [HomeAssistantDiscovery.Form.device, .entity] {
        let discovery = HomeAssistantDiscovery(topics: topics, form: form, deviceName: text, softwareVersion: text, hardwareVersion: text)
        for m in discovery.messages([(text, kind)], labels: [text: text]) {
            guard let object = try? JSONSerialization.jsonObject(with: Data(m.payload.utf8)) as? [String: Any] else {
                preconditionFailure("discovery payload is not JSON: \(m.payload)")
            }
            let entities = (object["cmps"] as? [String: Any]).map { Array($0.values) } ?? [object]
            for entity in entities {
                precondition((entity as? [String: Any])?["unique_id"] is String, "an entity without its unique_id: \(m.payload)")
            }
        }
    }
    _ = ControlPayload.buttonState(taps: Int(first), label: text)
}
