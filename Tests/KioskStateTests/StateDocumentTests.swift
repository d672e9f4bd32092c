import KioskState
import Scene
import Testing

/// The state file's document: what it writes reads back exactly, and every other text is a
/// problem with its reason, never a different state.
@Suite("state document")
struct StateDocumentTests {
    static let sample = StateDocument(views: [
        SavedView(name: "button", state: .button(label: "Say \"hi\"\\ \u{1}é", taps: 3)),
        SavedView(name: "canvas", state: .canvas(theme: "dusk")),
        SavedView(name: "slider", state: .slider(value: 0.956)),
        SavedView(name: "switch", state: .toggle(on: true)),
        SavedView(name: "tiny", state: .slider(value: 1e-05)),
    ], announcedTopics: ["homeassistant/device/kiosk/config", "homeassistant/number/kiosk/slider/config", "kiosk/slider/state"],
       deviceComponents: ["homeassistant/device/kiosk/config": ["slider_number": "number", "lamp_switch": "switch", "touch_binary_sensor": "binary_sensor"],
                          "other/device/old-node/config": ["x_text": "text"]])

    @Test func whatIsWrittenReadsBackExactly() throws {
        let text = Self.sample.text
        #expect(try StateDocument.parse(Array(text.utf8)) == Self.sample, "\(text)")
        #expect(text.hasPrefix("{\n  \"version\": 1,\n  \"views\": {\n    \"button\": {\"kind\": \"button\", \"label\":"), "\(text)")
        let empty = StateDocument()
        #expect(try StateDocument.parse(Array(empty.text.utf8)) == empty, "\(empty.text)")
    }

    @Test(arguments: [
        ("", "empty"),
        (" \n", "empty"),
        ("{\"version\": 1, \"views\": {", "not JSON"),
        ("kiosk", "not JSON"),
        ("[1, 2]", "not a JSON object"),
        ("{\"views\": {}}", "no \"version\": not a kiosk state file"),
        ("{\"version\": 2, \"views\": {}}", "version 2 of the state file; this kiosk reads version 1"),
        ("{\"version\": \"1\"}", "version: expected a whole number"),
        ("{\"version\": 1, \"views\": {\"s\": {\"kind\": \"slider\"}}}", "views.s: a slider needs \"value\""),
        ("{\"version\": 1, \"views\": {\"s\": {\"kind\": \"slider\", \"value\": \"high\"}}}", "value: expected a number"),
        ("{\"version\": 1, \"views\": {\"b\": {\"kind\": \"button\", \"label\": \"x\", \"taps\": 1.5}}}", "not what a state file holds"),
        ("{\"version\": 1, \"views\": {\"q\": {\"kind\": \"square\"}}}", "kind 'square' has no saved state"),
        ("{\"version\": 1, \"mqtt\": {\"announced\": [1]}}", "expected a string"),
        ("{\"version\": 1, \"mqtt\": {\"device_components\": {\"t\": {\"a_switch\": 1}}}}", "expected a string"),
        ("{\"version\": 1, \"mqtt\": {\"device_components\": [\"a_switch\"]}}", "expected an object or a list"),
    ])
    func aFileThatIsNotAStateDocumentSaysWhy(text: String, says: String) {
        #expect(throws: StateFileProblem.self) { try StateDocument.parse(Array(text.utf8)) }
        do {
            _ = try StateDocument.parse(Array(text.utf8))
        } catch {
            #expect(error.reason.contains(says), "\(error.reason)")
        }
    }

    /// A file written by the kiosk before the device config's components were kept (no
    /// `device_components`) still reads: its announced topics as they were, no components.
    @Test func aFileFromBeforeDeviceComponentsReads() throws {
        let text = """
            {
              "version": 1,
              "views": {
                "slider": {"kind": "slider", "value": 0.25}
              },
              "mqtt": {"announced": [
                "homeassistant/device/kiosk/config",
                "kiosk/slider/state"
              ]}
            }

            """
        let d = try StateDocument.parse(Array(text.utf8))
        #expect(d.announcedTopics == ["homeassistant/device/kiosk/config", "kiosk/slider/state"])
        #expect(d.deviceComponents.isEmpty)
        #expect(d.views == [SavedView(name: "slider", state: .slider(value: 0.25))])
    }

    /// A file cut short anywhere (a torn write on a file system that does not rename atomically)
    /// never reads as some other state.
    @Test func everyTruncationIsRefused() {
        let bytes = Array(Self.sample.text.utf8)
        // The last bytes are the closing brace and a newline: without the newline it is still whole.
        for n in 0..<(bytes.count - 1) {
            #expect(throws: StateFileProblem.self, "\(n) bytes") { try StateDocument.parse(Array(bytes[0..<n])) }
        }
    }
}
