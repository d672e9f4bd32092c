import KioskCore
import KioskLog
import MQTTProtocol
import Scene

// The controls MQTT announces, matched by name across reloads; the retained messages on the
// broker kept to exactly what the config announces; each control's state.
extension MQTTExtension {

    /// The controls among `scene`'s views, by name; one that was in `previous` with the same
    /// name and kind keeps what was published for it (a rename or a new kind is a new control).
    static func controls(of scene: KioskScene, keeping previous: [Control]) -> [Control] {
        scene.views.enumerated().compactMap { i, v in
            guard !HomeAssistantDiscovery.components(v.kind).isEmpty else { return nil }
            var c = Control(name: v.name, kind: v.kind, level: KioskTopics.level(v.name), index: i)
            if let p = previous.first(where: { $0.name == v.name && $0.kind == v.kind }) {
                c.published = p.published
                c.publishedFrom = p.publishedFrom
                c.publishedAt = p.publishedAt
                c.publishedLabel = p.publishedLabel
            }
            return c
        }
    }

    /// The labels the config gives views, by name: the entities' names.
    static func labels(of scene: KioskScene) -> [String: String] {
        var labels: [String: String] = [:]
        for v in scene.definition.views where !v.label.isEmpty { labels[v.name] = v.label }
        return labels
    }

    /// A reload's scene: its controls from now on; new ones announced and published, the ones
    /// gone (or renamed, or of another kind) cleared from the broker.
    func takeViews(of scene: KioskScene) {
        controls = Self.controls(of: scene, keeping: controls)
        labels = Self.labels(of: scene)
        retainedOutOfLine = true
        // The device form's one config changes with the views: sent again whole.
        if settings.discovery == .device { discoveryWanted = .all }
        if settings.discovery == .entity, discoveryWanted == .none { discoveryWanted = .missing }
    }

    /// What the config announces now; in the device form, the components its device config no
    /// longer has (`componentsOnBroker`) are in it as their platform alone.
    var retained: RetainedTopics {
        let views = controls.map { ($0.name, $0.kind) }
        let held = settings.discovery == .device ? componentsOnBroker[topics.deviceDiscovery] ?? [] : []
        let gone = held.subtracting(HomeAssistantDiscovery.deviceComponents(views, deviceEntities: deviceEntities))
        return RetainedTopics(controls: views, labels: labels, removed: Array(gone), deviceEntities: deviceEntities,
                              discovery: settings.discovery != .off ? discovery : nil, topics: topics)
    }

    /// The device config's components as `wanted` announces it (none without it).
    func components(in wanted: RetainedTopics) -> DeviceComponents {
        guard settings.discovery == .device, wanted.all.contains(topics.deviceDiscovery) else { return [:] }
        let views = controls.map { ($0.name, $0.kind) }
        return [topics.deviceDiscovery: HomeAssistantDiscovery.deviceComponents(views, deviceEntities: deviceEntities)]
    }

    /// Clears what was announced and is no longer (an empty retained message each), sends the
    /// discovery configs wanted (a device config with its gone components as their platform
    /// alone), and remembers the set. Waits while libmosquitto's queue is too full to take it all.
    func bringRetainedInLine() {
        guard retainedOutOfLine || discoveryWanted != .none else { return }
        let wanted = retained
        let orphans = wanted.orphans(of: announced)
        let configs = wanted.discovery.filter { discoveryWanted == .all || (discoveryWanted == .missing && !announced.contains($0.topic)) }
        guard queued + orphans.count + configs.count < Self.maximumQueued else { return }
        // Remembered before it is sent: a power cut in between leaves a topic to clear or a
        // component to remove, never one unknown.
        let all = wanted.all
        let now = components(in: wanted)
        var before = componentsOnBroker
        before.merge(now) { $0.union($1) }
        if !all.isSubset(of: announced) || before != componentsOnBroker {
            memory.remember(announced: announced.union(all), deviceComponents: before)
        }
        for topic in orphans { send(topic, "", qos: 1, retain: true) }
        counters.cleared += orphans.count
        for m in configs { send(m.topic, m.payload, qos: 1, retain: true) }
        if !orphans.isEmpty {
            log.info("mqtt: cleared what the config no longer announces", metadata: ["mqtt.cleared": "\(orphans.joined(separator: ","))"])
        }
        announced = all
        // A device config cleared is gone with its components; one not sent now keeps them.
        componentsOnBroker = componentsOnBroker.filter { all.contains($0.key) }
        if configs.contains(where: { $0.topic == topics.deviceDiscovery }) { componentsOnBroker.merge(now) { $1 } }
        if memory.announcedTopics != all || memory.deviceComponents != componentsOnBroker {
            memory.remember(announced: all, deviceComponents: componentsOnBroker)
        }
        retainedOutOfLine = false
        discoveryWanted = .none
    }

    /// Publishes each control whose state differs from what was last sent (and a button's label
    /// on its own topic, at once): at once, but while a
    /// finger holds the control no sooner than `state_interval` after its last state (the change
    /// is then due at that moment, and `nextDeadline` wakes the loop for it). The lift publishes
    /// at once: the finger no longer holds it.
    func syncStates(_ scene: KioskScene, now: Instant) {
        for i in controls.indices {
            guard queued < Self.maximumQueued else { return }
            let c = controls[i]
            guard c.index < scene.views.count, scene.views[c.index].name == c.name else { continue }
            let content = scene.views[c.index].content
            if case .button(let b) = content, c.publishedLabel != b.label {
                controls[i].publishedLabel = b.label
                send(topics.label(c.name), b.label, retain: true)
                guard isConnected else { return }
            }
            guard let source = SavedViewState(control: content) else { continue }
            if c.published != nil, c.publishedFrom == source {
                controls[i].dueAt = nil
                continue
            }
            if c.published != nil, let last = c.publishedAt, scene.isHeld(ViewID(c.index)) {
                let due = last.adding(seconds: settings.stateInterval)
                if now < due {
                    controls[i].dueAt = due
                    continue
                }
            }
            controls[i].dueAt = nil
            let state = source.statePayload
            controls[i].publishedFrom = source
            guard state != c.published else { continue }
            controls[i].published = state
            controls[i].publishedAt = now
            send(topics.state(c.name), state, retain: true)
            guard isConnected else { return }
        }
    }
}
