import KioskCore
import KioskState
import MQTTProtocol

/// MQTT's memory of what it announced, kept in the state file (`mqtt.announced` and
/// `mqtt.device_components`) beside the controls' values, so one file says what this kiosk told
/// the house.
///
/// MQTT remembers the full set before it publishes anything new, so that a power cut can leave a
/// topic to clear or a component to remove but never an unknown one: `remember` is therefore
/// written at once (one small fsynced write, on connect or on a reload that changes the set), not
/// coalesced like a slider.
final class StoredAnnouncements: AnnouncementMemory {
    private let store: StateStore
    private let clock: any InstantClock

    init(_ store: StateStore, clock: any InstantClock) {
        self.store = store
        self.clock = clock
    }

    var announcedTopics: Set<String> { store.announcedTopics }

    var deviceComponents: DeviceComponents {
        store.announcedDeviceComponents.mapValues { Set($0.map { DeviceComponent(id: $0.key, platform: $0.value) }) }
    }

    func remember(announced: Set<String>, deviceComponents: DeviceComponents) {
        let components = deviceComponents.mapValues { Dictionary($0.map { ($0.id, $0.platform) }, uniquingKeysWith: { a, _ in a }) }
        guard announced != store.announcedTopics || components != store.announcedDeviceComponents else { return }
        store.remember(announced: announced, deviceComponents: components)
        store.flush(now: clock.now)
    }
}
