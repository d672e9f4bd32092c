import Foundation
import KioskConfig
import KioskCore
import KioskTestSupport
@testable import Runtime
import Scene
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// An extension that remembers what the loop gave it, and asks for a wake-up when told.
final class RecordingExtension: LoopExtension {
    var published: [(event: SceneEvent, source: ChangeSource)] = []
    var serviced: [Instant] = []
    var deadline: Instant?
    var shutdowns = 0
    var onService: ((CommandTarget) -> Void)?
    /// Called once, after the next outcome is told.
    var onCompleted: (() -> Void)?
    /// `publish` calls, and those that came while `service` was running (re-entered: never allowed).
    var publishCalls = 0
    var publishedWhileServing = 0
    private var serving = false
    var starts: [String] = []
    var reconfigured: [(old: Int, new: Int)] = []
    var restartKeys: [String] = []
    var outcomes: [String] = []

    func start(configuration: KioskConfiguration, scene: KioskScene, now: Instant) { starts.append(configuration.file) }
    func appendPollDescriptors(to fds: inout [pollfd]) {}
    func service(_ ready: UnsafeBufferPointer<pollfd>, now: Instant, target: CommandTarget) {
        serving = true
        defer { serving = false }
        serviced.append(now)
        onService?(target)
        onService = nil
    }
    var nextDeadline: Instant? { deadline }
    func completed(ticket: Int, result: Result<Void, RemoteCommandError>, target: CommandTarget, now: Instant) {
        #expect(!serving)
        switch result {
        case .success: outcomes.append("\(ticket) ok")
        case .failure(let e): outcomes.append("\(ticket) \(e.message)")
        }
        onCompleted?()
        onCompleted = nil
    }
    func publish(_ events: ArraySlice<SceneEvent>, source: ChangeSource, scene: KioskScene, now: Instant) {
        publishCalls += 1
        if serving { publishedWhileServing += 1 }
        for e in events { published.append((e, source)) }
    }
    func reconfigure(old: KioskConfiguration, new: KioskConfiguration, scene: KioskScene, now: Instant) -> [String] {
        reconfigured.append((old.scene.views.count, new.scene.views.count))
        return restartKeys
    }
    func stop(now: Instant) { shutdowns += 1 }

    /// The control events' names for `view`, with their sources.
    func controlEvents(_ view: String) -> [String] {
        published.compactMap { p in
            guard case .control(_, let v, let e) = p.event, v == view else { return nil }
            return "\(e.name) \(p.source.rawValue)"
        }
    }
}

/// The loop's side of LoopExtension.swift: commands applied as a finger's changes, events published with their source.
@Suite("Loop extensions: remote commands and synthetic touches")
final class LoopExtensionTests {
    let run: LiveLoopRun
    let recorder = RecordingExtension()

    init() throws {
        run = try LiveLoopRun("extensions")
        run.loop.install(recorder)
        run.embedded.run()
    }

    /// The loop's wake-ups, `run()`'s own, for the next `seconds`: at each moment it asked for, and then.
    func wake(after seconds: Double = 1.0 / 60) { run.embedded.advanceTime(by: seconds) }

    /// Long enough for what is pending (taps, swipes, animations) to end: 5 s of wake-ups.
    func runUntilIdle() { run.embedded.advanceTime(by: 5) }

    func view(_ name: String) -> ViewState { run.loop.scene.views[run.loop.scene.viewID(named: name)!.rawValue] }

    @Test func aSetSliderValueIsDrawnAndPublishedWithItsSource() throws {
        let flips = run.loop.output!.flipCount
        #expect(throws: Never.self) { try run.loop.apply(.setValue(view: "slider", 0.25), source: .socket).get() }
        #expect(view("slider").value == 0.25)
        #expect(recorder.controlEvents("slider").isEmpty, "published at the end of the wake-up, not inside apply")
        wake()
        #expect(recorder.controlEvents("slider") == ["valueChanged socket"])
        #expect(run.loop.output!.flipCount == flips + 1, "the change is drawn")
        #expect(recorder.controlEvents("slider") == ["valueChanged socket"], "published once")
    }

    @Test func refusedCommandsSayWhyAndChangeNothing() {
        let before = run.loop.scene.views
        func error(_ c: RemoteCommand) -> String? {
            if case .failure(let e) = run.loop.apply(c, source: .socket) { return e.message }
            return nil
        }
        #expect(error(.setValue(view: "slider", 1.5))?.contains("out of range") == true)
        #expect(error(.setValue(view: "slider", .nan))?.contains("out of range") == true)
        #expect(error(.setValue(view: "nothing", 0.5))?.contains("no view named 'nothing'") == true)
        #expect(error(.setOn(view: "slider", true))?.contains("is a slider") == true)
        #expect(error(.setLabel(view: "switch", "x"))?.contains("is a switch") == true)
        #expect(error(.tap(Point(x: 900, y: 10)))?.contains("off the screen") == true)
        #expect(error(.swipe(from: Point(x: 1, y: 1), to: Point(x: 2, y: 2), seconds: -1))?.contains("duration") == true)
        #expect(run.loop.scene.views == before)
        #expect(recorder.published.isEmpty)
    }

    @Test func aSwitchSetOnSlidesItsKnobAndALabelIsDrawn() throws {
        try run.loop.apply(.setOn(view: "switch", true), source: .mqtt).get()
        run.embedded.run()
        #expect(view("switch").isOn)
        #expect(recorder.controlEvents("switch") == ["valueChanged mqtt"])
        #expect(run.loop.scene.isAnimating, "the knob slides as after a tap")
        runUntilIdle()
        #expect(!run.loop.scene.isAnimating)
        let flips = run.loop.output!.flipCount
        try run.loop.apply(.setLabel(view: "button", "Open"), source: .socket).get()
        wake()
        #expect(view("button").label == "Open")
        #expect(run.loop.output!.flipCount == flips + 1, "a new label is drawn")
    }

    @Test func aPressFiresTheButtonAsATapWould() throws {
        try run.loop.apply(.press(view: "button"), source: .mqtt).get()
        try run.loop.apply(.press(view: "button"), source: .mqtt).get()
        run.embedded.run()
        #expect(view("button").taps == 2)
        #expect(recorder.controlEvents("button") == ["touchUpInside mqtt", "primaryActionTriggered mqtt",
                                                      "touchUpInside mqtt", "primaryActionTriggered mqtt"])
    }

    @Test func aSyntheticTapGoesThroughTheEngineAndTheButton() throws {
        try run.loop.apply(.tap(Point(x: 130, y: 424)), source: .socket).get()
        runUntilIdle()
        #expect(view("button").taps == 1)
        #expect(recorder.controlEvents("button") == ["touchDown socket", "touchUpInside socket", "primaryActionTriggered socket"])
        #expect(run.handler.entries.contains { $0.message.description.hasPrefix("gesture ") }, "the decision trace is logged")
    }

    /// The soak's lost tap: the socket's wake-up puts the synthetic finger down, then the loop stalls
    /// (a starved CPU) past a long press before its timers stage; the lift was due 50 ms after the down.
    @Test func aTapStaysATapWhenTheLoopStallsBetweenItsDownAndItsTimers() throws {
        try run.loop.apply(.setValue(view: "slider", 0.25), source: .socket).get()
        recorder.onService = { [unowned recorder] target in
            #expect(target.submit(.tap(Point(x: 130, y: 424)), source: .socket, requester: recorder, ticket: 1))
        }
        // The stall: once the tap is applied (the finger down), 0.6 s pass before the timers stage.
        var downBeforeStall = false
        recorder.onCompleted = { [run] in
            downBeforeStall = run.loop.fingers.count == 1
            run.clock.now = run.clock.now.adding(seconds: 0.6)
        }
        run.clock.now = run.clock.now.adding(seconds: 1)
        run.embedded.run()
        #expect(downBeforeStall, "the synthetic finger is down")
        runUntilIdle()
        #expect(view("button").taps == 1)
        #expect(view("slider").value == 0.25, "no long press on the button reset the scene")
        #expect(recorder.controlEvents("button") == ["touchDown socket", "touchUpInside socket", "primaryActionTriggered socket"])
    }

    /// A full queue of taps and a loop that wakes seconds late: each tap is played at its own time, each counted.
    @Test func queuedTapsPlayedLateAreEachCounted() throws {
        for _ in 0..<SyntheticTouches.capacity { try run.loop.apply(.tap(Point(x: 130, y: 424)), source: .socket).get() }
        run.clock.now = run.clock.now.adding(seconds: 3)
        run.embedded.run()
        runUntilIdle()
        #expect(view("button").taps == SyntheticTouches.capacity)
        #expect(!recorder.controlEvents("button").contains { $0.hasPrefix("touchCancel") }, "no tap was taken by the long press")
    }

    @Test func aSyntheticSwipeMovesTheSliderOverTimeOnTheLoopsClock() throws {
        let knob = view("slider").knobCenter()
        let initial = view("slider").value
        let start = run.clock.now
        try run.loop.apply(.swipe(from: knob, to: Point(x: 560, y: knob.y), seconds: 0.5), source: .socket).get()
        #expect(view("slider").value == initial, "nothing has moved yet")
        wake(after: 0.25)
        let halfway = view("slider").value
        #expect(halfway > initial + 0.1 && halfway < 0.95, "halfway through, the knob is on its way: \(initial) → \(halfway)")
        runUntilIdle()
        #expect(view("slider").value == 1)
        #expect(run.clock.now.seconds(since: start) >= 0.5)
        #expect(recorder.controlEvents("slider").allSatisfy { $0.hasSuffix(" socket") })
        #expect(recorder.controlEvents("slider").last == "touchUpInside socket")
    }

    /// Changes made while an extension is served (the socket's, MQTT's) are published after every
    /// change of that wake-up, once, each with its source: never while the extension is served.
    @Test func changesFromServiceArePublishedOnceAfterTheWakeUpNeverInsideIt() throws {
        let other = RecordingExtension()
        run.loop.install(other)
        recorder.onService = { [recorder] target in
            _ = target.submit(.setValue(view: "slider", 0.25), source: .socket, requester: recorder, ticket: 1)
            _ = target.submit(.press(view: "button"), source: .mqtt, requester: recorder, ticket: 2)
            _ = target.submit(.setValue(view: "slider", 7), source: .socket, requester: recorder, ticket: 3)
            _ = target.submit(.setValue(view: "slider", 0.75), source: .socket, requester: recorder, ticket: 4)
            #expect(target.scene.views[target.scene.viewID(named: "slider")!.rawValue].value != 0.25, "queued, not applied inside service")
        }
        let callsBefore = recorder.publishCalls
        let eventsBefore = recorder.published.count
        wake()
        for e in [recorder, other] {
            #expect(e.publishedWhileServing == 0, "publish re-entered an extension while it was served")
            #expect(e.controlEvents("slider") == ["valueChanged socket", "valueChanged socket"])
            #expect(e.controlEvents("button") == ["touchUpInside mqtt", "primaryActionTriggered mqtt"])
        }
        #expect(recorder.publishCalls - callsBefore == 3, "one call per run of one source: socket, mqtt, socket")
        #expect(recorder.outcomes == ["1 ok", "2 ok", "3 value 7.0 is out of range for slider 'slider'; expected a number from 0 to 1", "4 ok"],
                "each outcome told to the one who asked, in order, after the wake-up's services")
        wake()
        #expect(recorder.published.count - eventsBefore == 4, "nothing published twice")
    }

    /// A reload reaches each extension through `reconfigure` with the old and the new config, and
    /// the keys it cannot take are named in the log line, each one.
    @Test func aReloadReconfiguresEveryExtensionAndNamesEachRestartKey() throws {
        #expect(recorder.starts == [run.loop.options.configPath], "started once, when installed")
        recorder.restartKeys = ["mqtt.broker"]
        let path = run.loop.options.configPath
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try (text + "\n[display]\nrotation = 180\n[control]\nsocket = \"none\"\n").write(toFile: path, atomically: true, encoding: .utf8)
        run.loop.reload(at: run.clock.now)
        #expect(recorder.reconfigured.count == 1)
        let line = try #require(run.handler.entries.first { $0.message.description.contains("until the next start") })
        #expect(line.message.description.hasSuffix(": display.rotation, control.socket, mqtt.broker"), "\(line.message)")
    }

    @Test func aFingersChangeIsPublishedAsTouch() {
        run.drag(from: view("slider").knobCenter(), by: 5)
        #expect(!recorder.controlEvents("slider").isEmpty)
        #expect(recorder.controlEvents("slider").allSatisfy { $0.hasSuffix(" touch") })
    }

    @Test func theLoopWakesForAnExtensionsDeadline() {
        let t = run.clock.now.adding(seconds: 3)
        recorder.deadline = t
        #expect(run.loop.nextWake() == t)
    }

    @Test func gesturesWaitBoundedAndAreRefusedPastIt() {
        for _ in 0..<SyntheticTouches.capacity {
            #expect(throws: Never.self) { try run.loop.apply(.tap(Point(x: 400, y: 40)), source: .socket).get() }
        }
        if case .failure(let e) = run.loop.apply(.tap(Point(x: 400, y: 40)), source: .socket) {
            #expect(e.message.contains("already waiting"))
        } else {
            Issue.record("a 17th gesture was queued")
        }
    }

    @Test func theExtensionsHearTheEndOfTheLoop() {
        _ = run.loop.finish(.signal(SIGTERM))
        #expect(recorder.shutdowns == 1)
    }

    @Test func aReplayInstallsNoExtension() throws {
        let configuration = try KioskConfiguration.load(path: KioskLoopTests.configPath)
        let clock = VirtualClock()
        let replay = try KioskLoop(replaying: configuration, output: nil, traceDecisions: false, clock: clock)
        replay.install(RecordingExtension())
        #expect(replay.extensions.installed.isEmpty)
    }
}
