import KioskCore
import MQTTProtocol
import Runtime

/// What MQTT knows of the display: the loop's last status, and what was published of it.
struct DisplayOnBroker {
    var status: DisplayStatus?
    var light: String?
    var blankAfter: String?
    var lastTouch: String?
}

// The display as Home Assistant entities (MQTTProtocol/DisplayEntities.swift): announced with the
// kiosk's own, their states retained and sent when the loop says the display changed, their
// commands applied by the loop.
extension MQTTExtension {
    /// The display's entities as the config announces them; brightness is added once the loop
    /// says there is a backlight (`withDisplayBrightness`).
    static func displayEntities(topics: KioskTopics) -> [DeviceEntity] {
        DisplayEntities.entities(topics: topics, brightness: false)
    }

    /// A display command topic's command; nil for another level.
    static func displayCommand(level: String, payload: [UInt8]) -> Result<RemoteCommand, RemoteCommandError>? {
        switch DisplayEntities.command(level: level, payload: payload) {
        case nil: nil
        case .failure(let p): .failure(RemoteCommandError(p.message))
        case .success(.light(let on, let brightness)): .success(.setDisplay(on: on, brightness: brightness))
        case .success(.blankAfter(let s)): .success(.setBlankAfter(s))
        }
    }

    /// `entities` with the light offering brightness exactly when the display has a backlight.
    func withDisplayBrightness(_ entities: [DeviceEntity]) -> [DeviceEntity] {
        let brightness = displayOnBroker.status?.brightness != nil
        guard let i = entities.firstIndex(where: { $0.level == DisplayEntities.light }),
              let light = DisplayEntities.entities(topics: topics, brightness: brightness).first, entities[i] != light else { return entities }
        var adjusted = entities
        adjusted[i] = light
        return adjusted
    }

    public func displayChanged(_ status: DisplayStatus, now: Instant) {
        let hadBrightness = displayOnBroker.status.map { $0.brightness != nil }
        displayOnBroker.status = status
        if hadBrightness != (status.brightness != nil), deviceEntities.contains(where: { $0.level == DisplayEntities.light }) {
            takeDeviceEntities(deviceEntities)
        }
        if isConnected { syncDisplay() }
    }

    /// Publishes the display's states that differ from what was sent (retained).
    func syncDisplay() {
        guard let s = displayOnBroker.status, queued + 3 < Self.maximumQueued,
              deviceEntities.contains(where: { $0.level == DisplayEntities.light }) else { return }
        let light = DisplayEntities.lightState(on: s.isOn, brightness: s.brightness)
        if light != displayOnBroker.light {
            displayOnBroker.light = light
            send(topics.state(DisplayEntities.light), light, retain: true)
        }
        let blank = DisplayEntities.blankAfterState(s.blankAfter)
        if blank != displayOnBroker.blankAfter {
            displayOnBroker.blankAfter = blank
            send(topics.state(DisplayEntities.blankAfter), blank, retain: true)
        }
        // Before the first touch since the start, the broker keeps the last run's.
        if let t = s.lastTouch {
            let touch = WallClock.iso8601(t)
            if touch != displayOnBroker.lastTouch {
                displayOnBroker.lastTouch = touch
                send(topics.state(DisplayEntities.lastTouch), touch, retain: true)
            }
        }
    }

    /// A new connection: every display state again.
    func resendDisplay() {
        displayOnBroker.light = nil
        displayOnBroker.blankAfter = nil
        displayOnBroker.lastTouch = nil
    }
}
