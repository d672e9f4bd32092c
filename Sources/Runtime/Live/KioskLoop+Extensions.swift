import Gestures
import KioskCore
import KioskLog
import Scene
#if canImport(Glibc)
import Glibc
#endif

/// What the loop serves beyond the panel and the display: the extensions installed (the control
/// socket, hooks, MQTT) and the synthetic touches they asked for.
struct LoopExtensions {
    var installed: [LoopExtension] = []
    var touches = SyntheticTouches()
    /// Where each source's events end in the scene's events, in order: `(end, source)` runs
    /// closed as changes are made; events past the last run are a finger's (`.touch`). Kept
    /// until the wake-up's end, when they are published; its capacity is kept too.
    var sourceRuns: [(end: Int, source: ChangeSource)] = []
    /// Commands submitted by the extensions, applied after every one was served.
    var commands = RingQueue<QueuedCommand>(capacity: Self.commandCapacity)
    /// The screenshot being encoded in a child, with its bounds (KioskLoop+Screenshots.swift).
    var screenshots = ScreenshotJob()
    /// SIGUSR1's screenshot being written to its file by a child: one at a time, no interval
    /// (only someone on the kiosk itself can send it).
    var fileScreenshots = ScreenshotJob(limits: .init(minimumInterval: 0))
    /// Each socket client has one command waiting at most, MQTT `maximumCommands`.
    static let commandCapacity = 512

    struct QueuedCommand {
        var command: RemoteCommand
        var source: ChangeSource
        var requester: LoopExtension
        var ticket: Int
    }

    init() { sourceRuns.reserveCapacity(64) }

    /// The scene's events up to `count` came from `source` (those not yet in a run).
    mutating func mark(_ count: Int, _ source: ChangeSource) {
        let last = sourceRuns.last?.end ?? 0
        guard count > last else { return }
        if let l = sourceRuns.last, l.source == source {
            sourceRuns[sourceRuns.count - 1].end = count
        } else {
            sourceRuns.append((count, source))
        }
    }
}

// The loop's side of LoopExtension.swift: one poll() for them all, their commands applied as a
// finger's changes, the scene's events handed to each of them.
extension KioskLoop: CommandTarget {

    /// Adds `e` to what the loop serves. Only `kiosk run`: a replay stays deterministic and
    /// offline, and ignores it.
    public func install(_ e: LoopExtension) {
        guard liveInput != nil else { return }
        extensions.installed.append(e)
        // Extensions hear every control and gesture event, whatever the log level.
        scene.recordsEvents = true
        e.start(configuration: configuration, scene: scene, now: clock.now)
    }

    /// Each extension's descriptors, after the loop's own (poll()'s array, reused every wake-up).
    func appendExtensionDescriptors() {
        extensions.screenshots.appendPollDescriptors(to: &pollLoop.fds)
        extensions.fileScreenshots.appendPollDescriptors(to: &pollLoop.fds)
        for e in extensions.installed { e.appendPollDescriptors(to: &pollLoop.fds) }
    }

    /// After poll(): the synthetic touches that fell due, then each extension's descriptors and
    /// deadlines. Runs before the input stage.
    func serviceExtensions() {
        serviceScreenshots(at: clock.now)
        serviceFileScreenshots(at: clock.now)
        guard !extensions.installed.isEmpty || !extensions.touches.queue.isEmpty else { return }
        scene.recordsEvents = true
        let now = clock.now
        // What the panel's frames did so far this wake-up was a finger's.
        extensions.mark(scene.events.count, .touch)
        playSyntheticTouches(through: now)
        pollLoop.fds.withUnsafeBufferPointer { ready in
            for e in extensions.installed { e.service(ready, now: now, target: self) }
        }
        applySubmittedCommands(at: now)
    }

    public func submit(_ command: RemoteCommand, source: ChangeSource, requester: LoopExtension, ticket: Int) -> Bool {
        extensions.commands.append(LoopExtensions.QueuedCommand(command: command, source: source, requester: requester, ticket: ticket))
    }

    /// The commands the extensions submitted, in order, each applied and its outcome told to the
    /// one who asked (which may submit more: they are applied in this same pass). The loop calls
    /// it after serving the extensions; a test that serves one by hand calls it after.
    public func applySubmittedCommands(at now: Instant) {
        while let c = extensions.commands.popFirst() {
            let result = apply(c.command, source: c.source)
            c.requester.completed(ticket: c.ticket, result: result, target: self, now: now)
        }
    }

    /// The earliest moment an extension or a synthetic touch needs the loop.
    var extensionDeadline: Instant? {
        var wake = extensions.touches.nextDeadline
        if let t = extensions.screenshots.nextDeadline, wake.map({ t < $0 }) ?? true { wake = t }
        if let t = extensions.fileScreenshots.nextDeadline, wake.map({ t < $0 }) ?? true { wake = t }
        for e in extensions.installed {
            if let t = e.nextDeadline, wake.map({ t < $0 }) ?? true { wake = t }
        }
        return wake
    }

    /// Hands the scene's events since the last call to every extension, each run of them with
    /// the source that caused it (the rest as `.touch`). Called once per wake-up, after input,
    /// the extensions' commands and the timers: no extension is being served then.
    func publishSceneEvents(at now: Instant) {
        guard !extensions.installed.isEmpty, !scene.events.isEmpty else {
            extensions.sourceRuns.removeAll(keepingCapacity: true)
            return
        }
        extensions.mark(scene.events.count, .touch)
        var start = 0
        for run in extensions.sourceRuns {
            let slice = scene.events[start..<min(run.end, scene.events.count)]
            start = run.end
            guard !slice.isEmpty else { continue }
            for e in extensions.installed { e.publish(slice, source: run.source, scene: scene, now: now) }
        }
        extensions.sourceRuns.removeAll(keepingCapacity: true)
    }

    /// The loop is ending: every extension's last words.
    func shutdownExtensions() {
        let now = clock.now
        for e in extensions.installed { e.stop(now: now) }
        extensions.screenshots.cancel()
        extensions.fileScreenshots.cancel()
        extensions.installed.removeAll()
    }

    /// Frames of the synthetic finger due by `now`, through the panel's path: blanking, the
    /// engine (and its decision trace), the controls.
    func playSyntheticTouches(through now: Instant) {
        while let (frame, source) = extensions.touches.nextFrame(dueBy: now) {
            // Through the panel's path: counted, admitted by the blanking policy, timed as recognizers.
            extensions.mark(scene.events.count, .touch)
            deliver(frame)
            extensions.mark(scene.events.count, source)
        }
    }

    /// Applies `command` now (the queue's commands, and tests), or says why not; its events are
    /// marked with `source` and published at the end of the wake-up.
    public func apply(_ command: RemoteCommand, source: ChangeSource) -> Result<Void, RemoteCommandError> {
        let now = clock.now
        // Events before this change were someone else's.
        extensions.mark(scene.events.count, .touch)
        do {
            switch command {
            case .setValue(let view, let value):
                try scene.change(view, .value(value), at: now)
            case .setOn(let view, let on):
                try scene.change(view, .on(on), at: now)
            case .setLabel(let view, let label):
                try scene.change(view, .label(label), at: now)
            case .press(let view):
                try scene.change(view, .press, at: now)
            case .setDisplay, .wake, .setBlankAfter:
                try applyScreen(command, source: source, at: now)
            case .tap(let p):
                try checkOnScreen(p, "tap")
                try queue(SyntheticTouches.tap(at: p, source: source, now: now))
            case .swipe(let from, let to, let seconds):
                try checkOnScreen(from, "swipe from")
                try checkOnScreen(to, "swipe to")
                guard seconds.isFinite, seconds >= 0, seconds <= SyntheticTouches.maximumSwipeSeconds else {
                    throw RemoteCommandError("duration \(seconds) is out of range; expected seconds from 0 to \(Int(SyntheticTouches.maximumSwipeSeconds))")
                }
                try queue(SyntheticTouches.swipe(from: from, to: to, seconds: seconds, source: source, now: now))
            case .screenshot:
                try requestScreenshot(at: now)
            }
        } catch let e as ControlChangeError {
            return .failure(RemoteCommandError(e.message))
        } catch let e as RemoteCommandError {
            return .failure(e)
        } catch {
            return .failure(RemoteCommandError("\(error)"))
        }
        extensions.mark(scene.events.count, source)
        // A tap asked for now starts now, not at the next wake-up.
        playSyntheticTouches(through: now)
        return .success(())
    }

    private func checkOnScreen(_ p: Point, _ what: String) throws(RemoteCommandError) {
        let w = Double(pipeline.shadow.width), h = Double(pipeline.shadow.height)
        guard p.x.isFinite, p.y.isFinite, p.x >= 0, p.y >= 0, p.x < w, p.y < h else {
            throw RemoteCommandError("\(what) (\(p.x), \(p.y)) is off the screen; expected x from 0 to \(pipeline.shadow.width - 1), y from 0 to \(pipeline.shadow.height - 1)")
        }
    }

    private func queue(_ g: SyntheticTouches.Gesture) throws(RemoteCommandError) {
        guard extensions.touches.enqueue(g) else {
            throw RemoteCommandError("\(SyntheticTouches.capacity) synthetic gestures are already waiting; try again when they are played")
        }
    }
}
