import Foundation
import KioskConfig
import KioskCore
import Testing
@testable import Runtime

// The display's hooks: screenOn and screenOff on `view = "display"`, run when the loop says the
// panel went on or off, with what did it; real processes, as the other hooks' tests.
extension HookRunnerTests {
    @Test func screenOffAndScreenOnRunTheDisplaysHooksWithWhatDidIt() throws {
        let b = try Bench()
        let out = b.path("screen.txt")
        let program = try b.script("screen", "echo \"$KIOSK_VIEW $KIOSK_EVENT $KIOSK_VALUE $KIOSK_SOURCE\" >> \"$1\"")
        let runner = b.runner([hook("display", .screenOff, program + [out]), hook("display", .screenOn, program + [out])])
        // The first status is where the display starts: no hook runs for it.
        runner.displayChanged(DisplayStatus(isOn: true, cause: .start), now: b.clock.now)
        #expect(runner.runningCount == 0)
        runner.displayChanged(DisplayStatus(isOn: false, cause: .idle), now: b.clock.now)
        #expect(b.pump(runner) { runner.runningCount == 0 }, "\(b.messages)")
        // A change of brightness alone is no screenOn.
        runner.displayChanged(DisplayStatus(isOn: false, brightness: 0.5, cause: .idle), now: b.clock.now)
        #expect(runner.runningCount == 0)
        runner.displayChanged(DisplayStatus(isOn: true, cause: .mqtt), now: b.clock.now)
        #expect(b.pump(runner) { runner.runningCount == 0 }, "\(b.messages)")
        let lines = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n")
        #expect(lines == ["display screenOff off idle", "display screenOn on mqtt"])
    }
}
