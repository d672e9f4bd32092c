import Testing
@testable import KioskConfig

/// The key table (ConfigKeys.swift) is what the reader and check-config's printer both use: every
/// key of a section is printed under that section's header, set or as a comment saying what
/// happens when it is not, and the printed text reads back.
@Suite("One key table for the reader and the printer")
struct KeyTableTests {
    /// The lines under `header` up to the next header.
    private func section(_ header: String, in text: String) -> String {
        guard let start = text.range(of: "\n\(header)\n") else { return "" }
        let rest = text[start.upperBound...]
        return String(rest[..<(rest.range(of: "\n[")?.lowerBound ?? rest.endIndex)])
    }

    private func expectEveryKey(_ names: [String], under header: String, in text: String) {
        let lines = section(header, in: text).split(separator: "\n").map(String.init)
        for name in names {
            #expect(lines.contains { $0.hasPrefix("\(name) = ") || $0.hasPrefix("# \(name): not set: ") }, "\(header) \(name)")
        }
        // And nothing under the header that the table does not name.
        for line in lines where !line.hasPrefix("#") {
            let key = String(line.prefix { $0 != " " })
            #expect(names.contains(key), "\(header) prints '\(key)', which the key table does not have")
        }
    }

    @Test func everySectionPrintsExactlyItsTablesKeys() throws {
        let config = try KioskConfiguration.parse(runtimeConfig("[mqtt]\nbroker = \"mqtt://127.0.0.1:1883\"\n"), file: "kiosk.toml")
        let text = config.resolvedText
        expectEveryKey(PanelKey.names, under: SectionKey.panel.header, in: text)
        expectEveryKey(SceneKey.names, under: SectionKey.scene.header, in: text)
        expectEveryKey(DisplayKey.names, under: SectionKey.display.header, in: text)
        expectEveryKey(InputKey.names, under: SectionKey.input.header, in: text)
        expectEveryKey(LogKey.names, under: SectionKey.log.header, in: text)
        expectEveryKey(LoopKey.names.filter { $0 != LoopKey.stages.name }, under: SectionKey.loop.header, in: text)
        expectEveryKey(LoopSettings.Stage.names, under: "[loop.stages]", in: text)
        expectEveryKey(ControlKey.names, under: SectionKey.control.header, in: text)
        expectEveryKey(HooksKey.names, under: SectionKey.hooks.header, in: text)
        expectEveryKey(StateKey.names, under: SectionKey.state.header, in: text)
        // ca_file is only for an mqtts:// broker, and is left out for an mqtt:// one.
        expectEveryKey(MQTTKey.names.filter { $0 != MQTTKey.caFile.name }, under: SectionKey.mqtt.header, in: text)
        #expect(try KioskConfiguration.parse(text, file: "kiosk.toml").resolvedText == text)
    }

    @Test func theTopLevelTakesEverySectionAndNothingElse() throws {
        #expect(KioskConfiguration.topLevelKeys == SectionKey.names)
        // Caught by hand: Swift 6.0's Testing (Debian trixie's) has no error returned from #expect(throws:).
        var message: String?
        do throws(ConfigError) {
            _ = try KioskConfiguration.parse(runtimeConfig("[displya]\n"), file: "kiosk.toml")
        } catch {
            message = error.message
        }
        #expect(message?.contains("did you mean 'display'?") == true, "\(String(describing: message))")
    }
}
