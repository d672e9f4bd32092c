import Foundation
import KioskTestSupport
import Testing
@testable import KioskConfig

/// `[state]`: where the state file is kept, and what check-config says of a wrong key.
@Suite("[state] settings")
struct StateConfigTests {
    func state(_ section: String) throws -> StateSettings {
        try KioskConfiguration.parse(runtimeConfig(section), file: "kiosk.toml").state
    }

    func problem(_ section: String) -> ConfigError? {
        do {
            _ = try state(section)
            return nil
        } catch let e as ConfigError {
            return e
        } catch {
            return nil
        }
    }

    @Test func withoutTheSectionTheFileIsInTheUnitsStateDirectory() throws {
        let s = try state("")
        #expect(s.enabled && s.directory == nil && s.file == "state.json" && s.writeIntervalSeconds == 2)
        #expect(s.path(environment: [:]) == "/var/lib/kiosk/state.json")
        #expect(s.path(environment: ["STATE_DIRECTORY": "/var/lib/kiosk2:/var/lib/other"]) == "/var/lib/kiosk2/state.json")
    }

    @Test func everyKeyIsReadAndEnabledFalseTurnsItOff() throws {
        let s = try state("[state]\ndirectory = \"/data/kiosk\"\nfile = \"panel.json\"\nwrite_interval = 0.5\n")
        #expect(s.path(environment: ["STATE_DIRECTORY": "/var/lib/kiosk"]) == "/data/kiosk/panel.json" && s.writeIntervalSeconds == 0.5)
        #expect(try state("[state]\nenabled = false\n").path(environment: [:]) == nil)
    }

    @Test(arguments: [
        ("directory = \"state\"", "state.directory", "not an absolute path"),
        ("directory = \"/var/lib/kiosk/\"", "state.directory", "not an absolute path"),
        ("file = \"a/b.json\"", "state.file", "not a file name"),
        ("file = \"..\"", "state.file", "not a file name"),
        ("file = \"\"", "state.file", "not a file name"),
        ("write_interval = 0", "state.write_interval", "0.1"),
        ("write_interval = \"2\"", "state.write_interval", "expected a number"),
        ("enabled = 1", "state.enabled", "true or false"),
        ("intervall = 2", "state.intervall", "unknown key"),
    ])
    func aWrongKeyIsNamedWithItsLine(line: String, key: String, says: String) throws {
        let e = problem("\n[state]\n\(line)\n")
        #expect(e?.line == 3, "\(String(describing: e))")
        #expect(e?.key == key, "\(String(describing: e))")
        #expect(e?.message.contains(says) == true, "\(String(describing: e))")
    }

    @Test func checkConfigPrintsItAndItReadsBack() throws {
        let configuration = try KioskConfiguration.parse(runtimeConfig("[state]\nfile = \"s.json\"\nwrite_interval = 5\n"), file: "kiosk.toml")
        let text = configuration.resolvedText
        #expect(text.contains("[state]\nenabled = true\n# directory: not set: the unit's StateDirectory"), "\(text)")
        #expect(text.contains("file = \"s.json\"\nwrite_interval = 5\n"), "\(text)")
        #expect(try KioskConfiguration.parse(text, file: "resolved").state == configuration.state)
        let moved = try KioskConfiguration.parse(runtimeConfig("[state]\ndirectory = \"/data\"\n"), file: "kiosk.toml")
        #expect(try KioskConfiguration.parse(moved.resolvedText, file: "resolved").state == moved.state)
    }
}
