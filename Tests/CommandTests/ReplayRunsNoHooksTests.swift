import Foundation
import InputEvents
import KioskCore
import KioskTestSupport
import Testing

/// `kiosk replay` stays deterministic and offline: a config's hooks are read and checked, never run.
@Suite("kiosk replay and hooks")
struct ReplayRunsNoHooksTests {
    @Test func aReplayedTapOnTheButtonFiresItsActionButRunsNoHook() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-replay-hooks-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let ran = dir.appendingPathComponent("ran").path
        let program = dir.appendingPathComponent("hook").path
        // Run by /bin/sh: exec of a file this process has just written can meet ETXTBSY while
        // another test's child still holds it for a moment.
        try "touch \"$1\"\n".write(toFile: program, atomically: true, encoding: .utf8)
        let config = try String(contentsOf: repositoryRoot.appendingPathComponent("config/kiosk.toml"), encoding: .utf8)
            + "\n[[hook]]\nview = \"button\"\nevent = \"primaryActionTriggered\"\nrun = [\"/bin/sh\", \"\(program)\", \"\(ran)\"]\n"
        let configPath = dir.appendingPathComponent("kiosk.conf").path
        try config.write(toFile: configPath, atomically: true, encoding: .utf8)
        let k = Fingers(panel: SyntheticTouchscreen.ft5406)
        k.tap(at: Point(x: 130, y: 424))
        let trace = dir.appendingPathComponent("tap.evemu").path
        try k.traceText.write(toFile: trace, atomically: true, encoding: .utf8)

        let r = try KioskExecutable.run(["replay", trace, "--config", configPath])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains(#""event": "primaryActionTriggered""#), "\(r.stdout)")
        #expect(!FileManager.default.fileExists(atPath: ran))
        // The same program, run by hand, does write the file: its absence above means something.
        let p = try Process.run(URL(fileURLWithPath: "/bin/sh"), arguments: [program, ran])
        p.waitUntilExit()
        #expect(FileManager.default.fileExists(atPath: ran))
    }
}
