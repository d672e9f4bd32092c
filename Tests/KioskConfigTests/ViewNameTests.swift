import KioskTestSupport
import Testing
@testable import KioskConfig

/// Issue 21, part 4: two views the world outside could not tell apart are refused, naming both
/// with file:line. The socket and hooks compare names as Unicode text; MQTT makes each name a
/// topic level (every character outside A-Z a-z 0-9 _ - made `_`), which its topics and
/// unique_ids are built from.
@Suite struct ViewNameTests {
    static let mqtt = "[mqtt]\nbroker = \"mqtt://127.0.0.1\"\n\n"

    /// `ruleScene` and a control of `kind` for each of `names`, each view 6 lines long.
    func scene(_ views: [(String, String)], mqtt: Bool = true) -> String {
        var text = (mqtt ? Self.mqtt : "") + ruleScene
        for (i, (name, kind)) in views.enumerated() {
            text += "[[view]]\nname = \"\(name)\"\nkind = \"\(kind)\"\nparent = \"canvas\"\nframe = [\(300 + 130 * i), 40, 120, 60]\n\n"
        }
        return text
    }

    func refusal(_ text: String) -> ConfigError? {
        do {
            _ = try KioskConfiguration.parse(text, file: "kiosk.toml")
            return nil
        } catch {
            return error
        }
    }

    @Test func viewsWhoseNamesMapToOneTopicLevelAreRefusedNamingBoth() throws {
        let text = scene([("door 1", "switch"), ("door_1", "button")])
        let e = try #require(refusal(text))
        let first = line(of: "name = \"door 1\"", in: text), second = line(of: "name = \"door_1\"", in: text)
        #expect(e.description == "kiosk.toml:\(second): view \"door_1\".name: view 'door_1' and view 'door 1' (kiosk.toml:\(first)) "
            + "have the same MQTT name 'door_1': the same topics <topic_prefix>/door_1/... and unique_ids <node>_door_1_..., "
            + "as every character outside A-Z a-z 0-9 _ - becomes '_'; rename one")
    }

    /// The kiosk's own entities (the display, diagnostics, the screenshot) have topic levels no
    /// control may take; without [mqtt] any view may.
    @Test func aControlNamedAsTheKiosksOwnEntitiesIsRefused() throws {
        let text = scene([("display", "switch")])
        let e = try #require(refusal(text))
        #expect(e.key == "view \"display\".name")
        #expect(e.message.hasPrefix("view 'display' has the MQTT name 'display', which the kiosk's own entities use"), "\(e)")
        #expect(e.line == line(of: "name = \"display\"", in: text))
        #expect(refusal(scene([("Screen shot", "button")])) == nil)
        #expect(try #require(refusal(scene([("last touch", "slider")]))).message.contains("MQTT name 'last_touch'"))
        #expect(refusal(scene([("display", "switch")], mqtt: false)) == nil)
    }

    @Test(arguments: [
        [("door 1", "slider"), ("door/1", "switch")],
        [("héllo", "button"), ("h_llo", "slider")],
        [("é", "switch"), ("ü", "switch")],
        [("", "switch"), ("_", "button")],
        [("a+b", "button"), ("x", "slider"), ("a#b", "button")],
    ])
    func everyCharacterOutsideTheTopicAlphabetCollides(views: [(String, String)]) throws {
        let e = try #require(refusal(scene(views)))
        #expect(e.message.contains("have the same MQTT name"), "\(e)")
        #expect(e.key == "view \"\(views.last!.0)\".name")
    }

    @Test(arguments: [
        // No [mqtt]: no topic is made of the names, and the socket tells them apart.
        ([("door 1", "switch"), ("door_1", "button")], false),
        // Only controls are published: a square may share a control's level.
        ([("door 1", "switch")], true),
        // Names that differ within the topic alphabet, in case or by '-' and '_'.
        ([("door-1", "switch"), ("door_1", "button"), ("Door_1", "slider")], true),
    ])
    func namesThatStayApartAreAccepted(views: [(String, String)], mqtt: Bool) throws {
        var text = scene(views, mqtt: mqtt)
        if views.count == 1 {
            text += "[[view]]\nname = \"door_1\"\nkind = \"square\"\nparent = \"canvas\"\nframe = [600, 300, 50, 50]\n"
        }
        #expect(refusal(text) == nil, "\(String(describing: refusal(text)))")
    }

    /// "café" written precomposed and decomposed: two names in the file, one to the socket.
    @Test func namesEqualAsUnicodeTextAreRefusedForTheSocketWithOrWithoutMQTT() throws {
        for mqtt in [false, true] {
            let text = scene([("caf\u{E9}", "switch"), ("cafe\u{301}", "slider")], mqtt: mqtt)
            let e = try #require(refusal(text))
            let first = line(of: "name = \"caf\u{E9}\"", in: text)
            #expect(e.line == first + 6)
            #expect(e.message == "view 'cafe\u{301}' has the name of view 'caf\u{E9}' (kiosk.toml:\(first)) to the control socket and hooks, "
                + "which compare names as Unicode text (one is the other's canonical equivalent); rename one")
        }
    }
}
