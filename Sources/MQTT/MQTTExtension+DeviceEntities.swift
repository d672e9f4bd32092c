import KioskConfig
import KioskCore
import MQTTProtocol
import Runtime

// The kiosk's own entities in Home Assistant (`DeviceEntity`): announced with the controls', their
// retained topics remembered and cleared as the controls' are, their commands applied as a
// finger's changes.
extension MQTTExtension {
    /// The kiosk's own entities under `configuration`, in the order Home Assistant lists them.
    /// Each part of the kiosk that has one adds it here, built in a file of its own.
    static func deviceEntities(topics: KioskTopics, configuration: KioskConfiguration) -> [DeviceEntity] {
        screenshotEntities(topics: topics)
            + diagnosticsEntities(topics: topics)
            + displayEntities(topics: topics)
    }

    /// The command a device entity's command topic (`<prefix>/<level>/set`) asks for; nil when
    /// no device entity takes commands at `level`; a failure says what is wrong with `payload`.
    static func deviceCommand(level: String, payload: [UInt8]) -> Result<RemoteCommand, RemoteCommandError>? {
        if level == screenshotLevel { return screenshotCommand(payload) }
        if let c = displayCommand(level: level, payload: payload) { return c }
        return nil
    }

    /// A start's or a reload's entities: the retained messages are brought in line with what is
    /// announced now (the ones gone removed from Home Assistant, `bringRetainedInLine`).
    func takeDeviceEntities(_ given: [DeviceEntity]) {
        let entities = withDisplayBrightness(given)
        guard entities != deviceEntities else { return }
        deviceEntities = entities
        retainedOutOfLine = true
        if settings.discovery == .device { discoveryWanted = .all }
        if settings.discovery == .entity, discoveryWanted == .none { discoveryWanted = .missing }
    }
}
