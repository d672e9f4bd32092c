import Display
import Foundation
import Gestures
import KioskConfig
import KioskCore
import KioskLog
import KioskTestSupport
import Render
@testable import Runtime
import Scene
import Testing

/// A live loop (config file, log, input directory) on a headless display, stepped by hand.
final class LiveLoop {
    let folder: URL
    let path: String
    let handler = InMemoryLogHandler()
    let clock: VirtualClock
    let loop: KioskLoop
    /// Fingers on the loop: each report goes to `process`, then the loop ticks at its time.
    private(set) lazy var fingers = Fingers(clock: clock, firstFinger: 1, deliver: { [unowned self] frame in
        self.loop.process(frame)
        self.loop.tick(at: frame.time)
    })

    /// `edit` changes the default config's text; `realClock` false: a virtual clock starting at 100 s.
    init(edit: (String) -> String = { $0 }, stall: (stage: KioskLoop.Stage, milliseconds: Double)? = nil,
         realClock: Bool = false) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-live-loop-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        path = folder.appendingPathComponent("kiosk.conf").path
        try Self.write(edit(Self.baseConfig(input: folder.path)), to: path)
        var logger = Logger(label: "test", factory: { [handler] _ in handler })
        logger.logLevel = .info
        let clock = VirtualClock()
        self.clock = clock
        let now: any InstantClock = realClock ? MonotonicClock() : clock
        if realClock { clock.now = MonotonicClock.now }
        let options = KioskLoop.Options(configPath: path, injectedStall: stall)
        let makeOutput: (DisplaySettings) throws(DisplayError) -> any FrameOutput = { _ throws(DisplayError) in
            do { return try HeadlessDisplay(width: 800, height: 480, format: .xrgb8888, clock: now) }
            catch { throw DisplayError("\(error)") }
        }
        loop = try KioskLoop(options: options, logger: logger, logPump: nil, output: makeOutput, clock: now)
        loop.tick(at: now.now)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// The default scene with the runtime sections a test can run anywhere: no serial port, no
    /// touchscreen (an empty input folder), stats off.
    static func baseConfig(input: String) throws -> String {
        let scene = try String(contentsOfFile: KioskLoopTests.configPath, encoding: .utf8).components(separatedBy: "\n[display]").first ?? ""
        return scene + "\n[input]\ndirectory = \"\(input)\"\n[log]\nserial = \"none\"\nstats_interval = 0\n"
    }

    static func write(_ text: String, to path: String) throws {
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    func rewrite(_ edit: (String) throws -> String) throws {
        try Self.write(edit(try Self.baseConfig(input: folder.path)), to: path)
    }

    /// One finger down at `from` a frame (of a 60 Hz panel) from now, moved to `to` in `steps`
    /// frames, then lifted a frame later.
    func drag(from: Point, to: Point, steps: Int = 20) {
        let finger = fingers.down(from, after: Fingers.frame)
        fingers.move([finger[0]: to], over: Double(steps) * Fingers.frame)
        fingers.up(finger)
    }

    func view(_ name: String) throws -> ViewState {
        let id = try #require(loop.scene.viewID(named: name))
        return loop.scene.views[id.rawValue]
    }

    var messages: [String] { handler.entries.map { "\($0.level) \($0.message)" } }
}

@Suite("SIGHUP reload on the live loop")
struct ReloadTests {
    @Test func aGoodReloadKeepsTheStateOfViewsWhoseNamesMatchAndTakesTheRestFromTheFile() throws {
        let live = try LiveLoop()
        let yellowBefore = try live.view("yellow").center
        let cyanBefore = try live.view("cyan").center
        live.drag(from: yellowBefore, to: Point(x: yellowBefore.x + 90, y: yellowBefore.y + 60))
        live.drag(from: cyanBefore, to: Point(x: cyanBefore.x - 70, y: cyanBefore.y + 40))
        let yellowMoved = try live.view("yellow").center
        let cyanMoved = try live.view("cyan").center
        #expect(yellowMoved.x > yellowBefore.x + 60, "the drag moved yellow")
        let slider = try live.view("slider")
        live.drag(from: Point(x: slider.center.x, y: slider.center.y), to: Point(x: slider.center.x + 120, y: slider.center.y))
        let sliderValue = try live.view("slider").value
        #expect(sliderValue != slider.value, "the swipe along the slider changed its value")

        // The new file renames cyan to teal; yellow and the slider keep their names.
        try live.rewrite { text in
            text.replacingOccurrences(of: "\"cyan\"", with: "\"teal\"").replacingOccurrences(of: "@cyan", with: "@teal")
        }
        live.loop.reloadPending = true
        live.clock.now = live.clock.now.adding(seconds: 0.2)
        live.loop.tick(at: live.clock.now)

        #expect(live.loop.generation == 2, "\(live.messages)")
        #expect(try live.view("yellow").center == yellowMoved, "yellow stays where the user left it")
        #expect(try live.view("slider").value == sliderValue, "the slider keeps its value")
        #expect(live.loop.scene.viewID(named: "cyan") == nil)
        #expect(try live.view("teal").center == cyanBefore, "a view of a new name starts where the file puts it, not at \(cyanMoved)")
        let entry = try #require(live.handler.entries.first { $0.message.description == "config reloaded" })
        let carried = "\(entry.metadata["scene.carried"] ?? "")".split(separator: ",").map(String.init)
        #expect(carried.contains("yellow") && carried.contains("slider") && !carried.contains("teal"), "\(carried)")
    }

    @Test func aBadReloadKeepsTheSceneAndItsStateAndSaysWhereTheFileIsWrong() throws {
        let live = try LiveLoop()
        let yellow = try live.view("yellow").center
        live.drag(from: yellow, to: Point(x: yellow.x + 80, y: yellow.y))
        let moved = try live.view("yellow").center
        try live.rewrite { $0 + "[loop]\nframe_budget = -4\n" }
        live.loop.reloadPending = true
        live.loop.tick(at: live.clock.now.adding(seconds: 0.2))
        #expect(live.loop.generation == 1)
        #expect(try live.view("yellow").center == moved)
        let error = try #require(live.messages.first { $0.hasPrefix("error config reload failed") }, "\(live.messages)")
        #expect(error.contains("kiosk.conf:") && error.contains("loop.frame_budget") && error.contains("-4"), "\(error)")
    }
}

@Suite("The frame budget, stage by stage")
struct StageBudgetTests {
    /// `kiosk run --inject-stall STAGE:MS` makes that stage, and only its own measurement, overrun.
    @Test(arguments: KioskLoop.Stage.allCases)
    func aStallInAStageIsCountedAsThatStagesOverrun(stage: KioskLoop.Stage) throws {
        // A real clock: the stall is a real sleep, and the stages are timed as they run.
        let live = try LiveLoop(edit: { $0 + "[loop]\nframe_budget = 16\n" }, stall: (stage, 25), realClock: true)
        // Each report at the real time it is made, the loop iterating after it.
        let fingers = Fingers(clock: live.clock, deliver: { frame in
            live.loop.process(frame)
            _ = live.loop.runOnce(milliseconds: 0)
        })
        live.clock.now = MonotonicClock.now
        let finger = fingers.down(Point(x: 160, y: 190))
        for i in 1...2 {
            live.clock.now = MonotonicClock.now
            fingers.move([finger[0]: Point(x: 160 + Double(i) * 20, y: 190)], after: 0)
        }
        live.clock.now = MonotonicClock.now
        fingers.report([finger[0]: .upAt(Point(x: 220, y: 190))])
        let i = LoopStats.index(of: stage)
        #expect(live.loop.stats.totalOverruns[i] >= 1, "\(stage): \(live.loop.stats.totalOverruns)")
        // The 25 ms are measured in that stage alone: no other stage's typical time comes near them.
        for other in KioskLoop.Stage.allCases where other != stage {
            let h = live.loop.stats.stageTimes[LoopStats.index(of: other)]
            if h.totalCount > 0 {
                #expect(h.valueAtPercentile(50) < 20_000, "a stall in \(stage) leaked into \(other): p50 \(h.valueAtPercentile(50)) µs")
            }
        }
        let line = try #require(live.messages.first { $0.contains("\(stage.rawValue) stage overran its budget") }, "\(live.messages)")
        #expect(line.hasPrefix("warning"))
    }
}

@Suite("The stats line's counts")
struct StatsCountTests {
    @Test func inputsBeyondTheLatencyStorageAreCountedAsUnmeasuredAndTouchesAreCounted() throws {
        let live = try LiveLoop()
        // 200 fingers put down and lifted before one frame is drawn: more than the per-frame storage.
        let fingers = Fingers(clock: live.clock, firstFinger: 1000, deliver: { live.loop.process($0) })
        for _ in 0..<200 {
            let finger = fingers.down(Point(x: 400, y: 330), after: 0.0001)
            fingers.cancel(finger, after: 0)
        }
        let report = live.loop.stats.report(at: live.clock.now.adding(seconds: 1), extra: [])
        let fields = Dictionary(report, uniquingKeysWith: { a, _ in a })
        #expect(fields["touches"] == "200", "\(report)")
        #expect(fields["touch.frames"] == "400", "\(report)")
        #expect(fields["latency.unmeasured"] == String(400 - KioskLoop.latencyCapacity), "\(report)")
        let next = live.loop.stats.report(at: live.clock.now.adding(seconds: 2), extra: [])
        #expect(!next.contains { $0.0 == "latency.unmeasured" }, "each interval starts afresh: \(next)")
    }

    @Test func theStatsLineCarriesEveryFieldAnIntegratorReadsOnTheSerialConsole() throws {
        let live = try LiveLoop()
        live.drag(from: Point(x: 160, y: 190), to: Point(x: 220, y: 190))
        live.loop.statsLine(at: live.clock.now.adding(seconds: 1))
        let entry = try #require(live.handler.entries.first { $0.message.description == "stats 1" }, "\(live.messages)")
        let keys = Set(entry.metadata.keys)
        for key in ["frames", "fps", "touch.frames", "touches", "overruns", "latency.p50.ms", "latency.p99.ms", "latency.max.ms",
                    "touches.down", "devices", "log.dropped", "display", "config.generation",
                    "input.resyncs", "input.slot_overflows", "input.out_of_range", "input.tracking_id_reuse",
                    "input.releases_without_press", "input.unplug_cancelled", "input.devices_attached", "input.devices_removed",
                    "input.rejected_events"] {
            #expect(keys.contains(key), "the stats line lacks \(key): \(entry.metadata)")
        }
        #expect("\(entry.metadata["touches"] ?? "")" == "1")
        // Written as the serial console would, with every stage that can run and large figures
        // (a month up, a slow stage, seven-digit counts), it fits one log line whole.
        var worst = entry.metadata.mapValues { _ in Logger.MetadataValue.string("9999999") }
        for stage in KioskLoop.Stage.allCases { worst["stage.\(stage.rawValue).ms"] = "999.99/9999.99/99999.99" }
        worst["overruns"] = .string(KioskLoop.Stage.allCases.map { "\($0.rawValue):99999" }.joined(separator: ","))
        let line = LogLineFormat.line(timestamp: 2_700_000.123456, level: .info, message: "stats 99999", metadata: worst)
        #expect(line.utf8.count < LogLineLimit.bytes, "a stats line of \(line.utf8.count) bytes would be cut: \(line)")
        #expect("\(entry.metadata["devices"] ?? "")" == "0", "no touchscreen in the test's input folder")
    }
}
