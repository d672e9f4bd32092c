import Foundation
import InputEvents
import KioskCore
import KioskTestSupport
import Render
import Testing

/// Hooks under a real kernel (Tests/vm/hooks.sh): a tap played through uinput on an FT5406, read
/// by `kiosk run` from evdev, reaches the button's `[[hook]]`, whose program runs with its
/// environment and whose output and exit status reach the log.
@Suite("Hooks on a real kernel", .enabled(if: KernelHarness.isAvailable, "needs qemu-system-x86, busybox-static, cpio, kmod, evemu-tools"))
struct HooksOnRealKernelTests {
    static let config: String = {
        let scene = (try? String(contentsOfFile: KioskRunOnRealKernelTests.configPath, encoding: .utf8)) ?? ""
        return KioskRunOnRealKernelTests.sceneOnly(scene) + """

            [display]
            font = "DejaVuSans.ttf"

            [log]
            serial = "none"
            level = "debug"

            [[hook]]
            view = "button"
            event = "primaryActionTriggered"
            run = ["/payload/hook.sh", "/tmp/hook-env.txt"]
            timeout = 20

            """
    }()

    static let hook = "#!/bin/sh\nenv > \"$1\"\necho pressed $KIOSK_VALUE\n"

    /// One tap on the button (130, 424), the finger resting long enough for any VM's speed.
    static let tap: EvemuTrace = {
        var panel = SyntheticTouchscreen(device: SyntheticTouchscreen.ft5406)
        panel.down(0, at: Point(x: 130, y: 424))
        panel.sync()
        panel.wait(0.08)
        panel.up(0)
        panel.sync()
        return panel.trace
    }()

    @Test func aTapPlayedThroughUinputReachesTheButtonsHook() throws {
        let script = try String(contentsOfFile: KernelHarness.root.appendingPathComponent("Tests/vm/hooks.sh").path, encoding: .utf8)
        let run = try KernelHarness.run(script: script, files: ["kiosk.conf": Self.config, "hook.sh": Self.hook, "tap.evemu": Self.tap.text],
                                        binaries: [KernelHarness.kioskBinary, Font.defaultPath])
        #expect(run.status == 0, "\(run.console)")
        #expect(!run.console.contains("KIOSK-TIMEOUT"), "\(run.console)")
        #expect(run.console.contains("KIOSK-RUN-STATUS 0"), "\(run.console)")
        let env = Set((run.section("KIOSK-HOOK-ENV-BEGIN", "KIOSK-HOOK-ENV-END") ?? "").split(separator: "\n").map(String.init))
        #expect(env.isSuperset(of: ["KIOSK_VIEW=button", "KIOSK_EVENT=primaryActionTriggered", "KIOSK_VALUE=1", "KIOSK_SOURCE=touch"]),
                "\(run.console)")
        let log = (run.section("KIOSK-LOG-BEGIN", "KIOSK-LOG-END") ?? "").split(separator: "\n")
        #expect(log.contains { $0.contains("hook primaryActionTriggered on button (kiosk.conf:") && $0.contains("stdout: pressed 1") },
                "\(run.console)")
    }
}
