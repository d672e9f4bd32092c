import Foundation
import KioskTestSupport
import Testing

/// `kiosk control` against a running `kiosk run` (headless), as an integrator uses them.
@Suite("kiosk control against kiosk run")
struct ControlCommandTests {
    /// A headless kiosk with its control socket in its folder.
    func startKiosk() throws -> (KioskProcess, String) {
        let k = try KioskProcess(config: try headlessConfig(tail: "[control]\nsocket = \"@FOLDER@/control.sock\"\n"))
        let path = k.folder.appendingPathComponent("control.sock").path
        #expect(k.waitFor("control socket listening"), "\(k.text)")
        return (k, path)
    }

    func control(_ path: String, _ arguments: [String]) throws -> Finished {
        try runToEnd(kioskExecutable, ["control", "--socket", path] + arguments)
    }

    func state(_ path: String) throws -> [[String: Any]] {
        let done = try control(path, ["state"])
        #expect(done.status == 0, "\(done.stderr)")
        let o = try JSONSerialization.jsonObject(with: Data(done.stdout.utf8)) as? [String: Any]
        return o?["views"] as? [[String: Any]] ?? []
    }

    func view(_ name: String, in views: [[String: Any]]) -> [String: Any] { views.first { $0["name"] as? String == name } ?? [:] }

    @Test func setTapSwipeAndStateEndToEnd() throws {
        let (k, path) = try startKiosk()
        defer { _ = k.stop() }
        #expect(try control(path, ["set", "slider", "0.25"]).status == 0)
        #expect(try control(path, ["set", "switch", "on"]).status == 0)
        #expect(try control(path, ["set", "button", "Open"]).status == 0)
        #expect(try control(path, ["tap", "130", "424"]).status == 0)
        var views = try state(path)
        #expect(view("slider", in: views)["value"] as? Double == 0.25)
        #expect(view("switch", in: views)["on"] as? Bool == true)
        // The tap plays over 50 ms on the kiosk's clock: asked again until it has.
        for _ in 0..<50 where view("button", in: views)["taps"] as? Int != 1 {
            usleep(20_000)
            views = try state(path)
        }
        #expect(view("button", in: views)["taps"] as? Int == 1)
        // From the knob (at 0.25 of the track) to the track's end.
        let knob = view("slider", in: views)["knob"] as? [Double] ?? [0, 0]
        #expect(try control(path, ["swipe", "\(knob[0])", "\(knob[1])", "559", "\(knob[1])", "0.2"]).status == 0)
        for _ in 0..<50 where view("slider", in: views)["value"] as? Double != 1 {
            usleep(20_000)
            views = try state(path)
        }
        #expect(view("slider", in: views)["value"] as? Double == 1)
    }

    @Test func aRefusedRequestExitsWith1AndSaysWhy() throws {
        let (k, path) = try startKiosk()
        defer { _ = k.stop() }
        let bad = try control(path, ["set", "nope", "0.5"])
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("no view named 'nope'"), "\(bad.stderr)")
        let range = try control(path, ["set", "slider", "7"])
        #expect(range.status == 1)
        #expect(range.stderr.contains("out of range"), "\(range.stderr)")
        let gone = try control(k.folder.appendingPathComponent("nothing.sock").path, ["state"])
        #expect(gone.status == 1)
        #expect(gone.stderr.contains("cannot reach the kiosk"), "\(gone.stderr)")
        let usage = try control(path, ["tap", "1"])
        #expect(usage.status != 0 && usage.status != 1)
        #expect(usage.stderr.contains("usage: kiosk control tap X Y"), "\(usage.stderr)")
        #expect(k.stop() == 0)
        #expect(!FileManager.default.fileExists(atPath: path), "the socket file is removed when kiosk stops")
    }

    @Test func watchPrintsEventsAsTheyCome() throws {
        let (k, path) = try startKiosk()
        defer { _ = k.stop() }
        let watch = Process()
        watch.executableURL = kioskExecutable
        watch.arguments = ["control", "--socket", path, "watch"]
        let out = Pipe()
        watch.standardOutput = out
        watch.standardError = FileHandle.nullDevice
        let seen = LockedText()
        let arrived = DispatchSemaphore(value: 0)
        out.fileHandleForReading.readabilityHandler = { h in
            let d = h.availableData
            if d.isEmpty { h.readabilityHandler = nil } else { seen.append(String(decoding: d, as: UTF8.self)) }
            arrived.signal()
        }
        try watch.run()
        // SIGKILL: a child of the test runner may inherit a mask that blocks SIGTERM.
        defer { kill(watch.processIdentifier, SIGKILL); watch.waitUntilExit() }
        // Until the watcher has subscribed, changes pass it by: change the slider until it sees one.
        var value = 0.1
        while !seen.text.contains("\"view\": \"slider\""), value < 0.9 {
            _ = try control(path, ["set", "slider", "\(value)"])
            value += 0.05
            _ = arrived.wait(timeout: .now() + 0.2)
        }
        #expect(try control(path, ["tap", "130", "424"]).status == 0)
        let end = DispatchTime.now() + 10
        while !seen.text.contains("primaryActionTriggered"), arrived.wait(timeout: end) == .success {}
        let line = seen.text.split(separator: "\n").first { $0.contains("primaryActionTriggered") } ?? ""
        #expect(line.contains("\"event\": \"control\"") && line.contains("\"taps\": 1") && line.contains("\"source\": \"socket\""), "\(seen.text)")
    }
}

/// Text appended from a pipe's handler and read by the test.
final class LockedText: @unchecked Sendable {
    private let lock = NSLock()
    private var value = ""
    func append(_ s: String) { lock.lock(); value += s; lock.unlock() }
    var text: String { lock.lock(); defer { lock.unlock() }; return value }
}
