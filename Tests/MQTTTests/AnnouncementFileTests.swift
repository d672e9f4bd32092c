import Foundation
import KioskLog
import KioskTestSupport
import MQTT
import Testing

/// The file `kiosk run` keeps the announced topics in until the state store does: written whole
/// (no temporary file left), read back the same; a missing file is no topic, a foreign or torn
/// one a warning that names it and why.
@Suite struct AnnouncementFileTests {
    let folder: URL
    let handler = InMemoryLogHandler()
    var path: String { folder.appendingPathComponent("mqtt-announced").path }
    var logger: Logger {
        let handler = handler
        return Logger(label: "test", factory: { _ in handler })
    }

    init() throws { folder = try KioskExecutable.temporaryFolder("announced") }

    @Test func whatIsRememberedIsReadBackByTheNextRun() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = AnnouncementFile(path: path, logger: logger)
        #expect(first.announcedTopics.isEmpty, "no file yet: nothing announced")
        let topics: Set<String> = ["kiosk/hall/availability", "kiosk/hall/slider/state", "homeassistant/number/kiosk-hall/slider/config"]
        first.remember(announced: topics)
        #expect(AnnouncementFile(path: path, logger: logger).announcedTopics == topics)
        #expect(!FileManager.default.fileExists(atPath: path + ".tmp"), "the temporary file was renamed over the old one")
        first.remember(announced: [])
        #expect(AnnouncementFile(path: path, logger: logger).announcedTopics.isEmpty)
        #expect(handler.entries.isEmpty, "\(handler.entries)")
    }

    @Test(arguments: [
        ("not kiosk's\nkiosk/x/state\n", "its first line is not"),
        ("\(AnnouncementFile.header)\nkiosk/x/sta", "cut short"),
    ])
    func aForeignOrTornFileIsAWarningAndNothingAnnounced(text: String, reason: String) throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(AnnouncementFile(path: path, logger: logger).announcedTopics.isEmpty)
        let warning = try #require(handler.entries.first { $0.level == .warning })
        #expect(warning.metadata["mqtt.announced.file"] == "\(path)")
        #expect("\(warning.metadata["mqtt.error"] ?? "")".contains(reason), "\(warning)")
    }

    @Test func aFolderThatCannotBeWrittenIsAWarningAndTheRunGoesOn() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let memory = AnnouncementFile(path: folder.appendingPathComponent("missing/mqtt-announced").path, logger: logger)
        memory.remember(announced: ["kiosk/x/availability"])
        #expect(memory.announcedTopics.isEmpty, "not remembered: not written")
        #expect(handler.entries.contains { $0.level == .warning && $0.message.description.contains("cannot remember") })
    }
}
