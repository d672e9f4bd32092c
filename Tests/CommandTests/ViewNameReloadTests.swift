import Foundation
import KioskTestSupport
import Testing

/// Issue 21, part 4, at a reload: a file whose views `door 1` and `door_1` would share their MQTT
/// topics is refused as any bad file is, naming both views, and the kiosk runs on.
@Suite struct ViewNameReloadTests {
    @Test func aReloadWithTwoViewsOfOneMQTTNameIsRefusedNamingBoth() throws {
        // A broker nobody listens on: MQTT retries meanwhile, the names are what is checked.
        let good = try headlessConfig(tail: "\n[mqtt]\nbroker = \"mqtt://127.0.0.1:1\"\n")
        let k = try KioskProcess(config: good)
        defer { _ = k.stop() }
        #expect(k.waitFor("no touchscreen yet"), "\(k.text)")
        var bad = good.replacingOccurrences(of: "@FOLDER@", with: k.folder.path)
        for (name, x) in [("door 1", 600), ("door_1", 700)] {
            bad += "\n[[view]]\nname = \"\(name)\"\nkind = \"switch\"\nparent = \"canvas\"\nframe = [\(x), 20, 80, 40]\n"
        }
        try bad.write(toFile: k.configPath, atomically: true, encoding: .utf8)
        k.signal(SIGHUP)
        #expect(k.waitFor("config reload failed"), "\(k.text)")
        let failed = try #require(k.lines(containing: "config reload failed").first)
        let first = line(of: "name = \"door 1\"", in: bad), second = line(of: "name = \"door_1\"", in: bad)
        #expect(failed.contains("\(k.configPath):\(second): view \"door_1\".name: view 'door_1' and view 'door 1' "
            + "(\(k.configPath):\(first)) have the same MQTT name 'door_1'"), "\(failed)")
        #expect(failed.contains("still running generation 1"), "\(failed)")
    }
}
