import CLinuxSystem
import Display
import Gestures
import InputEvents
import KioskConfig
import KioskCore
import Logging
import Render
import Scene
import TouchInput
#if canImport(Glibc)
import Glibc
#endif

/// The log's outputs as the loop sees them: polled for writability only while they hold lines.
public protocol LogPump: AnyObject {
    /// Calls `body` with each output's descriptor that has lines waiting.
    func descriptorsWantingWrite(_ body: (Int32) -> Void)
    /// Writes what the outputs take now, without blocking.
    func flush()
    /// Writes what the outputs hold, waiting at most `seconds` for them: the last words at exit.
    func drain(seconds: Double)
    /// Opens the serial device again when it was missing or failed, and reports such problems.
    func service(now: Double)
    /// Lines dropped because an output was too slow.
    var droppedLines: Int { get }
    /// True while an output waits to be opened again: the loop then wakes every few seconds.
    var needsService: Bool { get }
}

/// `kiosk run`: one thread, one `poll()` over the touchscreen, the display, a timer, signals,
/// hotplug and the serial log. Nothing moving means no wake-ups but the stats line and the
/// watchdog: no CPU, no page flips.
///
/// Each wake-up runs the frame's stages in order (input, timers, recognizers, animation,
/// render, present), each timed against its share of the frame budget; an overrun is counted
/// and logged, and the stats line reports latency from the kernel's input timestamps to the
/// page flip that showed their effect.
public final class KioskLoop {
    public typealias Stage = LoopSettings.Stage

    public struct Options {
        public var configPath: String
        /// Overrides `[log] level` (`kiosk run --log-level`).
        public var logLevel: Logger.Level?
        /// Testing the budget: sleep this long in a stage every time it runs.
        public var injectedStall: (stage: Stage, milliseconds: Double)?
        public var environment: [String: String]

        public init(configPath: String, logLevel: Logger.Level? = nil, injectedStall: (stage: Stage, milliseconds: Double)? = nil,
                    environment: [String: String] = [:]) {
            self.configPath = configPath
            self.logLevel = logLevel
            self.injectedStall = injectedStall
            self.environment = environment
        }
    }

    public enum Ending: Equatable, Sendable {
        case signal(Int32)
    }

    public let options: Options
    public internal(set) var configuration: KioskConfiguration
    /// 1 for the file read at start, one more for each reload that applied.
    public internal(set) var generation = 1
    public internal(set) var scene: KioskScene
    public internal(set) var stats: LoopStats
    public internal(set) var blanking: BlankingPolicy
    /// Nil: a replay that draws nothing.
    public let output: FrameOutput?
    public internal(set) var shadow: PixelBuffer
    public internal(set) var screenshotsWritten: [String] = []
    /// Called when the log level changes on reload; the executable's handler reads it.
    public var onLogLevel: ((Logger.Level) -> Void)?

    var log: Logger
    let logPump: LogPump?
    var renderer: SceneRenderer?
    /// Live: a touchscreen, signals, stats and systemd; else a replay on a virtual clock.
    let isLive: Bool
    var damage: DamageTracker
    var rotation: DisplayRotation
    var input: TouchscreenWatcher?
    let notifier: SystemdNotifier?
    var signals: Int32 = -1
    var timer: Int32 = -1
    var previousMask = sigset_t()
    /// Reused every wake-up: the loop allocates nothing of its own in steady state.
    var fds: [pollfd] = []
    var rects: [Rect] = []
    var pendingInput: [Instant] = []
    var inFlightInput: [Instant] = []
    var flipsSeen = 0
    var displayDown = false
    /// The connector said nothing is connected (a hotplug event); drawing waits for the next one.
    var displayUnplugged = false
    /// The kernel's device events, for display hotplug; nil when not live or refused.
    var hotplug: DisplayHotplugSocket?
    var nextDisplayRetry: Instant?
    /// On a paced output, when the next frame is drawn (KioskLoop+Pacing.swift).
    var repaintAt: Instant?
    var nextStats: Instant?
    var reloadPending = false
    /// The counts of touchscreen watchers a reload replaced: the stats line's totals are the run's.
    var retiredInputCounters = InputCounters()
    var recognizerNanoseconds: Int64 = 0
    /// Deadlines that fell before a delivered frame fire first: timers' time, not recognizers',
    /// counted in the next timers stage.
    var deliveryTimerNanoseconds: Int64 = 0
    var statsLines = 0
    var lastOverrunLog: [Instant?] = Array(repeating: nil, count: LoopStats.stages.count)
    let clock: () -> Instant

    /// Reads the config, opens the display and the touchscreen: `kiosk run`.
    /// Throws `KioskLoopError.config` (exit status 2) or `.display` (exit status 1).
    public convenience init(options: Options, logger: Logger, logPump: LogPump?,
                            output makeOutput: ((DisplaySettings) throws(DisplayError) -> FrameOutput)? = nil,
                            clock: @escaping () -> Instant = KioskLoop.monotonicNow) throws(KioskLoopError) {
        let configuration: KioskConfiguration
        do {
            configuration = try KioskConfiguration.load(path: options.configPath)
        } catch {
            throw .config("\(error)")
        }
        let settings = configuration.runtime
        let output: FrameOutput
        do {
            if let makeOutput {
                output = try makeOutput(settings.display)
            } else {
                output = try Self.openOutput(settings.display, sceneSize: Self.sceneSize(configuration), clock: clock)
            }
        } catch {
            throw .display(error.description)
        }
        do {
            try self.init(configuration: configuration, options: options, logger: logger, logPump: logPump, output: output, live: true, clock: clock)
        } catch {
            _ = output.restore()
            throw error
        }
        // Signals are taken from here on: one sent while starting must not kill the kiosk.
        try openLoopFiles()
        openDisplayHotplug()
        openInput(settings.input)
    }

    /// The loop on `configuration` without a touchscreen, signals or a real display: `kiosk replay`
    /// steps it on a virtual clock with `process(_:)` and `tick(at:)`. With `output` nil nothing is
    /// drawn (a replay that wants no screenshot).
    public convenience init(replaying configuration: KioskConfiguration, output: FrameOutput?, traceDecisions: Bool,
                            recordsEvents: Bool = true, clock: @escaping () -> Instant) throws(KioskLoopError) {
        try self.init(configuration: configuration, options: Options(configPath: configuration.file, logLevel: traceDecisions ? .debug : .info),
                      logger: Logger(label: "kiosk.replay", factory: { _ in SwiftLogNoOpLogHandler() }), logPump: nil,
                      output: output, live: false, clock: clock)
        scene.recordsEvents = recordsEvents
    }

    private init(configuration: KioskConfiguration, options: Options, logger: Logger, logPump: LogPump?, output: FrameOutput?,
                 live: Bool, clock: @escaping () -> Instant) throws(KioskLoopError) {
        self.options = options
        self.configuration = configuration
        self.log = logger
        self.logPump = logPump
        self.clock = clock
        self.output = output
        isLive = live
        let settings = configuration.runtime
        guard let turn = DisplayRotation(degrees: settings.display.rotation) else {
            throw .config("\(options.configPath): display.rotation: \(settings.display.rotation) is not 0, 90, 180 or 270")
        }
        rotation = turn
        let size = Self.sceneSize(configuration)
        let level = options.logLevel ?? Logger.Level(settings.log.level)
        do {
            shadow = try PixelBuffer(width: size.width, height: size.height, format: Self.pixelFormat(settings.display))
            renderer = output == nil ? nil : SceneRenderer(font: try Font(path: settings.display.font))
        } catch {
            throw .config("\(options.configPath): display.font: \(error)")
        }
        do {
            scene = try KioskScene(configuration.scene, trace: DecisionTrace(enabled: level <= .debug), recordsEvents: !live || level <= .debug)
        } catch {
            throw .config("\(error)")
        }
        damage = DamageTracker(width: size.width, height: size.height)
        let now = clock()
        stats = LoopStats(budgets: Self.budgets(settings.loop, refresh: output?.refreshHz ?? 60), start: now)
        blanking = BlankingPolicy(blankAfter: settings.display.blankAfterSeconds, now: now)
        notifier = live ? SystemdNotifier(environment: options.environment) : nil
        rects.reserveCapacity(64)
        pendingInput.reserveCapacity(Self.latencyCapacity)
        inFlightInput.reserveCapacity(Self.latencyCapacity)
        guard live, let output else { return }
        log.info("kiosk starting", metadata: [
            "config.file": "\(options.configPath)", "config.generation": "\(generation)",
            "display": "\(output.summary)", "display.rotation": "\(turn.degrees)",
            "scene.views": "\(configuration.scene.views.count)", "scene.gestures": "\(configuration.scene.gestures.count)",
        ])
        if turn.panelSize(width: size.width, height: size.height) != (output.width, output.height) {
            log.warning("the scene does not fit the mode: the frame is cut or bordered", metadata: [
                "scene.size": "\(size.width)x\(size.height)", "display.size": "\(output.width)x\(output.height)",
                "display.rotation": "\(turn.degrees)",
            ])
        }
    }

    deinit {
        _ = output?.restore()
        if signals >= 0 {
            // Signals still pending (a second SIGTERM) are taken here, not by their default action
            // once the mask is back: the exit stays clean.
            var info = signalfd_siginfo()
            while read(signals, &info, MemoryLayout<signalfd_siginfo>.size) > 0 {}
            close(signals)
            pthread_sigmask(SIG_SETMASK, &previousMask, nil)
        }
        if timer >= 0 { close(timer) }
    }

    /// Signals arrive as a file in the same poll: no handler runs in the middle of a frame.
    func openLoopFiles() throws(KioskLoopError) {
        guard signals < 0 else { return }
        var mask = sigset_t()
        sigemptyset(&mask)
        for s in [SIGINT, SIGTERM, SIGHUP, SIGUSR1] { sigaddset(&mask, s) }
        signal(SIGPIPE, SIG_IGN)
        pthread_sigmask(SIG_BLOCK, &mask, &previousMask)
        signals = signalfd(-1, &mask, kiosk_SFD_CLOEXEC | kiosk_SFD_NONBLOCK)
        timer = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
        guard signals >= 0, timer >= 0 else { throw .display("signalfd/timerfd: \(String(cString: strerror(errno)))") }
        fds.reserveCapacity(16)
    }

    /// Latency samples kept per frame; more inputs than this before a flip are not all measured.
    static let latencyCapacity = 128

    /// Runs until SIGTERM or SIGINT; the display is put back before it returns.
    public func run() throws(KioskLoopError) -> Ending {
        try openLoopFiles()
        let start = clock()
        drawFrame(at: start)
        logPump?.service(now: start.seconds)
        logPump?.flush()
        notifier?.ready(status: "generation \(generation); \(output?.summary ?? "no display")")
        if configuration.runtime.log.statsInterval > 0 {
            nextStats = start.adding(seconds: configuration.runtime.log.statsInterval)
        }
        while true {
            let wake = nextWake(after: clock())
            arm(timer, at: wake)
            fds.removeAll(keepingCapacity: true)
            fds.append(pollfd(fd: signals, events: Int16(POLLIN), revents: 0))
            fds.append(pollfd(fd: timer, events: Int16(POLLIN), revents: 0))
            if let fd = output?.pollDescriptor { fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
            if let fd = hotplug?.fileDescriptor { fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
            input?.forEachDescriptor { fd in fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
            logPump?.descriptorsWantingWrite { fd in
                if fds.count < fds.capacity { fds.append(pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)) }
            }
            let ready = fds.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), -1) }
            if ready < 0 && errno != EINTR {
                // Never seen in practice (poll fails only on a bad array or no memory), but a loop
                // that went round again at once would spin a core: say it, then wait a moment.
                log.error("poll failed; retrying in 0.1 s", metadata: ["errno": "\(String(cString: strerror(errno)))"])
                pause(milliseconds: 100)
            }
            if let ending = iterate() { return finish(ending) }
        }
    }

    /// One wake-up: every stage in order. Returns an ending when a signal asks to stop.
    func iterate() -> Ending? {
        drainTimer()
        if let ending = handleSignals() { return ending }
        handleDisplayEvents(at: clock())
        if let hotplug, hotplug.readDisplayHotplug() { displayHotplugged(at: clock()) }

        // Input: read and decode; each frame goes to the scene at once (the recognizers' stage,
        // and the timers' for deadlines that fall before it).
        recognizerNanoseconds = 0
        deliveryTimerNanoseconds = 0
        let inputStart = clock()
        stall(.input)
        let resyncsBefore = input?.counters.resyncs ?? 0
        if let input {
            input.service { event in
                switch event {
                case .frame(let frame):
                    deliver(frame, touchesDown: input.activeTouchCount)
                default:
                    logInput(event, from: input)
                }
            }
        }
        stage(.input, elapsedNanoseconds(since: inputStart) - recognizerNanoseconds - deliveryTimerNanoseconds)
        if let input, input.counters.resyncs > resyncsBefore {
            log.warning("the kernel dropped input events (SYN_DROPPED); resynchronised, no touch left down", metadata: [
                "input.resyncs": "\(inputCounters.resyncs)",
            ])
        }
        if recognizerNanoseconds > 0 { stage(.recognizers, recognizerNanoseconds) }
        tick(at: clock())
        return nil
    }

    /// Delivers one frame of touches as the touchscreen would (a replay's input stage).
    public func process(_ frame: TouchFrame, touchesDown: Int) {
        recognizerNanoseconds = 0
        deliver(frame, touchesDown: touchesDown)
        if recognizerNanoseconds > 0 { stage(.recognizers, recognizerNanoseconds) }
    }

    /// The stages after input, at `now`: timers, then animation, render and present when the
    /// last frame is on screen; then the log, the stats line and the watchdog.
    public func tick(at now: Instant) {
        // Timers: long presses, tap windows, animations ending; with those that fired while
        // input was delivered.
        let timersStart = clock()
        scene.advance(to: now)
        stall(.timers)
        stage(.timers, elapsedNanoseconds(since: timersStart) + deliveryTimerNanoseconds)
        deliveryTimerNanoseconds = 0
        if isLive { logSceneActivity() }

        if reloadPending, (input?.activeTouchCount ?? 0) == 0 { reload(at: now) }
        // Never with a finger on the glass: its lift would be taken for a wake and lost.
        if (input?.activeTouchCount ?? 0) == 0, blanking.shouldBlank(at: now) { blank(true, at: now) }
        if displayDown, let retry = nextDisplayRetry, now >= retry { recoverDisplay(at: now) }
        if let output, !displayDown, !blanking.isBlanked, !output.isFlipPending, repaintDue(at: now) { drawFrame(at: now) }
        noteFlips()

        if let pump = logPump {
            pump.service(now: now.seconds)
            pump.flush()
        }
        if let due = nextStats, now >= due { statsLine(at: now) }
        notifier?.keepAlive(at: now)
    }

    /// Page flips done: the frame is on the glass, and its inputs' latency is known.
    func handleDisplayEvents(at now: Instant) {
        if let output, !displayDown, output.pollDescriptor != nil {
            do {
                try output.handleEvents()
            } catch {
                displayFailed(error, at: now)
            }
        }
        noteFlips()
    }

    /// The moment the loop must wake without input (a replay moves its clock there); nil when
    /// nothing is pending.
    public func nextWake() -> Instant? { nextWake(after: clock()) }

    // MARK: Stages

    func deliver(_ frame: TouchFrame, touchesDown: Int) {
        stats.touchFrames += 1
        switch blanking.admit(frame, touchesDown: touchesDown) {
        case .deliver:
            // Timers due before the frame fire at their own times first.
            let timersStart = clock()
            scene.advance(to: frame.time)
            let recognizersStart = clock()
            deliveryTimerNanoseconds += elapsedNanoseconds(from: timersStart, to: recognizersStart)
            for touch in frame.touches where touch.phase == .began { stats.touchesBegan += 1 }
            scene.handle(frame)
            stall(.recognizers)
            recognizerNanoseconds += elapsedNanoseconds(since: recognizersStart)
            if pendingInput.count < Self.latencyCapacity {
                pendingInput.append(frame.time)
            } else {
                stats.unmeasuredInputs += 1
            }
        case .wake:
            blank(false, at: frame.time)
        case .swallow:
            break
        }
    }

    /// Animation (what changed since the last frame), render (cairo into the shadow buffer) and
    /// present (the damage copied to the back buffer, a page flip queued).
    func drawFrame(at now: Instant) {
        guard let output, let renderer else { return }
        let animationStart = clock()
        damage.damage(for: scene, at: now, into: &rects)
        stall(.animation)
        stage(.animation, elapsedNanoseconds(since: animationStart))
        guard !rects.isEmpty else {
            // Nothing changed on screen: those inputs showed nothing, there is nothing to measure.
            pendingInput.removeAll(keepingCapacity: true)
            return
        }
        let renderStart = clock()
        renderer.draw(scene: scene, at: now, into: shadow, clip: rects)
        stall(.render)
        stage(.render, elapsedNanoseconds(since: renderStart))
        let presentStart = clock()
        do {
            try output.copy(from: shadow, damage: rects, rotation: rotation)
            try output.present()
        } catch {
            displayFailed(error, at: now)
            return
        }
        stall(.present)
        stage(.present, elapsedNanoseconds(since: presentStart))
        stats.frames += 1
        stats.totalFrames += 1
        swap(&pendingInput, &inFlightInput)
        pendingInput.removeAll(keepingCapacity: true)
    }

    /// Records the latency of the inputs whose frame has reached the screen.
    func noteFlips() {
        guard let output else { return }
        let flips = output.flipCount
        guard flips != flipsSeen, !output.isFlipPending else { return }
        flipsSeen = flips
        let shown = output.lastFlipTime
        for t in inFlightInput { stats.recordLatency(microseconds: shown.microseconds - t.microseconds) }
        inFlightInput.removeAll(keepingCapacity: true)
    }

    func stage(_ stage: Stage, _ nanoseconds: Int64) {
        if stats.record(stage, nanoseconds: nanoseconds) {
            let i = LoopStats.index(of: stage)
            // At most one line a second per stage: a Pi that overruns every frame must not build
            // a line every frame. The count goes on (in the next line and in the stats line).
            let now = clock()
            if let last = lastOverrunLog[i], now.seconds(since: last) < 1 { return }
            lastOverrunLog[i] = now
            log.warning("\(stage.rawValue) stage overran its budget", metadata: [
                "stage": "\(stage.rawValue)",
                "stage.took.ms": "\(fixedDecimal(Double(nanoseconds) / 1e6, 2))",
                "stage.budget.ms": "\(fixedDecimal(Double(stats.budgets[i]) / 1e6, 2))",
                "stage.overruns": "\(stats.totalOverruns[i])",
            ])
        }
    }

    /// `kiosk run --inject-stall STAGE:MS`: the stage takes that much longer each time it runs.
    func stall(_ stage: Stage) {
        guard let stall = options.injectedStall, stall.stage == stage else { return }
        pause(milliseconds: stall.milliseconds)
    }

    func pause(milliseconds: Double) {
        var t = timespec(tv_sec: Int(milliseconds / 1000), tv_nsec: Int(milliseconds.truncatingRemainder(dividingBy: 1000) * 1e6))
        var left = timespec()
        while nanosleep(&t, &left) != 0 && errno == EINTR { t = left }
    }

    func elapsedNanoseconds(since start: Instant) -> Int64 {
        elapsedNanoseconds(from: start, to: clock())
    }

    func elapsedNanoseconds(from start: Instant, to end: Instant) -> Int64 {
        (end.microseconds - start.microseconds) * 1000
    }

    // MARK: Wake-ups

    /// The earliest moment something must happen without input.
    func nextWake(after now: Instant) -> Instant? {
        var wake: Instant?
        func consider(_ t: Instant?) {
            guard let t else { return }
            if wake.map({ t < $0 }) ?? true { wake = t }
        }
        consider(scene.nextDeadline)
        // An animation runs at the refresh rate; with page flips, the flip event paces it.
        if let output, scene.isAnimating, output.pollDescriptor == nil || !output.isFlipPending {
            consider(now.adding(seconds: 1 / Double(output.refreshHz)))
        }
        consider(nextStats)
        if let repaintAt, repaintAt > now { consider(repaintAt) }
        // A new touchscreen node that refused to open is looked at again when udev's time is up.
        consider(input?.nextDeadline)
        if (input?.activeTouchCount ?? 0) == 0 { consider(blanking.deadline) }
        consider(notifier?.nextKeepAlive(after: now))
        if displayDown { consider(nextDisplayRetry) }
        if reloadPending { consider(now.adding(seconds: 0.1)) }
        if logPump?.needsService == true { consider(now.adding(seconds: 5)) }
        return wake
    }

    func arm(_ fd: Int32, at time: Instant?) {
        var spec = itimerspec()
        if let time {
            // Absolute on the monotonic clock, which evdev timestamps and the scene use too; a
            // moment already past still fires (at once).
            let us = max(time.microseconds, 1)
            spec.it_value = timespec(tv_sec: Int(us / 1_000_000), tv_nsec: Int(us % 1_000_000) * 1000)
        }
        timerfd_settime(fd, Int32(TFD_TIMER_ABSTIME), &spec, nil)
    }

    func drainTimer() {
        var expirations: UInt64 = 0
        _ = read(timer, &expirations, 8)
    }
}

/// Why `kiosk run` could not start.
public enum KioskLoopError: Error, CustomStringConvertible {
    /// The config, the font or the scene is wrong: exit status 2.
    case config(String)
    /// The display cannot be driven: exit status 1.
    case display(String)

    public var description: String {
        switch self {
        case .config(let s), .display(let s): s
        }
    }
}

extension Logger.Level {
    init(_ level: LogSettings.Level) {
        switch level {
        case .trace: self = .trace
        case .debug: self = .debug
        case .info: self = .info
        case .notice: self = .notice
        case .warning: self = .warning
        case .error: self = .error
        case .critical: self = .critical
        }
    }
}
