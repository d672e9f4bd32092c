import Foundation
import KioskTestSupport
import Testing
@testable import KioskConfig

/// `[mqtt]`: its keys, defaults, what is refused (with file:line, the key and what is allowed),
/// and check-config's resolved text reading back the same.
@Suite struct MQTTConfigTests {
    func mqtt(_ section: String) throws -> MQTTSettings? {
        try KioskConfiguration.parse(runtimeConfig(section), file: "kiosk.toml").mqtt
    }

    func error(_ section: String) -> ConfigError? {
        do {
            _ = try KioskConfiguration.parse(runtimeConfig(section), file: "kiosk.toml")
            return nil
        } catch {
            return error
        }
    }

    /// A file that exists, for ca_file and password_file.
    let existing = "/etc/hostname"

    @Test func absentMeansOff() throws {
        #expect(try mqtt("") == nil)
    }

    @Test func defaults() throws {
        let m = try #require(try mqtt("[mqtt]\nbroker = \"mqtt://127.0.0.1\"\n"))
        #expect(m.broker == .init(tls: false, host: "127.0.0.1", port: 1883))
        #expect(m.clientID == nil && m.topicPrefix == nil && m.username == nil && m.passwordFile == nil && m.caFile == nil)
        #expect(m.discoveryPrefix == "homeassistant" && m.discovery == .device)
        #expect(m.stateInterval == 0.1)
        #expect(MQTTSettings.defaultClientID(hostname: "hall") == "kiosk-hall")
        #expect(MQTTSettings.defaultTopicPrefix(hostname: "hall") == "kiosk/hall")
    }

    @Test func everyKey() throws {
        let m = try #require(try mqtt("""
            [mqtt]
            broker = "mqtts://broker.example:8884"
            ca_file = "\(existing)"
            client_id = "door-1"
            username = "kiosk"
            password_file = "\(existing)"
            topic_prefix = "site/door-1"
            discovery_prefix = "ha"
            discovery = false
            node = "hall-1"
            state_interval = 0.25
            """))
        #expect(m.node == "hall-1" && m.stateInterval == 0.25)
        #expect(m.broker == .init(tls: true, host: "broker.example", port: 8884))
        #expect(m.caFile == existing && m.clientID == "door-1" && m.username == "kiosk" && m.passwordFile == existing)
        #expect(m.topicPrefix == "site/door-1" && m.discoveryPrefix == "ha" && m.discovery == .off)
    }

    /// `discovery` takes a form or false; `true` (kiosk's earlier spelling) is the device form.
    @Test(arguments: [("\"device\"", MQTTSettings.Discovery.device), ("\"entity\"", .entity), ("false", .off), ("true", .device)])
    func discoveryForms(text: String, form: MQTTSettings.Discovery) throws {
        let m = try #require(try mqtt("[mqtt]\nbroker = \"mqtt://127.0.0.1\"\ndiscovery = \(text)\n"))
        #expect(m.discovery == form)
    }

    @Test(arguments: [
        ("mqtt://[::1]:1884", MQTTSettings.Broker(tls: false, host: "::1", port: 1884)),
        ("mqtt://broker.lan/", MQTTSettings.Broker(tls: false, host: "broker.lan", port: 1883)),
        ("mqtts://10.0.0.2", MQTTSettings.Broker(tls: true, host: "10.0.0.2", port: 8883)),
    ])
    func brokers(text: String, broker: MQTTSettings.Broker) throws {
        #expect(try MQTTSettings.parseBroker(text).get() == broker)
    }

    @Test(arguments: [
        ("broker = \"http://host\"", 2, "mqtt.broker", "does not start with mqtt:// or mqtts://"),
        ("broker = \"mqtt://host:0\"", 2, "mqtt.broker", "is not a number from 1 to 65535"),
        ("broker = \"mqtt://host:99999\"", 2, "mqtt.broker", "is not a number from 1 to 65535"),
        ("broker = \"mqtt://user:pw@host\"", 2, "mqtt.broker", "give 'username' and 'password_file' instead"),
        ("broker = \"mqtt://host/topic\"", 2, "mqtt.broker", "has a path or query"),
        ("broker = \"mqtt://\"", 2, "mqtt.broker", "names no host"),
        ("broker = \"mqtts://host\"", 2, "mqtt.broker", "needs 'ca_file'"),
        ("broker = \"mqtt://host\"\nca_file = \"/etc/hostname\"", 3, "mqtt.ca_file", "is only for an mqtts:// broker"),
        ("broker = \"mqtt://host\"\nusername = \"u\"\npassword_file = \"/nonexistent/pw\"", 4, "mqtt.password_file", "'/nonexistent/pw': cannot read the password file: no such file or directory"),
        ("broker = \"mqtt://host\"\npassword_file = \"/etc/hostname\"", 3, "mqtt.password_file", "needs 'username'"),
        ("broker = \"mqtt://host\"\ntopic_prefix = \"kiosk/#\"", 3, "mqtt.topic_prefix", "wildcards"),
        ("broker = \"mqtt://host\"\ndiscovery_prefix = \"/ha\"", 3, "mqtt.discovery_prefix", "must not begin or end with '/'"),
        ("broker = \"mqtt://host\"\ndiscovery = \"yes\"", 3, "mqtt.discovery", "'yes' is not a form of discovery; expected \"device\""),
        ("broker = \"mqtt://host\"\ndiscovery = \"off\"", 3, "mqtt.discovery", "or false"),
        ("broker = \"mqtt://host\"\ndiscovery = 1", 3, "mqtt.discovery", "(one config per entity, for older Home Assistant) or false, found"),
        ("broker = \"mqtt://host\"\nnode = \"hall/1\"", 3, "mqtt.node", "'hall/1' is not a node id; expected 1 to 64 of A-Z a-z 0-9 _ -"),
        ("broker = \"mqtt://host\"\nnode = \"\"", 3, "mqtt.node", "is not a node id"),
        ("broker = \"mqtt://host\"\nbrokr = 1", 3, "mqtt.brokr", "unknown key in [mqtt]; did you mean 'broker'?"),
        ("client_id = \"x\"", 1, "mqtt", "[mqtt] needs 'broker'"),
        ("broker = \"mqtt://host\"\nstate_interval = -0.1", 3, "mqtt.state_interval", "-0.1 is out of range; allowed: a number of seconds from 0 to 60"),
        ("broker = \"mqtt://host\"\n\nstate_interval = 61", 4, "mqtt.state_interval", "61 is out of range"),
        ("broker = \"mqtt://host\"\nstate_interval = \"fast\"", 3, "mqtt.state_interval", "expected a number of seconds from 0 to 60, found"),
        ("broker = \"mqtt://host\"\nstate_interval = nan", 3, "mqtt.state_interval", "out of range"),
    ])
    func refused(body: String, line: Int, key: String, message: String) throws {
        let e = try #require(error("[mqtt]\n" + body + "\n"))
        #expect(e.file == "kiosk.toml" && e.line == line && e.key == key, "\(e)")
        #expect(e.message.contains(message), "\(e)")
    }

    /// check-config's text reads back to the same settings, with the defaults as comments.
    @Test func resolvedTextReadsBack() throws {
        for section in ["[mqtt]\nbroker = \"mqtt://127.0.0.1:1884\"\n",
                        "[mqtt]\nbroker = \"mqtt://[::1]\"\nusername = \"k\"\npassword_file = \"\(existing)\"\ntopic_prefix = \"a/b\"\ndiscovery = false\n",
                        "[mqtt]\nbroker = \"mqtt://127.0.0.1\"\nstate_interval = 0.35\n", "[mqtt]\nbroker = \"mqtt://127.0.0.1\"\nstate_interval = 0\n"] {
            let c = try KioskConfiguration.parse(runtimeConfig(section), file: "kiosk.toml")
            let text = c.resolvedText
            #expect(text.contains("[mqtt]") && text.contains("# client_id: not set: kiosk-<hostname>"), "\(text)")
            let again = try KioskConfiguration.parse(text, file: "resolved.toml")
            #expect(again.mqtt == c.mqtt)
        }
    }
}

/// `kiosk check-config` as a process: [mqtt] printed resolved, and a bad one refused with status 2.
@Suite struct MQTTCheckConfigCommandTests {
    func run(_ section: String) throws -> (KioskExecutable.Finished, String) {
        let folder = try KioskExecutable.temporaryFolder("mqtt-check")
        let path = folder.appendingPathComponent("kiosk.toml").path
        try runtimeConfig(section).write(toFile: path, atomically: true, encoding: .utf8)
        return (try KioskExecutable.run(["check-config", path]), path)
    }

    @Test func goodAndBad() throws {
        let (good, _) = try run("[mqtt]\nbroker = \"mqtt://127.0.0.1\"\n")
        #expect(good.status == 0, "\(good.stderr)")
        #expect(good.stdout.contains("[mqtt]\nbroker = \"mqtt://127.0.0.1:1883\"\n# client_id: not set: kiosk-<hostname>\n"), "\(good.stdout)")
        let (bad, path) = try run("[mqtt]\nbroker = \"mqtts://broker.lan\"\n")
        #expect(bad.status == 2)
        #expect(bad.stderr.hasPrefix("\(path):2: mqtt.broker: an mqtts:// broker needs 'ca_file'"), "\(bad.stderr)")
    }
}
