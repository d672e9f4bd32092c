import MQTTProtocol
import Scene

/// The names by which the world outside finds a view, which no two views may share: what the
/// control socket and hooks match (the name as Unicode text, as Swift compares it) and, with
/// `[mqtt]`, the topic level every MQTT topic, discovery topic and unique_id is made from
/// (`KioskTopics.level`: every character outside `A-Z a-z 0-9 _ -` made `_`). A control's topics
/// are `<prefix>/<level>/` followed by one of `state`, `set`, `event`, `label`, `label/set`, and a
/// level holds no `/`, so two views' topics meet exactly when their levels do. A unique_id is
/// `<node>_<level>_<component>` and no control's component name (`switch`, `number`, `event`,
/// `button`, `text`) ends another's, so two views' unique_ids meet exactly when their levels do:
/// one check covers topics and unique_ids. The kiosk's own entities use the reserved levels
/// (`KioskTopics.reservedLevels`), which no control may take.
struct ViewNames {
    /// Whether the file has `[mqtt]`: without it no topic is made, and names that map alike are fine.
    let mqtt: Bool
    /// Each view so far by its name (Swift's `String` hashes and compares as Unicode text), and
    /// each control by its topic level, with where its name is written.
    private var byName: [String: (name: String, at: SourceLocation)] = [:]
    private var byLevel: [String: (name: String, at: SourceLocation)] = [:]

    init(mqtt: Bool) { self.mqtt = mqtt }

    /// Takes the view `name` of `kind`, written at `at`; or says which view before it has its name.
    mutating func add(_ name: String, kind: ViewKind, at: SourceLocation) -> String? {
        if let first = byName[name] {
            if Array(first.name.unicodeScalars) == Array(name.unicodeScalars) {
                return "view '\(name)' is declared twice; first at \(first.at)"
            }
            return "view '\(name)' has the name of view '\(first.name)' (\(first.at)) to the control socket and hooks, "
                + "which compare names as Unicode text (one is the other's canonical equivalent); rename one"
        }
        byName[name] = (name, at)
        guard mqtt, !HomeAssistantDiscovery.components(kind).isEmpty else { return nil }
        let level = KioskTopics.level(name)
        if KioskTopics.reservedLevels.contains(level) {
            return "view '\(name)' has the MQTT name '\(level)', which the kiosk's own entities use (<topic_prefix>/\(level)/...; "
                + "reserved: \(KioskTopics.reservedLevels.sorted().joined(separator: ", "))); rename it"
        }
        if let first = byLevel[level] {
            return "view '\(name)' and view '\(first.name)' (\(first.at)) have the same MQTT name '\(level)': the same topics "
                + "<topic_prefix>/\(level)/... and unique_ids <node>_\(level)_..., as every character outside A-Z a-z 0-9 _ - "
                + "becomes '_'; rename one"
        }
        byLevel[level] = (name, at)
        return nil
    }
}
