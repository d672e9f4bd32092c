import Foundation
import Gestures
import KioskConfig
import KioskCore
import KioskTestSupport
import KioskLog
import Scene
import Testing
@testable import Runtime
#if canImport(Glibc)
import Glibc
#endif

/// Hooks with real processes: posix_spawn, pidfds in a real `poll()`, pipes, signals. Time is the
/// loop's clock (a `VirtualClock`): a timeout passes when the test moves the clock, and the test
/// then waits on the process's pidfd, not on a sleep.
@Suite("Hooks: programs run on control events")
struct HookRunnerTests {
    /// A folder with programs written for one test, removed with it.
    final class Bench {
        let folder: URL
        let clock = VirtualClock()
        let handler = InMemoryLogHandler()
        let scene: KioskScene
        let origin: Instant

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-hooks-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            scene = try KioskScene(KioskConfiguration.load(path: KioskLoopTests.configPath).scene)
            origin = clock.now
        }

        /// The runners made, whose processes a failed test must not leave behind.
        private var runners: [HookRunner] = []

        deinit {
            for runner in runners {
                for pid in runner.runningPIDs {
                    kill(-pid, SIGKILL)
                    waitpid(pid, nil, 0)
                }
            }
            try? FileManager.default.removeItem(at: folder)
        }

        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

        /// Writes a shell script and gives the argv that runs it: `/bin/sh` and its path (kiosk
        /// itself runs no shell; the test picks one as the hook's program). Not the script itself:
        /// while this process writes it, another test's spawn may hold the file open for writing
        /// for a moment, and exec of it would fail with ETXTBSY.
        func script(_ name: String, _ body: String) throws -> [String] {
            let p = path(name)
            try (body + "\n").write(toFile: p, atomically: true, encoding: .utf8)
            return ["/bin/sh", p]
        }

        func runner(_ hooks: [HookDescription], maxRunning: Int = 4, queue: Int = 64, grace: Double = 2,
                    environment: [String: String] = ["PATH": "/usr/bin:/bin"]) -> HookRunner {
            let handler = handler
            var logger = Logger(label: "test", factory: { _ in handler })
            logger.logLevel = .debug
            let runner = HookRunner(settings: HookSettings(hooks: hooks, maxRunning: maxRunning, queueLimit: queue, killGraceSeconds: grace),
                                    origin: origin, environment: environment, logger: logger)
            runners.append(runner)
            return runner
        }

        /// A control event at `seconds` after the origin.
        func event(_ view: String, _ control: ControlEvent, at seconds: Double = 1.5) -> SceneEvent {
            .control(time: origin.adding(seconds: seconds), view: view, event: control)
        }

        /// Polls the runner's descriptors as the loop does and services them at the clock's time,
        /// until `done` holds; false if it does not within `wallSeconds` (a bound, not a wait).
        @discardableResult
        func pump(_ runner: HookRunner, wallSeconds: Double = 20, until done: () -> Bool) -> Bool {
            let limit = Date().addingTimeInterval(wallSeconds)
            var fds: [pollfd] = []
            while !done() {
                guard Date() < limit else { return false }
                fds.removeAll(keepingCapacity: true)
                runner.appendPollDescriptors(to: &fds)
                _ = poll(&fds, nfds_t(fds.count), 100)
                fds.withUnsafeBufferPointer { runner.service($0, now: clock.now) }
            }
            return true
        }

        var messages: [String] { handler.entries.map { "\($0.level) \($0.message)" } }
    }

    func hook(_ view: String, _ event: HookEvent, _ run: [String], timeout: Double = 10, line: Int = 42) -> HookDescription {
        HookDescription(view: view, event: event, run: run, timeoutSeconds: timeout, location: SourceLocation(file: "kiosk.conf", line: line))
    }

    static let envCases: [(view: String, event: HookEvent, control: ControlEvent, value: String)] = [
        ("button", .primaryActionTriggered, .primaryActionTriggered(taps: 3), "3"),
        ("slider", .valueChanged, .valueChanged(0.25), "0.2500"),
        ("switch", .valueChanged, .toggled(true), "on"),
        ("switch", .valueChanged, .toggled(false), "off"),
        ("slider", .touchDown, .touchDown, "0.5000"),
    ]

    @Test(arguments: envCases)
    func aHookSeesItsViewEventValueAndTimeInItsEnvironment(c: (view: String, event: HookEvent, control: ControlEvent, value: String)) throws {
        let b = try Bench()
        let out = b.path("env.txt")
        let program = try b.script("write-env", "env > \"$1\"; echo written to \"$1\"; echo a warning >&2")
        let runner = b.runner([hook(c.view, c.event, program + [out])], environment: ["PATH": "/usr/bin:/bin", "KIOSK_VIEW": "stale",
                                                                                        "NOTIFY_SOCKET": "/run/systemd/notify", "WATCHDOG_USEC": "10000000"])
        runner.publish([b.event(c.view, c.control)], source: .socket, scene: b.scene, now: b.clock.now)
        #expect(runner.runningCount == 1)
        #expect(b.pump(runner) { runner.runningCount == 0 }, "\(b.messages)")
        let env = Set(try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").map(String.init))
        #expect(env.isSuperset(of: ["KIOSK_VIEW=\(c.view)", "KIOSK_EVENT=\(c.event.rawValue)", "KIOSK_VALUE=\(c.value)",
                                    "KIOSK_TIME=1.500000", "KIOSK_SOURCE=socket", "PATH=/usr/bin:/bin"]), "\(env)")
        #expect(env.filter { $0.hasPrefix("KIOSK_VIEW=") }.count == 1)
        #expect(!env.contains { $0.hasPrefix("NOTIFY_SOCKET=") || $0.hasPrefix("WATCHDOG_USEC=") }, "systemd's words are for kiosk alone")
        let name = "\(c.event.rawValue) on \(c.view) (kiosk.conf:42)"
        #expect(b.messages.contains("info hook \(name) stdout: written to \(out)"), "\(b.messages)")
        #expect(b.messages.contains("info hook \(name) stderr: a warning"), "\(b.messages)")
        let ended = try #require(b.handler.entries.first { $0.message.description.hasPrefix("hook \(name) ended: exit status 0") })
        #expect(ended.metadata["hook.location"] == "kiosk.conf:42")
        #expect(ended.metadata["hook.view"] == "\(c.view)")
    }

    @Test func onlyTheHooksOfTheEventsViewAndNameRun() throws {
        let b = try Bench()
        let out = b.path("ran.txt")
        let program = try b.script("note", "echo \"$KIOSK_VIEW $KIOSK_EVENT\" >> \"$1\"")
        let runner = b.runner([hook("button", .primaryActionTriggered, program + [out]), hook("slider", .valueChanged, program + [out]),
                               hook("button", .touchDown, program + [out])])
        runner.publish([b.event("button", .primaryActionTriggered(taps: 1)), b.event("switch", .toggled(true)),
                        b.event("button", .touchUpInside),
                        .gesture(GestureEvent(time: b.origin, recognizer: RecognizerID(0), state: .recognized), view: "canvas",
                                 recognizer: "tap", kind: .tap)],
                       source: .touch, scene: b.scene, now: b.clock.now)
        #expect(b.pump(runner) { runner.runningCount == 0 })
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "button primaryActionTriggered\n")
    }

    @Test func aHookThatOutlivesItsTimeoutGetsTERMOnTheLoopsClock() throws {
        let b = try Bench()
        let program = try b.script("hang", "echo started; exec sleep 1000")
        let runner = b.runner([hook("button", .primaryActionTriggered, program, timeout: 5)])
        // The loop blocks TERM (it reads signals through a signalfd); the hook must not inherit that.
        var term = sigset_t(), previous = sigset_t()
        sigemptyset(&term)
        sigaddset(&term, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &term, &previous)
        runner.publish([b.event("button", .primaryActionTriggered(taps: 1))], source: .touch, scene: b.scene, now: b.clock.now)
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        #expect(runner.nextDeadline == b.clock.now.adding(seconds: 5))
        #expect(b.pump(runner) { b.messages.contains { $0.hasSuffix("stdout: started") } })
        b.clock.advance(by: 4.999)
        b.pump(runner, wallSeconds: 0.2) { false }
        #expect(runner.runningCount == 1, "TERM came before the timeout: \(b.messages)")
        b.clock.advance(by: 0.001)
        #expect(b.pump(runner) { runner.runningCount == 0 }, "\(b.messages)")
        #expect(b.messages.contains("warning hook primaryActionTriggered on button (kiosk.conf:42) still running at its timeout of 5.000 s: sent TERM"))
        #expect(b.messages.contains { $0.hasPrefix("warning hook primaryActionTriggered on button (kiosk.conf:42) ended: killed by signal 15 (TERM) after 5.000 s, stopped at its timeout") },
                "\(b.messages)")
        #expect(runner.nextDeadline == nil)
    }

    @Test func aHookThatIgnoresTERMGetsKILLAfterTheGracePeriod() throws {
        let b = try Bench()
        let ready = b.path("ready")
        // The shell ignores TERM, and so does the sleep it starts (ignored signals survive exec).
        let program = try b.script("stubborn", "trap '' TERM; touch \"$1\"; while :; do sleep 1; done")
        let runner = b.runner([hook("button", .primaryActionTriggered, program + [ready], timeout: 1)], grace: 3)
        runner.publish([b.event("button", .primaryActionTriggered(taps: 1))], source: .touch, scene: b.scene, now: b.clock.now)
        #expect(b.pump(runner) { FileManager.default.fileExists(atPath: ready) })
        b.clock.advance(by: 1)
        b.pump(runner, wallSeconds: 0.3) { false }
        #expect(runner.runningCount == 1, "\(b.messages)")
        #expect(runner.nextDeadline == b.clock.now.adding(seconds: 3))
        b.clock.advance(by: 3)
        #expect(b.pump(runner) { runner.runningCount == 0 }, "\(b.messages)")
        #expect(b.messages.contains { $0.contains("still running 3.000 s after TERM: sent KILL") }, "\(b.messages)")
        #expect(b.messages.contains { $0.contains("ended: killed by signal 9 (KILL) after 4.000 s") }, "\(b.messages)")
    }

    @Test func aBurstOfAThousandTapsRunsAtMostNAtOnceQueuesABoundedFewAndCountsTheRest() throws {
        let b = try Bench()
        let out = b.path("runs.txt")
        let program = try b.script("count", "echo \"$KIOSK_VALUE\" >> \"$1\"")
        let runner = b.runner([hook("button", .primaryActionTriggered, program + [out])], maxRunning: 2, queue: 8)
        let taps = (1...1000).map { b.event("button", .primaryActionTriggered(taps: $0), at: Double($0) / 100) }
        runner.publish(taps[...], source: .touch, scene: b.scene, now: b.clock.now)
        #expect(runner.runningCount == 2)
        #expect(runner.queuedCount == 8)
        #expect(runner.droppedRuns == 990)
        #expect(b.messages.filter { $0.contains("hook queue full") }.count == 1, "one line for the burst, not 990")
        #expect(b.pump(runner) { runner.runningCount == 0 && runner.queuedCount == 0 }, "\(b.messages)")
        #expect(runner.startedRuns == 10)
        // The first ten taps ran, in order within each slot.
        let values = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").compactMap { Int($0) }
        #expect(values.sorted() == Array(1...10))
        #expect(b.messages.contains("warning hook runs dropped while the queue was full: 990 (990 since the start)"), "\(b.messages)")
    }

    @Test func withNoQueueTheRunsBeyondTheSlotsAreDroppedAndTheCountIsLoggedWhenASlotIsFree() throws {
        let b = try Bench()
        let runner = b.runner([hook("button", .primaryActionTriggered, ["/bin/true"])], maxRunning: 1, queue: 0)
        let taps = (1...3).map { b.event("button", .primaryActionTriggered(taps: $0)) }
        runner.publish(taps[...], source: .touch, scene: b.scene, now: b.clock.now)
        #expect(runner.runningCount == 1 && runner.queuedCount == 0 && runner.droppedRuns == 2)
        #expect(b.pump(runner) { runner.runningCount == 0 })
        #expect(b.messages.contains("warning hook runs dropped while the queue was full: 2 (2 since the start)"), "\(b.messages)")
    }

    @Test func aProgramThatCannotStartIsLoggedWithItsHooksPlaceAndNothingRuns() throws {
        let b = try Bench()
        let missing = b.path("gone")
        let runner = b.runner([hook("switch", .valueChanged, [missing, "--fast"], line: 77)])
        runner.publish([b.event("switch", .toggled(true))], source: .touch, scene: b.scene, now: b.clock.now)
        #expect(runner.runningCount == 0)
        #expect(runner.failedStarts == 1)
        #expect(b.messages == ["error hook valueChanged on switch (kiosk.conf:77) cannot start \(missing): posix_spawn: No such file or directory"])
    }

    @Test func outputIsLoggedInBoundedLines() throws {
        let b = try Bench()
        let long = String(repeating: "x", count: 2000)
        let program = try b.script("chatty", "echo \(long); i=0; while [ $i -lt 150 ]; do echo line $i; i=$((i+1)); done; printf tail")
        let runner = b.runner([hook("button", .primaryActionTriggered, program)])
        runner.publish([b.event("button", .primaryActionTriggered(taps: 1))], source: .touch, scene: b.scene, now: b.clock.now)
        #expect(b.pump(runner) { runner.runningCount == 0 })
        let lines = b.messages.filter { $0.contains(" stdout: ") }
        #expect(lines.count == HookOutput.maxLines)
        #expect(lines.first == "info hook primaryActionTriggered on button (kiosk.conf:42) stdout: " + String(repeating: "x", count: HookOutput.maxLineBytes) + "…")
        #expect(lines.last?.hasSuffix("stdout: line 98") == true, "\(lines.last ?? "")")
        #expect(b.messages.contains { $0.hasSuffix("; 52 more output lines not logged") }, "\(b.messages.suffix(2))")
    }

    @Test func aHookDoesNotInheritTheKiosksDescriptors() throws {
        let b = try Bench()
        let out = b.path("fds.txt")
        let program = try b.script("fds", "ls /proc/$$/fd > \"$1\"")
        let leaked = open("/dev/null", O_RDONLY)  // not close-on-exec, as a careless library might leave one
        defer { close(leaked) }
        let runner = b.runner([hook("button", .primaryActionTriggered, program + [out])])
        runner.publish([b.event("button", .primaryActionTriggered(taps: 1))], source: .touch, scene: b.scene, now: b.clock.now)
        #expect(b.pump(runner) { runner.runningCount == 0 })
        let fds = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").compactMap { Int($0) }
        #expect(!fds.contains(Int(leaked)), "\(fds)")
    }
}

/// Hooks inside the loop: the loop polls their descriptors, wakes at their deadlines, and a
/// press from outside reaches them with its source.
@Suite("Hooks in the loop")
struct HooksInTheLoopTests {
    @Test func aHooksTimeoutIsTheLoopsNextWakeAndTheLoopEndsTheHookThere() throws {
        let run = try LiveLoopRun("hooks-loop")
        let script = run.folder.appendingPathComponent("hang").path
        try "exec sleep 1000\n".write(toFile: script, atomically: true, encoding: .utf8)
        let program = ["/bin/sh", script]
        let handler = run.handler
        let runner = HookRunner(
            settings: HookSettings(hooks: [HookDescription(view: "button", event: .primaryActionTriggered, run: program, timeoutSeconds: 30,
                                                           location: SourceLocation(file: "kiosk.conf", line: 9))]),
            origin: run.clock.now, environment: [:], logger: Logger(label: "hooks", factory: { _ in handler }))
        defer { for pid in runner.runningPIDs { kill(-pid, SIGKILL); waitpid(pid, nil, 0) } }
        run.loop.install(runner)
        run.embedded.run()
        let pressed = run.clock.now
        try run.loop.apply(.press(view: "button"), source: .mqtt).get()
        run.embedded.run()
        #expect(runner.runningCount == 1)
        let wake = try #require(run.loop.nextWake(after: pressed))
        #expect(wake <= pressed.adding(seconds: 30))

        // The loop's own wake-ups, run()'s, until the hook is gone.
        run.clock.now = pressed.adding(seconds: 30)
        #expect(run.embedded.run(seconds: 20, waitingUpTo: 100) { runner.runningCount == 0 })
        let messages = handler.entries.map { "\($0.message)" }
        #expect(messages.contains { $0.hasPrefix("hook primaryActionTriggered on button (kiosk.conf:9) ended: killed by signal 15 (TERM) after 30.000 s") },
                "\(messages)")
    }

    @Test func aReloadsHooksReplaceTheOldOnesAndTheQueueTakesItsNewSize() throws {
        let handler = InMemoryLogHandler()
        let clock = VirtualClock()
        let scene = try KioskScene(KioskConfiguration.load(path: KioskLoopTests.configPath).scene)
        let hang = HookDescription(view: "button", event: .primaryActionTriggered, run: ["/bin/sleep", "1000"], timeoutSeconds: 1)
        let runner = HookRunner(settings: HookSettings(hooks: [hang], maxRunning: 1, queueLimit: 4), origin: clock.now, environment: [:],
                                logger: Logger(label: "hooks", factory: { _ in handler }))
        defer { for pid in runner.runningPIDs { kill(-pid, SIGKILL); waitpid(pid, nil, 0) } }
        let tap = SceneEvent.control(time: clock.now, view: "button", event: .primaryActionTriggered(taps: 1))
        runner.publish([tap, tap, tap, tap], source: .touch, scene: scene, now: clock.now)
        #expect(runner.runningCount == 1 && runner.queuedCount == 3)
        runner.reconfigure(HookSettings(hooks: [], maxRunning: 1, queueLimit: 2))
        #expect(runner.queuedCount == 2)
        #expect(runner.droppedRuns == 1)
        runner.publish([tap], source: .touch, scene: scene, now: clock.now)
        #expect(runner.queuedCount == 2, "the new config has no hook for the button")
        #expect(runner.droppedRuns == 1, "the new config has no hook for the button: nothing was asked for")
    }
}
