import Foundation
import KioskCore
import KioskState
import KioskTestSupport
import Scene
import Testing
@testable import Runtime
#if canImport(Glibc)
import Glibc
#endif

/// The state file in the live loop, on the virtual clock: restored before the first frame, written
/// coalesced during a drag, kept by a reload, written at SIGTERM.
@Suite("state in the loop")
struct StateLoopTests {
    final class Run {
        let stateFolder: URL
        let run: LiveLoopRun
        var loop: KioskLoop { run.loop }
        var file: StateFile { StateFile(path: stateFolder.appendingPathComponent("state.json").path) }

        init(_ name: String, saved: String? = nil, interval: Double = 2) throws {
            stateFolder = try KioskExecutable.temporaryFolder("loop-state-\(name)")
            if let saved { try saved.write(to: stateFolder.appendingPathComponent("state.json"), atomically: false, encoding: .utf8) }
            run = try LiveLoopRun("state-\(name)", sections: "\n[state]\ndirectory = \"\(stateFolder.path)\"\nwrite_interval = \(interval)\n")
        }

        deinit { try? FileManager.default.removeItem(at: stateFolder) }

        var onDisk: [String: SavedViewState] {
            guard case .document(let d) = file.read() else { return [:] }
            return Dictionary(d.views.map { ($0.name, $0.state) }, uniquingKeysWith: { a, _ in a })
        }

        func view(_ name: String) -> ViewState { loop.scene.views[loop.scene.viewID(named: name)!.rawValue] }
    }

    @Test func theSavedStateIsInTheSceneBeforeTheFirstFrame() throws {
        let r = try Run("restore", saved: "{\"version\": 1, \"views\": {\"slider\": {\"kind\": \"slider\", \"value\": 0.956}}}")
        #expect(r.loop.output?.flipCount == 0)
        #expect(r.view("slider").slider?.value == 0.956)
        #expect(r.run.handler.entries.contains { $0.message.description == "state restored" })
    }

    /// The write rate docs/state.md states: a finger dragging the slider's knob to and fro without a
    /// pause, at 60 reports a second, for five minutes of the kiosk's clock.
    @Test func aContinuousDragIsWrittenOnceAnInterval() throws {
        let r = try Run("drag", interval: 2)
        r.loop.tick(at: r.run.clock.now)
        let before = r.loop.stateStore?.counters.writes ?? 0
        let fingers = r.run.fingers
        let finger = fingers.down(Point(x: 410, y: 424), after: Fingers.frame)[0]
        let minutes = 5.0
        let frames = Int(minutes * 60 * 60)
        for i in 1...frames {
            // Along the track and back every 4 s.
            let phase = Double(i % 240) / 240
            let x = 290 + 240 * (phase < 0.5 ? phase * 2 : 2 - phase * 2)
            fingers.move([finger: Point(x: x, y: 424)])
        }
        let duringDrag = (r.loop.stateStore?.counters.writes ?? 0) - before
        fingers.up([finger])
        fingers.wait(0.5)
        r.loop.tick(at: r.run.clock.now)
        let writes = (r.loop.stateStore?.counters.writes ?? 0) - before
        let perHour = Double(duringDrag) * 60 / minutes
        guard let c = r.loop.stateStore?.counters else { return }
        print("state writes during a continuous drag: \(duringDrag) in \(Int(minutes)) min (\(Int(perHour)) an hour) at write_interval 2 s; "
            + "a write took \(c.totalWriteMilliseconds / Double(max(1, c.writes))) ms on average, \(c.slowestWriteMilliseconds) ms at most")
        #expect(duringDrag <= Int(minutes * 60 / 2) + 1 && duringDrag >= Int(minutes * 60 / 2) - 1, "\(duringDrag)")
        // The final value, at the lift.
        #expect(writes == duringDrag + 1)
        #expect(r.onDisk["slider"] == .slider(value: r.view("slider").slider?.value ?? .nan))
    }

    @Test func aReloadKeepsTheStateAndTheFileFollowsTheNewConfig() throws {
        let r = try Run("reload")
        #expect(throws: Never.self) { try r.loop.apply(.setValue(view: "slider", 0.3), source: .socket).get() }
        #expect(throws: Never.self) { try r.loop.apply(.setLabel(view: "button", "Hi"), source: .socket).get() }
        r.loop.tick(at: r.run.clock.now)
        // The switch renamed to lamp: its state goes, lamp starts from the file's value.
        let path = r.loop.options.configPath
        let text = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: "name = \"switch\"", with: "name = \"lamp\"")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        r.run.clock.advance(by: 3)
        r.loop.reload(at: r.run.clock.now)
        r.loop.tick(at: r.run.clock.now)
        #expect(r.view("slider").slider?.value == 0.3 && r.view("button").button?.label == "Hi")
        #expect(r.onDisk["slider"] == .slider(value: 0.3) && r.onDisk["button"] == .button(label: "Hi", taps: 0))
        #expect(r.onDisk["switch"] == nil && r.onDisk["lamp"] == .toggle(on: false), "\(r.onDisk)")
    }

    @Test func sigtermWritesWhatTheIntervalHeldBack() throws {
        let r = try Run("sigterm", interval: 60)
        r.loop.tick(at: r.run.clock.now)
        #expect(throws: Never.self) { try r.loop.apply(.setOn(view: "switch", true), source: .socket).get() }
        r.run.clock.advance(by: 1)
        r.loop.tick(at: r.run.clock.now)
        #expect(r.onDisk["switch"] == .toggle(on: false))
        _ = r.loop.finish(.signal(SIGTERM))
        #expect(r.onDisk["switch"] == .toggle(on: true))
    }
}
