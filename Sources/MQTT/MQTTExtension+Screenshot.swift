import KioskCore
import MQTTProtocol
import Runtime
import Scene

// The screenshot in Home Assistant: an `image` entity, "Screen", whose picture is the PNG of the
// frame the panel shows, retained on `<prefix>/screenshot/image`, and a `button`, "Screenshot",
// whose press (`<prefix>/screenshot/set`, `PRESS`) asks the loop for a new one. A screenshot asked
// for through the control socket is published there too.
extension MQTTExtension {
    /// The reserved topic level of both entities.
    static let screenshotLevel = "screenshot"

    /// Where the PNG goes: the whole file, no encoding (Home Assistant's `image_topic`).
    static func screenshotImageTopic(_ topics: KioskTopics) -> String { "\(topics.prefix)/\(screenshotLevel)/image" }

    /// The image and its button, with Home Assistant's keys for each platform (its MQTT
    /// `image.py`: `image_topic` and `content_type`; `button.py`: `command_topic`, `payload_press`).
    static func screenshotEntities(topics: KioskTopics) -> [DeviceEntity] {
        var image = JSONObject(compact: true)
        image.add("image_topic", screenshotImageTopic(topics))
        image.add("content_type", "image/png")
        var button = JSONObject(compact: true)
        button.add("command_topic", topics.command(screenshotLevel))
        button.add("payload_press", ControlPayload.press)
        button.add("icon", "mdi:monitor-screenshot")
        return [
            DeviceEntity(component: "image", level: screenshotLevel, name: "Screen", keys: image,
                         retainedTopics: [screenshotImageTopic(topics)]),
            DeviceEntity(component: "button", level: screenshotLevel, name: "Screenshot", keys: button),
        ]
    }

    /// The button's press, read as a button's (`PRESS`); anything else is refused, saying what it expects.
    static func screenshotCommand(_ payload: [UInt8]) -> Result<RemoteCommand, RemoteCommandError> {
        switch ControlPayload.command(payload, for: .button) {
        case .success(.press): .success(.screenshot)
        case .success: .failure(RemoteCommandError("expected \(ControlPayload.press)"))
        case .failure(let error): .failure(RemoteCommandError("\(error)"))
        }
    }

    /// A screenshot was made (asked for here or elsewhere): published, retained, on the image
    /// topic. Disconnected, or with too many messages waiting, it is dropped and counted as a press is.
    public func screenshotTaken(_ result: Result<Screenshot, ScreenshotError>, target: CommandTarget, now: Instant) {
        guard case .success(let shot) = result, deviceEntities.contains(where: { $0.component == "image" && $0.level == Self.screenshotLevel })
        else { return }
        guard isConnected, queued < Self.maximumQueued else {
            counters.eventsDropped += 1
            return
        }
        send(Self.screenshotImageTopic(topics), bytes: shot.png, retain: true)
    }
}
