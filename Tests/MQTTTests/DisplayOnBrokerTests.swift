import Foundation
import KioskCore
import KioskTestSupport
import MQTT
import MQTTProtocol
import Runtime
import Testing

/// The display's entities on a real Mosquitto broker, in a live loop: a fake backlight class
/// folder stands in for sysfs.
@Suite(.enabled(if: Broker.available, "needs mosquitto and mosquitto-clients"), .serialized)
struct DisplayOnBrokerTests {
    let prefix = KioskOnBrokerTests.prefix

    func makeBacklight() throws -> URL {
        let classFolder = try KioskExecutable.temporaryFolder("mqtt-backlight")
        let device = classFolder.appendingPathComponent("rpi_backlight")
        try FileManager.default.createDirectory(at: device, withIntermediateDirectories: true)
        try "255\n".write(to: device.appendingPathComponent("max_brightness"), atomically: false, encoding: .utf8)
        try "255\n".write(to: device.appendingPathComponent("brightness"), atomically: false, encoding: .utf8)
        try "0\n".write(to: device.appendingPathComponent("bl_power"), atomically: false, encoding: .utf8)
        return classFolder
    }

    func file(_ folder: URL, _ name: String) -> String {
        ((try? String(contentsOf: folder.appendingPathComponent("rpi_backlight/\(name)"), encoding: .utf8)) ?? "")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func theDisplayIsALightWithBrightnessABlankAfterNumberAndALastTouchSensor() throws {
        let classFolder = try makeBacklight()
        defer { try? FileManager.default.removeItem(at: classFolder) }
        let broker = try Broker()
        let sub = try broker.subscribe(["\(prefix)/display/state", "\(prefix)/blank_after/state", "\(prefix)/last_touch/state", "homeassistant/#"])
        let h = try InProcessTests.Harness(broker: broker, backlightClass: classFolder.path)
        #expect(h.run { h.mqtt.isConnected })
        #expect(h.run { sub.text.contains("\(prefix)/display/state {\"state\":\"ON\",\"brightness\":100}") }, "\(sub.text)")
        #expect(h.run { sub.text.contains("\(prefix)/blank_after/state 0") }, "\(sub.text)")
        #expect(h.run { sub.text.contains("\"brightness_scale\":100") }, "the light offers brightness: \(sub.text)")
        try broker.publish("\(prefix)/display/set", #"{"state":"OFF"}"#)
        #expect(h.run { sub.text.contains("\(prefix)/display/state {\"state\":\"OFF\",\"brightness\":100}") }, "\(sub.text)")
        #expect(file(classFolder, "bl_power") == "4")
        #expect(h.loop.displayStatus.isOn == false)
        try broker.publish("\(prefix)/display/set", #"{"state":"ON","brightness":40}"#)
        #expect(h.run { sub.text.contains("\(prefix)/display/state {\"state\":\"ON\",\"brightness\":40}") }, "\(sub.text)")
        #expect(file(classFolder, "brightness") == "102")
        #expect(file(classFolder, "bl_power") == "0")
        try broker.publish("\(prefix)/blank_after/set", "120")
        #expect(h.run { sub.text.contains("\(prefix)/blank_after/state 120") }, "\(sub.text)")
        #expect(h.loop.displayStatus.blankAfter == 120)
        try broker.publish("\(prefix)/blank_after/set", "-3")
        #expect(h.run { h.mqtt.counters.commandsRefused == 1 })
        h.tap(at: Point(x: 700, y: 40))
        let today = WallClock.iso8601(Date().timeIntervalSince1970).prefix(10)
        #expect(h.run { sub.text.contains("\(prefix)/last_touch/state \(today)T") }, "\(sub.text)")
        let retained = try broker.retained(["\(prefix)/display/state", "\(prefix)/blank_after/state"])
        #expect(retained["\(prefix)/display/state"] == "{\"state\":\"ON\",\"brightness\":40}")
        #expect(retained["\(prefix)/blank_after/state"] == "120")
    }

    @Test func withoutABacklightTheLightIsOnAndOffOnly() throws {
        let broker = try Broker()
        let sub = try broker.subscribe(["\(prefix)/display/state", "homeassistant/#"])
        let h = try InProcessTests.Harness(broker: broker)
        #expect(h.run { h.mqtt.isConnected })
        #expect(h.run { sub.text.contains("\(prefix)/display/state {\"state\":\"ON\"}") }, "\(sub.text)")
        #expect(h.run { sub.text.contains("\"supported_color_modes\":[\"onoff\"]") }, "\(sub.text)")
        #expect(!sub.text.contains("brightness"))
        try broker.publish("\(prefix)/display/set", "OFF")
        #expect(h.run { sub.text.contains("\(prefix)/display/state {\"state\":\"OFF\"}") }, "\(sub.text)")
    }
}
