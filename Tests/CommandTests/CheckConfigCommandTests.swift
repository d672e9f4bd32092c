import Foundation
import KioskTestSupport
import Testing
@testable import KioskConfig

/// `kiosk check-config` as an integrator runs it: the built executable, its output, its exit status.
@Suite("kiosk check-config, the command")
struct CheckConfigCommandTests {

    func checkConfig(_ arguments: [String]) throws -> KioskExecutable.Finished {
        try KioskExecutable.run(["check-config"] + arguments)
    }

    func temporaryFile(_ text: String) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent("kiosk.conf").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aGoodFilePrintsItsResolvedConfigAndExitsZero() throws {
        let r = try checkConfig(["config/kiosk.toml"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.isEmpty)
        for header in ["[panel]", "[scene]", "[[view]]", "[[gesture]]", "[display]", "[input]", "[log]", "[loop]", "[loop.stages]"] {
            #expect(r.stdout.contains("\n\(header)\n"), "\(header)")
        }
        #expect(r.stdout.contains("\n# card: not set: the first card with a connected connector\n"))
        let printed = try KioskConfiguration.parse(r.stdout, file: "printed.toml")
        let file = try KioskConfiguration.load(path: defaultConfigPath)
        #expect(content(printed).scene == content(file).scene)
        #expect(printed.runtime == file.runtime)
    }

    @Test func aBadFilePrintsTheErrorLineOnStandardErrorAndExitsTwo() throws {
        var text = try String(contentsOfFile: defaultConfigPath, encoding: .utf8)
        let displayRotation = try #require(text.range(of: "\nrotation = 0 "))  // [display] comes before [input]
        text.replaceSubrange(displayRotation, with: "\nrotation = 45 ")
        let path = try temporaryFile(text)
        let r = try checkConfig([path])
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr == "\(path):\(line(of: "rotation = 45", in: text)): display.rotation: 45 is not one of: 0, 90, 180, 270 (degrees clockwise)\n")
    }

    /// Issue 21, part 4: `door 1` and `door_1` would share their MQTT topics and unique_ids, so the
    /// file is refused, naming both views with their file and line.
    @Test func twoViewsWithOneMQTTNameAreRefusedNamingBoth() throws {
        var text = try String(contentsOfFile: defaultConfigPath, encoding: .utf8)
        for (name, x) in [("door 1", 600), ("door_1", 700)] {
            text += "\n[[view]]\nname = \"\(name)\"\nkind = \"switch\"\nparent = \"canvas\"\nframe = [\(x), 20, 80, 40]\n"
        }
        let path = try temporaryFile(text + "\n[mqtt]\nbroker = \"mqtt://127.0.0.1\"\n")
        let r = try checkConfig([path])
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        let first = line(of: "name = \"door 1\"", in: text), second = line(of: "name = \"door_1\"", in: text)
        #expect(r.stderr.hasPrefix("\(path):\(second): view \"door_1\".name: view 'door_1' and view 'door 1' (\(path):\(first)) "
            + "have the same MQTT name 'door_1'"), "\(r.stderr)")
    }

    /// Issue 15's rule: /etc/kiosk/kiosk.conf when it exists, else the checkout's config/kiosk.toml, and the command says which.
    @Test(.enabled(if: !FileManager.default.fileExists(atPath: "/etc/kiosk/kiosk.conf"), "this machine has a kiosk config"))
    func withoutAnArgumentItChecksTheCheckoutsConfigAndSaysSo() throws {
        let r = try checkConfig([])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr == "kiosk check-config: config config/kiosk.toml (the checkout's; /etc/kiosk/kiosk.conf does not exist)\n")
        #expect(r.stdout.contains("[input]"))
    }
}
