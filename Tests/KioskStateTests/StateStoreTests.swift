import Foundation
import KioskConfig
import KioskCore
import KioskLog
import KioskState
import KioskTestSupport
import Scene
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The store on real files and the default scene, on a virtual clock: what it restores, what it
/// refuses, when it writes.
@Suite("state store")
struct StateStoreTests {
    final class Rig {
        let folder: URL
        let file: StateFile
        let handler = InMemoryLogHandler()
        let scene: KioskScene
        let store: StateStore
        let clock = VirtualClock(0.0)

        init(_ name: String, interval: Double = 2, fileText: String? = nil) throws {
            folder = try KioskExecutable.temporaryFolder("state-\(name)")
            file = StateFile(path: folder.appendingPathComponent("state.json").path)
            if let fileText { try fileText.write(toFile: file.path, atomically: false, encoding: .utf8) }
            scene = try KioskScene(KioskConfiguration.load(path: KioskExecutable.defaultConfigPath).scene)
            var logger = Logger(label: "test", factory: { [handler] _ in handler })
            logger.logLevel = .trace
            store = StateStore(file: file, interval: interval, logger: logger)
        }

        deinit { try? FileManager.default.removeItem(at: folder) }

        func lines(_ level: Logger.Level) -> [String] {
            handler.entries.filter { $0.level == level }.map { "\($0.message) \($0.metadata.map { "\($0.key)=\($0.value)" }.sorted())" }
        }

        func value(_ name: String) -> ViewState { scene.views[scene.viewID(named: name)!.rawValue] }

        /// The file's views by name, to compare with the scene's.
        var onDiskViews: [String: SavedViewState]? {
            onDisk.map { d in Dictionary(d.views.map { ($0.name, $0.state) }, uniquingKeysWith: { a, _ in a }) }
        }

        var sceneViews: [String: SavedViewState] {
            Dictionary(scene.savedViews().map { ($0.name, $0.state) }, uniquingKeysWith: { a, _ in a })
        }

        var onDisk: StateDocument? {
            if case .document(let d) = file.read() { return d }
            return nil
        }

        /// Runs the store at `seconds` on the clock, as the loop does after a frame.
        func wake(at seconds: Double, fingers: Int = 0) {
            clock.advance(by: seconds - clock.now.seconds)
            store.observe(scene)
            store.service(now: clock.now, fingersDown: fingers)
        }

        func set(_ view: String, _ change: ControlChange) throws {
            try scene.change(view, change, at: clock.now)
        }
    }

    static let saved = """
        {"version": 1, "views": {
          "slider": {"kind": "slider", "value": 0.956},
          "switch": {"kind": "switch", "on": true},
          "button": {"kind": "button", "label": "Open", "taps": 7},
          "canvas": {"kind": "canvas", "theme": "forest"}
        }, "mqtt": {"announced": ["a/config", "b/config"]}}
        """

    @Test func everySavedPropertyIsRestoredWithoutAnEvent() throws {
        let rig = try Rig("restore", fileText: Self.saved)
        rig.store.restore(into: rig.scene)
        #expect(rig.value("slider").value == 0.956)
        #expect(rig.value("switch").isOn && rig.value("switch").toggleStart == nil)
        #expect(rig.value("button").label == "Open" && rig.value("button").taps == 7)
        #expect(rig.value("canvas").themeIndex == 2)
        #expect(rig.scene.events.isEmpty)
        #expect(rig.store.announcedTopics == ["a/config", "b/config"])
        #expect(rig.lines(.warning).isEmpty, "\(rig.lines(.warning))")
        // Nothing differs from the file: nothing to write.
        #expect(!rig.store.hasUnsavedChanges)
    }

    @Test func goneViewsAreDroppedAndValuesTheConfigRefusesAreWarnedOf() throws {
        let rig = try Rig("refuse", fileText: """
            {"version": 1, "views": {
              "slider": {"kind": "slider", "value": 1.5},
              "switch": {"kind": "button", "label": "x", "taps": 0},
              "button": {"kind": "button", "label": "Open", "taps": -1},
              "canvas": {"kind": "canvas", "theme": "mauve"},
              "lamp": {"kind": "switch", "on": true}
            }}
            """)
        rig.store.restore(into: rig.scene)
        #expect(rig.value("slider").value == 0.5 && !rig.value("switch").isOn && rig.value("button").label == "Press")
        let warnings = rig.lines(.warning).joined(separator: "\n")
        #expect(warnings.contains("value 1.5 of slider 'slider' is out of range"), "\(warnings)")
        #expect(warnings.contains("view 'switch' is a switch in the config, not a button"), "\(warnings)")
        #expect(warnings.contains("taps -1 of button 'button' is negative"), "\(warnings)")
        #expect(warnings.contains("theme 'mauve' of canvas 'canvas' is not one of its themes"), "\(warnings)")
        #expect(warnings.contains("state.file=\(rig.file.path)"), "\(warnings)")
        #expect(rig.lines(.notice).contains { $0.contains("no longer in the config") && $0.contains("state.dropped=lamp") }, "\(rig.lines(.notice))")
        // The file is brought in line with the scene at the first wake-up: lamp gone.
        rig.wake(at: 0)
        #expect(rig.onDiskViews == rig.sceneViews)
    }

    @Test(arguments: [
        ("missing", nil, "state file missing"),
        ("truncated", String(saved.prefix(60)), "not JSON (torn or corrupt)"),
        ("corrupt", "\u{0}\u{1}garbage", "not JSON"),
        ("version", "{\"version\": 9, \"views\": {}}", "version 9 of the state file; this kiosk reads version 1"),
    ] as [(String, String?, String)])
    func anUnusableFileIsAWarningNamingItAndTheDefaultsAreUsed(name: String, text: String?, says: String) throws {
        let rig = try Rig(name, fileText: text)
        rig.store.restore(into: rig.scene)
        let warnings = rig.lines(.warning)
        #expect(warnings.count == 1 && warnings[0].contains(says) && warnings[0].contains("state.file=\(rig.file.path)"), "\(warnings)")
        #expect(rig.value("slider").value == 0.5)
        // The file is rewritten whole from the config's values at the first wake-up.
        rig.wake(at: 0)
        #expect(rig.onDiskViews == rig.sceneViews)
    }

    /// A burst of changes: the first is written at once, the rest at most once an interval, and
    /// the last one within an interval of being made.
    @Test func aBurstIsWrittenOnceAnIntervalAndItsLastValueLands() throws {
        let rig = try Rig("burst", interval: 2)
        rig.store.restore(into: rig.scene)
        rig.wake(at: 0)
        #expect(rig.store.counters.writes == 1)
        var t = 10.0
        while t < 20 {
            rig.wake(at: t)
            try rig.set("slider", .value(t / 100))
            t += 0.01
        }
        rig.wake(at: t)
        // 10 s of changes at 2 s: one at once, then one every 2 s.
        #expect(rig.store.counters.writes == 1 + 5, "\(rig.store.counters)")
        #expect(rig.store.nextDeadline.map { $0.seconds <= t + 2 } == true)
        rig.wake(at: t + 2)
        #expect(rig.onDisk?.views.first { $0.name == "slider" }?.state == .slider(value: rig.value("slider").value))
        #expect(rig.store.nextDeadline == nil && rig.store.counters.writes == 7)
    }

    /// A drag: one write an interval while the finger is down, the final value soon after it lifts.
    @Test func theLastFingerLiftingWritesTheFinalValue() throws {
        let rig = try Rig("lift", interval: 2)
        rig.store.restore(into: rig.scene)
        rig.wake(at: 0)
        try rig.set("slider", .value(0.1))
        rig.wake(at: 0.5, fingers: 1)
        try rig.set("slider", .value(0.2))
        rig.wake(at: 1.0, fingers: 1)
        #expect(rig.store.counters.writes == 1)
        // Lifted at 1.0 s: due 0.25 s after the last write (at 0.5 s, before), so now.
        rig.wake(at: 1.01, fingers: 0)
        #expect(rig.store.counters.writes == 2)
        #expect(rig.onDisk?.views.first { $0.name == "slider" }?.state == .slider(value: 0.2))
    }

    @Test func flushWritesWhatIsUnsavedAtOnce() throws {
        let rig = try Rig("flush")
        rig.store.restore(into: rig.scene)
        rig.wake(at: 0)
        try rig.set("switch", .on(true))
        try rig.set("button", .label("Closing"))
        rig.wake(at: 0.1)
        #expect(rig.onDisk?.views.contains(SavedView(name: "switch", state: .toggle(on: true))) == false)
        rig.store.observe(rig.scene)
        rig.store.flush(now: rig.clock.now)
        #expect(rig.onDisk?.views.contains(SavedView(name: "switch", state: .toggle(on: true))) == true)
        #expect(rig.onDisk?.views.contains(SavedView(name: "button", state: .button(label: "Closing", taps: 0))) == true)
    }

    /// The folder gone: one error for the whole burst, the kiosk's scene untouched, and a notice
    /// when writes work again.
    @Test func failedWritesAreLoggedOncePerBurst() throws {
        let rig = try Rig("fail", interval: 1)
        rig.store.restore(into: rig.scene)
        rig.wake(at: 0)
        try FileManager.default.removeItem(at: rig.folder)
        for k in 1...5 {
            try rig.set("slider", .value(Double(k) / 10))
            rig.wake(at: Double(k))
        }
        #expect(rig.store.counters.failures == 5)
        let errors = rig.lines(.error)
        #expect(errors.count == 1 && errors[0].contains("state not written") && errors[0].contains(rig.file.path), "\(errors)")
        try FileManager.default.createDirectory(at: rig.folder, withIntermediateDirectories: true)
        rig.wake(at: 6)
        #expect(rig.lines(.notice).contains { $0.contains("state written again") && $0.contains("state.failed_writes=5") }, "\(rig.lines(.notice))")
        #expect(rig.onDisk?.views.first { $0.name == "slider" }?.state == .slider(value: 0.5))
    }

    @Test func announcedTopicsAreKeptAcrossRestarts() throws {
        let rig = try Rig("announced")
        rig.store.restore(into: rig.scene)
        let components = ["homeassistant/device/k/config": ["lamp_switch": "switch"]]
        rig.store.remember(announced: ["homeassistant/switch/k/switch/config", "homeassistant/device/k/config"], deviceComponents: components)
        rig.store.flush(now: rig.clock.now)
        let next = StateStore(file: rig.file, interval: 2, logger: Logger(label: "next", factory: { _ in InMemoryLogHandler() }))
        next.restore(into: try KioskScene(KioskConfiguration.load(path: KioskExecutable.defaultConfigPath).scene))
        #expect(next.announcedTopics == ["homeassistant/switch/k/switch/config", "homeassistant/device/k/config"])
        #expect(next.announcedDeviceComponents == components)
    }

    /// A write never changes the file in place: a reader that opened the old file reads it whole
    /// and unchanged, as a power cut mid-write would leave it; the new one took its name.
    @Test func aWriteNeverChangesTheFileInPlace() throws {
        let rig = try Rig("in-place")
        rig.store.restore(into: rig.scene)
        rig.wake(at: 0)
        let before = try String(contentsOfFile: rig.file.path, encoding: .utf8)
        let old = open(rig.file.path, O_RDONLY)
        defer { close(old) }
        try rig.set("slider", .value(0.75))
        rig.wake(at: 10)
        var buffer = [UInt8](repeating: 0, count: 65536)
        let n = read(old, &buffer, buffer.count)
        #expect(n > 0 && String(decoding: buffer[0..<max(0, n)], as: UTF8.self) == before)
        #expect(rig.onDisk?.views.first { $0.name == "slider" }?.state == .slider(value: 0.75))
    }

    /// A write goes through one temporary name, fsynced and renamed: what a kill mid-write leaves
    /// (that temporary file) is never read, and the next write replaces it.
    @Test func aStrayTemporaryFileIsIgnoredAndReplaced() throws {
        let rig = try Rig("stray")
        try StateDocument(views: [SavedView(name: "slider", state: .slider(value: 0.25))]).text.write(toFile: rig.file.path, atomically: false, encoding: .utf8)
        try "{\"version\": 1, \"views\": {\"slider\": {\"kind\": \"sli".write(toFile: rig.file.temporaryPath, atomically: false, encoding: .utf8)
        rig.store.restore(into: rig.scene)
        #expect(rig.value("slider").value == 0.25)
        rig.wake(at: 0)
        #expect(!FileManager.default.fileExists(atPath: rig.file.temporaryPath))
        #expect(rig.onDiskViews == rig.sceneViews)
    }
}
