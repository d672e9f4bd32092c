/// One entity in the device config's `cmps` (`discovery = "device"`): its component id
/// (`<level>_<platform>`, the key in `cmps`) and its platform (`p`).
///
/// Home Assistant (2025.4) removes a device's component only when the device config sends it once
/// as its platform alone (`"lamp_switch": {"p": "switch"}`); one simply left out is kept. So kiosk
/// remembers, across reloads and restarts, which components each device config it announced
/// last held (`AnnouncementMemory.deviceComponents`), and sends the ones gone that way once.
public struct DeviceComponent: Hashable, Sendable, Comparable {
    /// The key in `cmps`: `<level>_<platform>`.
    public var id: String
    /// Home Assistant's platform: `switch`, `number`, `binary_sensor`…
    public var platform: String

    public init(id: String, platform: String) {
        self.id = id
        self.platform = platform
    }

    /// A view's (or a device entity's level's) entity on `platform`.
    public init(platform: String, view: String) {
        self.init(id: HomeAssistantDiscovery.componentID(platform, view: view), platform: platform)
    }

    public static func < (a: DeviceComponent, b: DeviceComponent) -> Bool { (a.id, a.platform) < (b.id, b.platform) }
}

/// The components each device config on the broker holds, by its topic
/// (`<discovery_prefix>/device/<node>/config`): another node or discovery prefix is another topic.
public typealias DeviceComponents = [String: Set<DeviceComponent>]
