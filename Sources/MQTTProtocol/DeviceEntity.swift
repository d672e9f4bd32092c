import KioskCore

/// An entity of the kiosk itself rather than of one of its views: the display, the diagnostics,
/// the screenshot. Home Assistant shows it in the kiosk's device beside the controls' entities,
/// announced in either form of discovery as they are (`HomeAssistantDiscovery.messages`).
///
/// Its `level` is its id and its topics' level under `topic_prefix`; every level a device entity
/// uses is one of `KioskTopics.reservedLevels`, which the config refuses as a control's name, so
/// no view's topics or unique_id can meet a device entity's.
public struct DeviceEntity: Sendable, Equatable {
    /// Home Assistant's platform: `light`, `sensor`, `binary_sensor`, `image`, `button`, `number`...
    public var component: String
    /// Its id and topic level, one of `KioskTopics.reservedLevels`.
    public var level: String
    /// Its name as people read it, after the device's.
    public var name: String
    /// The platform's own keys (topics, device class, entity category, icon), compact JSON.
    public var keys: JSONObject
    /// The retained topics it publishes on (a state the broker keeps): announced, remembered
    /// and cleared when it goes, as the controls' states are.
    public var retainedTopics: [String]

    public init(component: String, level: String, name: String, keys: JSONObject = JSONObject(compact: true),
                retainedTopics: [String] = []) {
        precondition(KioskTopics.reservedLevels.contains(level), "device entity level '\(level)' is not reserved in KioskTopics.reservedLevels")
        self.component = component
        self.level = level
        self.name = name
        self.keys = keys
        self.retainedTopics = retainedTopics
    }
}
