import Foundation
import InputEvents
import KioskCore
import KioskTestSupport
import Render
import Testing

/// The suite's VM, waited for before its test cases run (`KernelHarness.AfterItsVM`); they report its errors.
private func theVM() async { _ = try? await HooksOnRealKernelTests.run.value }

/// Hooks, the control socket and MQTT under a real kernel (Tests/vm/hooks.sh): a tap played
/// through uinput on an FT5406, read by `kiosk run` from evdev, reaches the button's `[[hook]]`
/// (whose program runs with its environment and whose output and exit status reach the log), a
/// `kiosk control watch` subscribed to the control socket, and a Mosquitto broker on this machine,
/// reached from the VM through QEMU's user-mode network.
@Suite("Hooks on a real kernel",
       .enabled(if: KernelHarness.isAvailable && HostBroker.available, "needs qemu-system-x86, busybox-static, cpio, kmod, evemu-tools, mosquitto and mosquitto-clients"),
       .afterItsVM(theVM))
struct HooksOnRealKernelTests {
    static func config(brokerPort: Int) -> String {
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

            [control]
            socket = "/tmp/control.sock"

            [mqtt]
            broker = "mqtt://10.0.2.2:\(brokerPort)"
            client_id = "kiosk-vm"
            topic_prefix = "kiosk/vm"

            """
    }

    static let hook = "#!/bin/sh\nenv > \"$1\"\necho pressed $KIOSK_VALUE\n"

    /// One tap on the button (130, 424), the finger resting long enough for any VM's speed.
    static let tap: EvemuTrace = {
        let panel = Fingers(panel: SyntheticTouchscreen.ft5406, clock: VirtualClock(Instant(seconds: 1)))
        panel.up(panel.down(Point(x: 130, y: 424)), after: 0.08)
        return panel.trace
    }()

    /// The VM's run, and what a subscriber on this machine's broker heard meanwhile.
    struct Heard {
        var run: KernelHarness.Run
        /// Whether the press and the clean stop's offline reached the broker (within 20 s of the VM's end).
        var pressAndOffline: Bool
        var broker: [String]
    }

    static let run = Task<Heard, any Error> {
        let broker = try await HostBroker.start()
        defer { broker.stop() }
        let subscriber = try await broker.subscribe("kiosk/vm/#")
        let script = try String(contentsOfFile: KernelHarness.root.appendingPathComponent("Tests/vm/hooks.sh").path, encoding: .utf8)
        let run = try await KernelHarness.run(script: script, files: ["kiosk.conf": config(brokerPort: broker.port), "hook.sh": hook,
                                                                      "tap.evemu": tap.text],
                                              binaries: [KernelHarness.kioskBinary, Font.defaultPath], network: true)
        let heard = await subscriber.waitFor(seconds: 20) { lines in
            lines.contains("kiosk/vm/button/event {\"event_type\":\"press\",\"taps\":1}") && lines.contains("kiosk/vm/availability offline")
        }
        return Heard(run: run, pressAndOffline: heard, broker: subscriber.lines)
    }

    @Test func aTapPlayedThroughUinputReachesTheHookASubscriberAndTheBroker() async throws {
        let heard = try await Self.run.value
        let run = heard.run
        #expect(run.status == 0, "\(run.console)")
        #expect(!run.console.contains("KIOSK-TIMEOUT"), "\(run.console)")
        #expect(run.console.contains("KIOSK-RUN-STATUS 0"), "\(run.console)")
        let env = Set((run.section("KIOSK-HOOK-ENV-BEGIN", "KIOSK-HOOK-ENV-END") ?? "").split(separator: "\n").map(String.init))
        #expect(env.isSuperset(of: ["KIOSK_VIEW=button", "KIOSK_EVENT=primaryActionTriggered", "KIOSK_VALUE=1", "KIOSK_SOURCE=touch"]),
                "\(run.console)")
        let log = (run.section("KIOSK-LOG-BEGIN", "KIOSK-LOG-END") ?? "").split(separator: "\n")
        #expect(log.contains { $0.contains("hook primaryActionTriggered on button (kiosk.conf:") && $0.contains("stdout: pressed 1") },
                "\(run.console)")
        // The subscriber: the slider set through the socket (its source said), then the tap.
        let watched = (run.section("KIOSK-WATCH-BEGIN", "KIOSK-WATCH-END") ?? "").split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(watched.contains { $0["event"] as? String == "control" && $0["view"] as? String == "slider"
                && $0["name"] as? String == "valueChanged" && $0["source"] as? String == "socket" }, "\(run.console)")
        #expect(watched.contains { $0["event"] as? String == "control" && $0["view"] as? String == "button"
                && $0["name"] as? String == "primaryActionTriggered" && $0["taps"] as? Int == 1 && $0["source"] as? String == "touch" },
                "\(run.console)")
        // The broker: the press as an event, the button's state, and the clean stop's offline.
        #expect(heard.pressAndOffline, "broker: \(heard.broker)\n\(run.console)")
        #expect(heard.broker.contains("kiosk/vm/availability online"), "broker: \(heard.broker)")
    }
}

/// A Mosquitto broker on 127.0.0.1 and a free port, for a VM to reach at 10.0.2.2, and its
/// `mosquitto_sub`, each writing to a file the test waits on.
final class HostBroker {
    static var available: Bool {
        toolsPresent(["/usr/sbin/mosquitto", "/usr/bin/mosquitto_sub"])
    }

    let folder: URL
    let port: Int
    private var processes: [Process] = []

    /// Started, and running (its log says so) when it returns.
    static func start() async throws -> HostBroker {
        let broker = try HostBroker()
        guard await broker.log.waitFor(seconds: 10, until: { $0.contains { $0.contains(" running") } }) else {
            throw HostBrokerError(description: "mosquitto did not start: \(broker.log.lines)")
        }
        return broker
    }

    private var log: OutputFile { OutputFile(path: folder.appendingPathComponent("broker.log").path) }

    private init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-vm-broker-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        port = try freeLocalPort()
        let config = folder.appendingPathComponent("mosquitto.conf")
        try "listener \(port) 127.0.0.1\npersistence false\nallow_anonymous true\nlog_dest stderr\n"
            .write(to: config, atomically: true, encoding: .utf8)
        _ = try start("/usr/sbin/mosquitto", ["-c", config.path], output: "broker.log")
    }

    deinit { stop() }

    /// `mosquitto_sub -v` on `topic`: one line per message, `topic payload`; connected when it returns.
    func subscribe(_ topic: String) async throws -> OutputFile {
        let out = try start("/usr/bin/mosquitto_sub", ["-h", "127.0.0.1", "-p", "\(port)", "-v", "-t", topic, "-t", "$SYS/broker/version"],
                            output: "sub.txt")
        // The broker's version is retained: it comes once the subscription is in place.
        guard await out.waitFor(seconds: 20, until: { $0.contains { $0.hasPrefix("$SYS/broker/version ") } }) else {
            throw HostBrokerError(description: "mosquitto_sub did not subscribe: \(out.lines)")
        }
        return out
    }

    /// SIGKILL: the test process's children inherit its signal mask, in which TERM is blocked.
    func stop() {
        for p in processes where p.isRunning {
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
        }
        processes = []
        try? FileManager.default.removeItem(at: folder)
    }

    private func start(_ executable: String, _ arguments: [String], output name: String) throws -> OutputFile {
        let path = folder.appendingPathComponent(name).path
        guard FileManager.default.createFile(atPath: path, contents: nil) else { throw HostBrokerError(description: "cannot create \(path)") }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        p.standardOutput = FileHandle(forWritingAtPath: path)
        p.standardError = FileHandle(forWritingAtPath: path)
        try p.run()
        processes.append(p)
        return OutputFile(path: path)
    }
}

/// A file a program writes its output to, read line by line.
struct OutputFile {
    let path: String
    var lines: [String] { ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init) }

    /// Until `condition` holds on the lines, or `seconds` pass (looked at every 50 ms, without
    /// holding a thread); true when it held.
    func waitFor(seconds: Double, until condition: ([String]) -> Bool) async -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if condition(lines) { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return condition(lines)
    }
}

struct HostBrokerError: Error, CustomStringConvertible {
    var description: String
}
