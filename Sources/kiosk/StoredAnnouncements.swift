import KioskCore
import KioskState
import MQTTProtocol

/// MQTT's memory of what it announced, kept in the state file (`mqtt.announced`) beside the
/// controls' values, so one file says what this kiosk told the house.
///
/// MQTT remembers the full set before it publishes anything new, so that a power cut can leave a
/// topic to clear but never an unknown one: `remember` is therefore written at once (one small
/// fsynced write, on connect or on a reload that changes the set), not coalesced like a slider.
final class StoredAnnouncements: AnnouncementMemory {
    private let store: StateStore
    private let clock: any InstantClock

    init(_ store: StateStore, clock: any InstantClock) {
        self.store = store
        self.clock = clock
    }

    var announcedTopics: Set<String> { store.announcedTopics }

    func remember(announced: Set<String>) {
        guard announced != store.announcedTopics else { return }
        store.remember(announced: announced)
        store.flush(now: clock.now)
    }
}
