import Foundation
import KioskCore
import KioskTestSupport
import Testing

/// Hooks end to end: `kiosk run` headless, a tap asked for through the control socket
/// (`kiosk control tap`, through the panel's path), the hook's program run with its environment
/// and its output and exit status in the log.
@Suite("kiosk run and hooks", .serialized)
struct HookRunCommandTests {
    @Test func aTapOnTheButtonRunsItsHookWithItsEnvironmentAndLogsItsOutputAndExit() throws {
        let folder = try temporaryFolder("hook-run")
        let env = folder.appendingPathComponent("env.txt").path
        let program = folder.appendingPathComponent("open-door").path
        try "#!/bin/sh\nenv > \"$1\"\necho door opened for \"$KIOSK_VALUE\" taps\nexit 3\n".write(toFile: program, atomically: true, encoding: .utf8)
        chmod(program, 0o755)
        let socket = folder.appendingPathComponent("control.sock").path
        let config = try headlessConfig(tail: """

            [control]
            socket = "\(socket)"

            [[hook]]
            view = "button"
            event = "primaryActionTriggered"
            run = ["\(program)", "\(env)"]
            """)
        let k = try KioskProcess(config: config)
        #expect(k.waitFor("no touchscreen yet"), "\(k.text)")
        let tap = try KioskExecutable.run(["control", "--socket", socket, "tap", "130", "424"])
        #expect(tap.status == 0, "\(tap.stderr)")
        #expect(k.waitFor("hook primaryActionTriggered on button (\(k.configPath):"), "\(k.text)")
        #expect(k.waitFor("ended: exit status 3"), "\(k.text)")
        let output = try #require(k.lines(containing: "stdout: door opened for 1 taps").first, "\(k.text)")
        #expect(output.contains("hook.location=\(k.configPath):"), "\(output)")
        let lines = Set(try String(contentsOfFile: env, encoding: .utf8).split(separator: "\n").map(String.init))
        #expect(lines.isSuperset(of: ["KIOSK_VIEW=button", "KIOSK_EVENT=primaryActionTriggered", "KIOSK_VALUE=1", "KIOSK_SOURCE=socket"]),
                "\(lines)")
        let time = try #require(lines.first { $0.hasPrefix("KIOSK_TIME=") }.flatMap { Double($0.dropFirst("KIOSK_TIME=".count)) })
        #expect(time > 0 && time < 60, "\(time)")
        #expect(k.stop() == 0)
    }
}
