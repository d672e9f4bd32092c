import Foundation
import KioskTestSupport
import Render
import Testing

/// `kiosk show` reads the config's `[display]` section before it touches a card: what it takes
/// from there shows in its errors, here on a machine without DRM.
struct ShowCommandTests {
    /// The default config with `[display]` lines replaced, written to a fresh folder.
    func config(_ replacements: [String: String]) throws -> (folder: URL, path: String) {
        var text = try String(contentsOf: KioskExecutable.repositoryRoot.appendingPathComponent("config/kiosk.toml"), encoding: .utf8)
        for (from, to) in replacements {
            #expect(text.contains(from), "config/kiosk.toml has no line \(from)")
            text = text.replacingOccurrences(of: from, with: to)
        }
        let folder = try KioskExecutable.temporaryFolder("show")
        let path = folder.appendingPathComponent("kiosk.toml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return (folder, path)
    }

    @Test func theFontComesFromTheConfig() throws {
        let (folder, path) = try config([#"font = "\#(Font.defaultPath)""#: #"font = "/nonexistent/Kiosk.ttf""#])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try KioskExecutable.run(["show", "--config", path, "--seconds", "0"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("/nonexistent/Kiosk.ttf"), "\(run.stderr)")
        // An explicit --font wins over the config's; without a display it then fails at the card. The
        // config's font must be there to pass the config's check: a file that only starts like one.
        let bogus = folder.appendingPathComponent("Bogus.otf").path
        try Data("OTTO not a font".utf8).write(to: URL(fileURLWithPath: bogus))
        let (other, bogusConfig) = try config([#"font = "\#(Font.defaultPath)""#: #"font = "\#(bogus)""#])
        defer { try? FileManager.default.removeItem(at: other) }
        let failing = try KioskExecutable.run(["show", "--config", bogusConfig, "--card", "/nonexistent/dri/card3", "--seconds", "0"])
        #expect(failing.stderr.contains(bogus), "\(failing.stderr)")
        let overridden = try KioskExecutable.run(["show", "--config", bogusConfig, "--font", Font.defaultPath, "--card", "/nonexistent/dri/card3", "--seconds", "0"])
        #expect(overridden.status == 1)
        #expect(overridden.stderr == "kiosk show: card3: cannot open /nonexistent/dri/card3: No such file or directory\n", "\(overridden.stderr)")
    }

    @Test func theCardComesFromTheConfig() throws {
        let (folder, path) = try config(["[display]\n": "[display]\ncard = \"/nonexistent/dri/card5\"\n"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try KioskExecutable.run(["show", "--config", path, "--seconds", "0"])
        #expect(run.status == 1)
        #expect(run.stderr == "kiosk show: card5: cannot open /nonexistent/dri/card5: No such file or directory\n", "\(run.stderr)")
    }

    @Test func aHeadlessConfigIsRefusedWithWhatToPass() throws {
        let (folder, path) = try config(["[display]\n": "[display]\ncard = \"headless\"\n"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try KioskExecutable.run(["show", "--config", path, "--seconds", "0"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("display.card is \"headless\": kiosk show needs a DRM card; pass --card /dev/dri/cardN"), "\(run.stderr)")
    }
}
