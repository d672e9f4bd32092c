import KioskConfig
import KioskCore
import KioskLog
import Scene
#if canImport(Glibc)
import Glibc
#endif

/// Runs the config's `[[hook]]` programs when their control sends their event: started with
/// posix_spawn, watched through a pidfd in the loop's `poll()`, their output lines logged,
/// TERM at the timeout and KILL after a grace period, all on the loop's clock.
///
/// At most `maxRunning` at once; further runs wait in a fixed-size queue, and past it they are
/// dropped and counted (`droppedRuns`), never stored without bound.
public final class HookRunner: LoopExtension {
    /// One run asked for: which hook, and what its environment says.
    struct Run {
        var hook: HookDescription
        var value: String
        var time: Double
        /// KIOSK_SOURCE: a `ChangeSource`'s name, or a `DisplayCause`'s for the display's events.
        var source: String
    }

    /// A run whose program is alive (or not yet reaped).
    struct Running {
        var run: Run
        var process: SpawnedProcess
        var outputs: [HookOutput]
        var started: Instant
        var deadline: Instant
        /// When TERM was sent at the timeout; KILL follows `killGrace` later.
        var terminated: Instant?
        var killed = false
    }

    public private(set) var settings: HookSettings
    /// The display's on/off as last told (nil: not yet), for screenOn and screenOff.
    var displayWasOn: Bool?
    /// The KIOSK_TIME of an event is its time in seconds since this moment, as `t` in `kiosk replay --events`.
    let origin: Instant
    /// The kiosk's own environment, which every hook inherits (PATH, LANG) under the KIOSK_ variables.
    let baseEnvironment: [String]
    var log: Logger
    private(set) var running: [Running] = []
    private var queue: RingQueue<Run>

    /// Runs that found the queue full, since the start.
    public private(set) var droppedRuns = 0
    /// Runs started, and runs whose program could not be started.
    public private(set) var startedRuns = 0
    public private(set) var failedStarts = 0
    /// For the stats line, `hooks=STARTED/FAILED/DROPPED`: runs started, runs that could not
    /// start, runs dropped from a full queue.
    public var statsFields: [(String, String)] { [("hooks", "\(startedRuns)/\(failedStarts)/\(droppedRuns)")] }
    /// Runs dropped since the queue last had room: logged once when the burst is over.
    private var droppedInBurst = 0

    public init(settings: HookSettings, origin: Instant, environment: [String: String], logger: Logger) {
        self.settings = settings
        self.origin = origin
        self.baseEnvironment = environment.filter { !$0.key.hasPrefix("KIOSK_") && !Self.serviceManagerVariables.contains($0.key) }
            .map { "\($0.key)=\($0.value)" }.sorted()
        self.log = logger
        queue = RingQueue(capacity: settings.queueLimit)
        running.reserveCapacity(settings.maxRunning)
    }

    /// What systemd tells the kiosk alone (its notify socket, watchdog and passed sockets): a hook
    /// that inherited them could speak to systemd as if it were the kiosk (sd_notify(3)).
    static let serviceManagerVariables: Set<String> = ["NOTIFY_SOCKET", "WATCHDOG_PID", "WATCHDOG_USEC", "LISTEN_FDS", "LISTEN_PID",
                                                       "LISTEN_FDNAMES"]

    /// Hooks running now, and runs waiting for a slot.
    public var runningCount: Int { running.count }
    public var queuedCount: Int { queue.count }
    /// The pids of the hooks running now (tests use them to watch the process go).
    public var runningPIDs: [Int32] { running.map(\.process.pid) }

    /// Takes the hooks and limits of a reloaded config. Hooks running now run on to their end
    /// (or timeout) under the settings they started with; queued runs keep their hook.
    public func reconfigure(_ settings: HookSettings) {
        self.settings.hooks = settings.hooks
        self.settings.maxRunning = settings.maxRunning
        self.settings.killGraceSeconds = settings.killGraceSeconds
        if settings.queueLimit != queue.capacity {
            var next = RingQueue<Run>(capacity: settings.queueLimit)
            while let run = queue.popFirst() {
                if !next.append(run) { droppedRuns += 1 }
            }
            queue = next
            self.settings.queueLimit = settings.queueLimit
        }
    }

    /// A reload: `[[hook]]` and `[hooks]` are all taken at once (nothing needs a restart).
    public func reconfigure(old: KioskConfiguration, new: KioskConfiguration, scene: KioskScene, now: Instant) -> [String] {
        reconfigure(new.hooks)
        return []
    }

    /// Installs a runner for the loop's config (`[[hook]]`, `[hooks]`) on `loop`, even with no
    /// hooks yet: a reload may add them. `KIOSK_TIME` counts from now on the loop's clock.
    public static func install(on loop: KioskLoop, logger: Logger) {
        let runner = HookRunner(settings: loop.configuration.hooks, origin: loop.clock.now, environment: loop.options.environment,
                                logger: logger)
        loop.install(runner)
    }

    // MARK: LoopExtension

    public func appendPollDescriptors(to fds: inout [pollfd]) {
        for r in running {
            fds.append(pollfd(fd: r.process.pidfd, events: Int16(POLLIN), revents: 0))
            for o in r.outputs where o.isOpen { fds.append(pollfd(fd: o.fd, events: Int16(POLLIN), revents: 0)) }
        }
    }

    public func service(_ ready: UnsafeBufferPointer<pollfd>, now: Instant, target: CommandTarget) {
        service(ready, now: now)
    }

    /// `service` without a command target: hooks never command the scene.
    public func service(_ ready: UnsafeBufferPointer<pollfd>, now: Instant) {
        var i = 0
        while i < running.count {
            let r = running[i]
            let outputReady = r.outputs.contains { o in o.isOpen && ready.contains { $0.fd == o.fd && $0.revents != 0 } }
            if outputReady { readOutputs(i) }
            if ready.contains(where: { $0.fd == r.process.pidfd && $0.revents != 0 }), reap(i, now: now) {
                continue
            }
            enforceTimeout(i, now: now)
            i += 1
        }
        startQueued(now: now)
    }

    public var nextDeadline: Instant? {
        running.compactMap { r -> Instant? in
            if r.killed { return nil }
            return r.terminated.map { $0.adding(seconds: settings.killGraceSeconds) } ?? r.deadline
        }.min()
    }

    public func publish(_ events: ArraySlice<SceneEvent>, source: ChangeSource, scene: KioskScene, now: Instant) {
        guard !settings.hooks.isEmpty else { return }
        for event in events {
            guard case .control(let time, let view, let control) = event else { continue }
            for hook in settings.hooks where hook.view == view && hook.event.rawValue == control.name {
                let run = Run(hook: hook, value: Self.value(of: control, view: view, scene: scene),
                              time: time.seconds(since: origin), source: source.rawValue)
                submit(run, now: now)
            }
        }
    }

    /// The panel woken or blanked: the display's hooks, `KIOSK_VALUE` on or off, `KIOSK_SOURCE` what did it.
    public func displayChanged(_ status: DisplayStatus, now: Instant) {
        defer { displayWasOn = status.isOn }
        guard let was = displayWasOn, was != status.isOn else { return }
        let event: HookEvent = status.isOn ? .screenOn : .screenOff
        for hook in settings.hooks where hook.view == HookEvent.displayView && hook.event == event {
            submit(Run(hook: hook, value: status.isOn ? "on" : "off", time: now.seconds(since: origin), source: status.cause.rawValue), now: now)
        }
    }

    /// TERM to every hook still running; those that outlive the kiosk are the service manager's to end.
    public func stop(now: Instant) {
        for r in running where !r.killed { kill(-r.process.pid, SIGTERM) }
        for i in running.indices.reversed() {
            var status: Int32 = 0
            if waitpid(running[i].process.pid, &status, WNOHANG) == running[i].process.pid {
                finishRun(i, status: status, now: now)
            }
        }
        queue.removeAll()
    }

    // MARK: Runs

    /// KIOSK_VALUE: what the event carries, else the control's state now (a button's taps, a
    /// slider's value, a switch's on or off).
    static func value(of control: ControlEvent, view: String, scene: KioskScene) -> String {
        switch control {
        case .primaryActionTriggered(let taps): return String(taps)
        case .valueChanged(let v): return fixedDecimal(v, 4)
        case .toggled(let on): return on ? "on" : "off"
        default:
            guard let id = scene.viewID(named: view) else { return "" }
            switch scene.views[id.rawValue].content {
            case .button(let b): return String(b.taps)
            case .slider(let s): return fixedDecimal(s.value, 4)
            case .toggle(let t): return t.isOn ? "on" : "off"
            case .canvas, .square: return ""
            }
        }
    }

    private func submit(_ run: Run, now: Instant) {
        if running.count < settings.maxRunning, queue.isEmpty {
            start(run, now: now)
            return
        }
        guard queue.append(run) else {
            droppedRuns += 1
            if droppedInBurst == 0 {
                log.warning("hook queue full (\(settings.queueLimit) waiting, \(running.count) running): dropping runs until there is room",
                            metadata: identity(run))
            }
            droppedInBurst += 1
            return
        }
    }

    private func startQueued(now: Instant) {
        while running.count < settings.maxRunning, let run = queue.popFirst() {
            start(run, now: now)
        }
        if droppedInBurst > 0, queue.count < settings.queueLimit || running.count < settings.maxRunning {
            log.warning("hook runs dropped while the queue was full: \(droppedInBurst) (\(droppedRuns) since the start)",
                        metadata: ["hook.dropped": "\(droppedInBurst)", "hook.dropped_total": "\(droppedRuns)"])
            droppedInBurst = 0
        }
    }

    private func start(_ run: Run, now: Instant) {
        let hook = run.hook
        var environment = baseEnvironment
        environment.append("KIOSK_VIEW=\(hook.view)")
        environment.append("KIOSK_EVENT=\(hook.event.rawValue)")
        environment.append("KIOSK_VALUE=\(run.value)")
        environment.append("KIOSK_TIME=\(fixedDecimal(run.time, 6))")
        environment.append("KIOSK_SOURCE=\(run.source)")
        switch HookSpawn.start(hook.run, environment: environment) {
        case .failure(let error):
            failedStarts += 1
            log.error("hook \(describe(hook)) cannot start \(hook.run[0]): \(error)", metadata: identity(run))
        case .success(let process):
            startedRuns += 1
            let outputs = [HookOutput(stream: "stdout", fd: process.stdout), HookOutput(stream: "stderr", fd: process.stderr)]
            running.append(Running(run: run, process: process, outputs: outputs, started: now,
                                   deadline: now.adding(seconds: hook.timeoutSeconds)))
            var metadata = identity(run)
            metadata["hook.pid"] = "\(process.pid)"
            log.debug("hook \(describe(hook)) started", metadata: metadata)
        }
    }

    private func readOutputs(_ i: Int) {
        let log = log
        let metadata = metadata(of: running[i])
        let name = describe(running[i].run.hook)
        for k in running[i].outputs.indices {
            let stream = running[i].outputs[k].stream
            running[i].outputs[k].read { line in
                log.info("hook \(name) \(stream): \(line)", metadata: metadata.merging(["hook.stream": "\(stream)"]) { $1 })
            }
        }
    }

    /// Reaps a hook whose pidfd became readable; false if it has not exited after all.
    private func reap(_ i: Int, now: Instant) -> Bool {
        var status: Int32 = 0
        let pid = running[i].process.pid
        guard case .success(pid) = systemCall({ waitpid(pid, &status, WNOHANG) }) else { return false }
        finishRun(i, status: status, now: now)
        return true
    }

    private func finishRun(_ i: Int, status: Int32, now: Instant) {
        let r = running[i]
        let hook = r.run.hook
        let name = describe(hook)
        var metadata = metadata(of: r)
        // What the pipes still hold, then their end: a hook's children may keep them open, but the run is over.
        for k in running[i].outputs.indices {
            let stream = running[i].outputs[k].stream
            let log = log
            let lineMetadata = metadata.merging(["hook.stream": "\(stream)"]) { $1 }
            running[i].outputs[k].read { log.info("hook \(name) \(stream): \($0)", metadata: lineMetadata) }
            running[i].outputs[k].finish { log.info("hook \(name) \(stream): \($0)", metadata: lineMetadata) }
        }
        let dropped = running[i].outputs.reduce(0) { $0 + $1.linesDropped }
        close(r.process.pidfd)
        running.remove(at: i)
        let (ending, success) = HookSpawn.describe(status: status)
        let seconds = fixedDecimal(now.seconds(since: r.started), 3)
        metadata["hook.status"] = "\(ending)"
        var message = "hook \(name) ended: \(ending) after \(seconds) s"
        if r.terminated != nil { message += ", stopped at its timeout of \(fixedDecimal(hook.timeoutSeconds, 3)) s" }
        if dropped > 0 { message += "; \(dropped) more output lines not logged" }
        if success { log.info("\(message)", metadata: metadata) } else { log.warning("\(message)", metadata: metadata) }
    }

    private func enforceTimeout(_ i: Int, now: Instant) {
        let r = running[i]
        if let terminated = r.terminated {
            if !r.killed, now >= terminated.adding(seconds: settings.killGraceSeconds) {
                kill(-r.process.pid, SIGKILL)
                running[i].killed = true
                log.warning("hook \(describe(r.run.hook)) still running \(fixedDecimal(settings.killGraceSeconds, 3)) s after TERM: sent KILL",
                            metadata: metadata(of: r))
            }
        } else if now >= r.deadline {
            kill(-r.process.pid, SIGTERM)
            running[i].terminated = now
            log.warning("hook \(describe(r.run.hook)) still running at its timeout of \(fixedDecimal(r.run.hook.timeoutSeconds, 3)) s: sent TERM",
                        metadata: metadata(of: r))
        }
    }

    /// A hook as the log names it: its event, its view and where it is written.
    func describe(_ hook: HookDescription) -> String {
        "\(hook.event.rawValue) on \(hook.view) (\(hook.location))"
    }

    private func identity(_ run: Run) -> Logger.Metadata {
        let hook = run.hook
        return ["hook.view": "\(hook.view)", "hook.event": "\(hook.event.rawValue)", "hook.location": "\(hook.location)"]
    }

    private func metadata(of r: Running) -> Logger.Metadata {
        var m = identity(r.run)
        m["hook.pid"] = "\(r.process.pid)"
        return m
    }
}

/// A first-in first-out queue of fixed capacity, allocated once: `append` refuses when full.
struct RingQueue<Element> {
    private var storage: [Element?]
    private var head = 0
    private(set) var count = 0

    init(capacity: Int) { storage = Array(repeating: nil, count: capacity) }

    var isEmpty: Bool { count == 0 }
    var capacity: Int { storage.count }

    mutating func append(_ element: Element) -> Bool {
        guard count < storage.count else { return false }
        storage[(head + count) % storage.count] = element
        count += 1
        return true
    }

    mutating func popFirst() -> Element? {
        guard count > 0 else { return nil }
        defer {
            storage[head] = nil
            head = (head + 1) % storage.count
            count -= 1
        }
        return storage[head]
    }

    mutating func removeAll() {
        while popFirst() != nil {}
    }
}
