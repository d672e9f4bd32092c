import Foundation
import KioskCore
import KioskTestSupport
import Render
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The screenshot in Home Assistant, against a real Mosquitto: the image and its button are
/// announced with Home Assistant's keys, and a press puts a PNG of the panel's frame, retained,
/// on the image topic.
@Suite(.enabled(if: Broker.available, "needs mosquitto and mosquitto-clients"), .serialized)
struct ScreenshotOnBrokerTests {
    typealias Kiosk = KioskOnBrokerTests.Kiosk
    let prefix = KioskOnBrokerTests.prefix

    /// The retained message on `topic` as bytes (mosquitto_sub's `-N`: the payload and nothing
    /// else), or nil when none came within `seconds`.
    func retainedBytes(_ topic: String, on broker: Broker, seconds: Double = 5) throws -> Data? {
        let sub = Process()
        sub.executableURL = URL(fileURLWithPath: "/usr/bin/mosquitto_sub")
        sub.arguments = ["-h", "127.0.0.1", "-p", "\(broker.port)", "-t", topic, "-C", "1", "-N", "--retained-only"]
        let out = Pipe()
        sub.standardOutput = out
        try sub.run()
        // Read on, or a payload larger than the pipe's buffer would hold mosquitto_sub up forever.
        let data = Bytes()
        let done = DispatchSemaphore(value: 0)
        out.fileHandleForReading.readabilityHandler = { h in
            let d = h.availableData
            if d.isEmpty {
                h.readabilityHandler = nil
                done.signal()
            } else {
                data.bytes.withLock { $0.append(d) }
            }
        }
        if done.wait(timeout: .now() + seconds) == .timedOut {
            kill(sub.processIdentifier, SIGKILL)
            sub.waitUntilExit()
            return nil
        }
        sub.waitUntilExit()
        return data.bytes.withLock { $0 }
    }

    @Test func aPressPublishesThePanelsFrameAsARetainedPNG() throws {
        let broker = try Broker()
        let kiosk = try Kiosk(broker: broker)
        #expect(kiosk.process.waitFor(containing: "mqtt: connected"), "\(kiosk.process.text)")
        // Announced: the image (Home Assistant's `image_topic` and `content_type`) and its button.
        let device = "homeassistant/device/kiosk-test/config"
        let sub = try broker.subscribe([device])
        #expect(sub.waitFor(containing: "\(device) {"), "the device config missing: \(sub.text)")
        let line = try #require(sub.lines.first { $0.hasPrefix("\(device) ") })
        sub.stop(SIGKILL)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(line.dropFirst(device.count + 1).utf8)) as? [String: Any])
        let cmps = try #require(json["cmps"] as? [String: [String: Any]])
        let image = try #require(cmps["screenshot_image"])
        #expect(image["p"] as? String == "image")
        #expect(image["image_topic"] as? String == "\(prefix)/screenshot/image")
        #expect(image["content_type"] as? String == "image/png")
        let button = try #require(cmps["screenshot_button"])
        #expect(button["command_topic"] as? String == "\(prefix)/screenshot/set")
        #expect(button["payload_press"] as? String == "PRESS")
        #expect(try retainedBytes("\(prefix)/screenshot/image", on: broker, seconds: 0.7) == nil, "no picture before the first press")

        try broker.publish("\(prefix)/screenshot/set", "PRESS")
        #expect(kiosk.process.waitFor(containing: "screenshots=1/0"), "\(kiosk.process.text)")
        // The stats line can come before the broker has the picture: asked again until it has it
        // (a retained message that arrives while mosquitto_sub waits is not one it prints).
        var retained: Data?
        for _ in 0..<20 where retained == nil { retained = try retainedBytes("\(prefix)/screenshot/image", on: broker, seconds: 0.5) }
        let png = try #require(retained)
        #expect(png.starts(with: PixelBuffer.pngSignature))
        let picture = try PixelBuffer(png: [UInt8](png))
        let reference = try PixelBuffer(contentsOfPNG: try #require(kiosk.screenshot(number: 1)))
        #expect(picture.width == 800 && picture.height == 480)
        #expect(picture.hasSamePixels(as: reference), "the published picture differs from SIGUSR1's screenshot")

        // Anything but PRESS is refused, saying what it expects.
        try broker.publish("\(prefix)/screenshot/set", "NOW")
        #expect(kiosk.process.waitFor(containing: "mqtt: command ignored"), "\(kiosk.process.text)")
        #expect(kiosk.process.text.contains("mqtt.topic=\(prefix)/screenshot/set"), "\(kiosk.process.text)")
    }
}

/// What mosquitto_sub wrote so far; a class, so the pipe's handler can hold it.
private final class Bytes: Sendable {
    let bytes = Mutex(Data())
}
