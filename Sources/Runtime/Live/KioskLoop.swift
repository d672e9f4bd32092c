import CLinuxSystem
import Display
import Geometry
import Gestures
import InputEvents
import KioskConfig
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
    public private(set) var configuration: KioskConfiguration
    /// 1 for the file read at start, one more for each reload that applied.
    public private(set) var generation = 1
    public private(set) var scene: KioskScene
    public private(set) var stats: LoopStats
    public private(set) var blanking: BlankingPolicy
    /// Nil: a replay that draws nothing.
    public let output: FrameOutput?
    public private(set) var shadow: PixelBuffer
    public private(set) var screenshotsWritten: [String] = []
    /// Called when the log level changes on reload; the executable's handler reads it.
    public var onLogLevel: ((Logger.Level) -> Void)?

    private var log: Logger
    private let logPump: LogPump?
    private var renderer: SceneRenderer?
    /// Live: a touchscreen, signals, stats and systemd; else a replay on a virtual clock.
    private let isLive: Bool
    private var damage: DamageTracker
    private var rotation: DisplayRotation
    private var input: TouchscreenWatcher?
    private var inputProblem: String?
    private let notifier: SystemdNotifier?
    private var signals: Int32 = -1
    private var timer: Int32 = -1
    private var previousMask = sigset_t()
    /// Reused every wake-up: the loop allocates nothing of its own in steady state.
    private var fds: [pollfd] = []
    private var rects: [Rect] = []
    private var pendingInput: [Instant] = []
    private var inFlightInput: [Instant] = []
    private var flipsSeen = 0
    private var displayDown = false
    private var nextDisplayRetry: Instant?
    private var nextStats: Instant?
    private var reloadPending = false
    private var devicesAttached = 0
    private var decisionsLogged = 0
    private var recognizerNanoseconds: Int64 = 0
    private var statsLines = 0
    private var lastOverrunLog: [Instant?] = Array(repeating: nil, count: LoopStats.stages.count)
    private let clock: () -> Instant

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
            output.restore()
            throw error
        }
        // Signals are taken from here on: one sent while starting must not kill the kiosk.
        try openLoopFiles()
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
        output?.restore()
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
    private func openLoopFiles() throws(KioskLoopError) {
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
            input?.forEachDescriptor { fd in fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
            logPump?.descriptorsWantingWrite { fd in
                if fds.count < fds.capacity { fds.append(pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)) }
            }
            let ready = fds.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), -1) }
            if ready < 0 && errno != EINTR {
                log.error("poll failed", metadata: ["errno": "\(String(cString: strerror(errno)))"])
            }
            if let ending = iterate() { return finish(ending) }
        }
    }

    /// One wake-up: every stage in order. Returns an ending when a signal asks to stop.
    func iterate() -> Ending? {
        drainTimer()
        if let ending = handleSignals() { return ending }
        handleDisplayEvents(at: clock())

        // Input: read and decode; each frame goes to the scene at once (the recognizers' stage).
        recognizerNanoseconds = 0
        let inputStart = clock()
        let resyncsBefore = input?.resyncCount ?? 0
        let droppedBefore = input?.droppedEvents ?? 0
        if let input {
            input.service { event in
                switch event {
                case .frame(let frame):
                    deliver(frame, touchesDown: input.activeTouchCount)
                case .attached(let path, let name, let kind):
                    devicesAttached += 1
                    log.info("touchscreen attached", metadata: ["input.device": "\(path)", "input.name": "\(name)", "input.kind": "\(kind)"])
                case .detached(let path, let name):
                    log.warning("touchscreen removed; its touches were cancelled", metadata: ["input.device": "\(path)", "input.name": "\(name)"])
                case .problem(let text):
                    log.error("touchscreen cannot be used", metadata: ["input.error": "\(text)"])
                }
            }
        }
        stage(.input, elapsedNanoseconds(since: inputStart) - recognizerNanoseconds)
        if let input, input.resyncCount > resyncsBefore {
            log.warning("the kernel dropped input events (SYN_DROPPED); resynchronised, no touch left down", metadata: [
                "input.resyncs": "\(input.resyncCount)", "input.dropped": "\(input.droppedEvents - droppedBefore)",
            ])
        }
        if recognizerNanoseconds > 0 { stage(.recognizers, recognizerNanoseconds) }
        tick(at: clock())
        return nil
    }

    /// Delivers one frame of touches as the touchscreen would (a replay's input stage).
    public func process(_ frame: TouchFrame, touchesDown: Int) {
        deliver(frame, touchesDown: touchesDown)
    }

    /// The stages after input, at `now`: timers, then animation, render and present when the
    /// last frame is on screen; then the log, the stats line and the watchdog.
    public func tick(at now: Instant) {
        // Timers: long presses, tap windows, animations ending.
        let timersStart = clock()
        scene.advance(to: now)
        stage(.timers, elapsedNanoseconds(since: timersStart))
        if isLive { logSceneActivity() }

        if reloadPending, (input?.activeTouchCount ?? 0) == 0 { reload(at: now) }
        // Never with a finger on the glass: its lift would be taken for a wake and lost.
        if (input?.activeTouchCount ?? 0) == 0, blanking.shouldBlank(at: now) { blank(true, at: now) }
        if displayDown, let retry = nextDisplayRetry, now >= retry { recoverDisplay(at: now) }
        if let output, !displayDown, !blanking.isBlanked, !output.isFlipPending { drawFrame(at: now) }
        noteFlips()

        if let pump = logPump {
            pump.service(now: now.seconds)
            pump.flush()
        }
        if let due = nextStats, now >= due { statsLine(at: now) }
        notifier?.keepAlive(at: now)
    }

    /// Page flips done: the frame is on the glass, and its inputs' latency is known.
    private func handleDisplayEvents(at now: Instant) {
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

    private func deliver(_ frame: TouchFrame, touchesDown: Int) {
        stats.touchFrames += 1
        switch blanking.admit(frame, touchesDown: touchesDown) {
        case .deliver:
            let start = clock()
            // Timers due before the frame fire at their own times first.
            scene.advance(to: frame.time)
            scene.handle(frame)
            recognizerNanoseconds += elapsedNanoseconds(since: start)
            if pendingInput.count < Self.latencyCapacity { pendingInput.append(frame.time) }
        case .wake:
            blank(false, at: frame.time)
        case .swallow:
            break
        }
    }

    /// Animation (what changed since the last frame), render (cairo into the shadow buffer) and
    /// present (the damage copied to the back buffer, a page flip queued).
    private func drawFrame(at now: Instant) {
        guard let output, let renderer else { return }
        let animationStart = clock()
        damage.damage(for: scene, at: now, into: &rects)
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
        stage(.present, elapsedNanoseconds(since: presentStart))
        stats.frames += 1
        stats.totalFrames += 1
        swap(&pendingInput, &inFlightInput)
        pendingInput.removeAll(keepingCapacity: true)
    }

    /// Records the latency of the inputs whose frame has reached the screen.
    private func noteFlips() {
        guard let output else { return }
        let flips = output.flipCount
        guard flips != flipsSeen, !output.isFlipPending else { return }
        flipsSeen = flips
        let shown = output.lastFlipTime
        for t in inFlightInput { stats.recordLatency(microseconds: shown.microseconds - t.microseconds) }
        inFlightInput.removeAll(keepingCapacity: true)
    }

    private func stage(_ stage: Stage, _ nanoseconds: Int64) {
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

    private func stall(_ stage: Stage) {
        guard let stall = options.injectedStall, stall.stage == stage else { return }
        var t = timespec(tv_sec: Int(stall.milliseconds / 1000), tv_nsec: Int(stall.milliseconds.truncatingRemainder(dividingBy: 1000) * 1e6))
        var left = timespec()
        while nanosleep(&t, &left) != 0 && errno == EINTR { t = left }
    }

    private func elapsedNanoseconds(since start: Instant) -> Int64 {
        (clock().microseconds - start.microseconds) * 1000
    }

    // MARK: Wake-ups

    /// The earliest moment something must happen without input.
    private func nextWake(after now: Instant) -> Instant? {
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
        if (input?.activeTouchCount ?? 0) == 0 { consider(blanking.deadline) }
        consider(notifier?.nextKeepAlive(after: now))
        if displayDown { consider(nextDisplayRetry) }
        if reloadPending { consider(now.adding(seconds: 0.1)) }
        if logPump?.needsService == true { consider(now.adding(seconds: 5)) }
        return wake
    }

    private func arm(_ fd: Int32, at time: Instant?) {
        var spec = itimerspec()
        if let time {
            // Absolute on the monotonic clock, which evdev timestamps and the scene use too; a
            // moment already past still fires (at once).
            let us = max(time.microseconds, 1)
            spec.it_value = timespec(tv_sec: Int(us / 1_000_000), tv_nsec: Int(us % 1_000_000) * 1000)
        }
        timerfd_settime(fd, Int32(TFD_TIMER_ABSTIME), &spec, nil)
    }

    private func drainTimer() {
        var expirations: UInt64 = 0
        _ = read(timer, &expirations, 8)
    }

    // MARK: Signals

    private func handleSignals() -> Ending? {
        var info = signalfd_siginfo()
        var stop: Int32?
        var hangup = false
        var screenshot = false
        // A storm of signals collapses into at most one of each action per wake-up.
        while read(signals, &info, MemoryLayout<signalfd_siginfo>.size) == MemoryLayout<signalfd_siginfo>.size {
            switch Int32(info.ssi_signo) {
            case SIGTERM, SIGINT: stop = Int32(info.ssi_signo)
            case SIGHUP: hangup = true
            case SIGUSR1: screenshot = true
            default: break
            }
        }
        if let stop { return .signal(stop) }
        if hangup {
            log.info("SIGHUP: reloading the config", metadata: ["config.file": "\(options.configPath)"])
            reloadPending = true
            if (input?.activeTouchCount ?? 0) > 0 {
                log.info("the reload waits until no finger is on the glass")
            }
        }
        if screenshot { writeScreenshot() }
        return nil
    }

    private func finish(_ ending: Ending) -> Ending {
        if case .signal(let s) = ending {
            log.info("stopping on \(s == SIGTERM ? "SIGTERM" : "SIGINT"); display restored", metadata: ["frames": "\(stats.totalFrames)"])
        }
        notifier?.stopping()
        output?.restore()
        logPump?.flush()
        return ending
    }

    // MARK: Reload

    private func reload(at now: Instant) {
        reloadPending = false
        notifier?.reloading(at: now)
        defer { notifier?.ready(status: "generation \(generation); \(output?.summary ?? "no display")") }
        let next: KioskConfiguration
        do {
            next = try KioskConfiguration.load(path: options.configPath)
        } catch {
            log.error("config reload failed: \(error); still running generation \(generation)")
            return
        }
        let settings = next.runtime
        let level = options.logLevel ?? Logger.Level(settings.log.level)
        let newScene: KioskScene
        let newRenderer: SceneRenderer?
        do {
            newScene = try KioskScene(next.scene, trace: DecisionTrace(enabled: level <= .debug), recordsEvents: level <= .debug)
            newRenderer = renderer == nil || settings.display.font == configuration.runtime.display.font
                ? renderer : SceneRenderer(font: try Font(path: settings.display.font))
        } catch {
            log.error("config reload failed: \(options.configPath): \(error); still running generation \(generation)")
            return
        }
        let panel = next.scene.panel
        let resized = Int(panel.widthPixels) != shadow.width || Int(panel.heightPixels) != shadow.height
        if resized {
            do {
                shadow = try PixelBuffer(width: Int(panel.widthPixels), height: Int(panel.heightPixels), format: shadow.format)
            } catch {
                log.error("config reload failed: \(options.configPath): panel: \(error); still running generation \(generation)")
                return
            }
            damage = DamageTracker(width: shadow.width, height: shadow.height)
        }
        let carried = newScene.carryOver(from: scene)
        scene = newScene
        renderer = newRenderer
        renderer?.forgetSquareImages()
        damage.invalidate()
        decisionsLogged = 0
        let old = configuration.runtime
        configuration = next
        generation += 1
        onLogLevel?(level)
        stats.setBudgets(Self.budgets(settings.loop, refresh: output?.refreshHz ?? 60))
        if blanking.isBlanked { blank(false, at: now, reason: "by the reload") }
        blanking.blankAfter = settings.display.blankAfterSeconds
        blanking.wake(at: now)
        if settings.log.statsInterval != old.log.statsInterval {
            nextStats = settings.log.statsInterval > 0 ? now.adding(seconds: settings.log.statsInterval) : nil
        }
        if settings.input != old.input || resized { openInput(settings.input) }
        var restartKeys: [String] = []
        if settings.display.card != old.display.card { restartKeys.append("card") }
        if settings.display.connector != old.display.connector { restartKeys.append("connector") }
        if settings.display.mode != old.display.mode { restartKeys.append("mode") }
        if settings.display.pixelFormat != old.display.pixelFormat { restartKeys.append("pixel_format") }
        if settings.display.rotation != old.display.rotation { restartKeys.append("rotation") }
        if settings.log.serial != old.log.serial { restartKeys.append("log.serial") }
        if settings.log.baud != old.log.baud { restartKeys.append("log.baud") }
        if settings.log.stderr != old.log.stderr { restartKeys.append("log.stderr") }
        if settings.log.bufferLines != old.log.bufferLines { restartKeys.append("log.buffer_lines") }
        if settings.log.repeatInterval != old.log.repeatInterval { restartKeys.append("log.repeat_interval") }
        log.info("config reloaded", metadata: [
            "config.generation": "\(generation)", "config.file": "\(options.configPath)",
            "scene.carried": "\(carried.joined(separator: ","))",
        ])
        if !restartKeys.isEmpty {
            log.warning("some changes take effect at the next start", metadata: ["config.restart": "\(restartKeys.joined(separator: ","))"])
        }
    }

    // MARK: Input

    private func openInput(_ settings: InputSettings) {
        let screen = Size(width: Double(shadow.width), height: Double(shadow.height))
        var base = TouchCalibration.identity
        do {
            if let matrix = settings.calibration { base = try TouchCalibration(matrix: matrix) }
            base = try base.rotated(clockwise: settings.rotation).flipped(horizontally: settings.flipX, vertically: settings.flipY)
        } catch {
            log.error("input calibration refused", metadata: ["input.error": "\(error)"])
        }
        let filters = TouchFilters(jitterUnits: Int32(settings.jitterUnits),
                                   minimumPressure: settings.minimumPressure > 0 ? Int32(settings.minimumPressure) : nil)
        input = nil
        do {
            let watcher = try TouchscreenWatcher(directory: settings.directory, wanted: settings.device, grab: settings.grab,
                                                 screen: screen, calibration: base, filters: filters)
            if let pointercal = settings.pointercal {
                watcher.calibrate = { d in try Self.pointercalCalibration(pointercal, device: d, screen: screen, settings: settings) }
            }
            input = watcher
            watcher.attach { event in
                switch event {
                case .attached(let path, let name, let kind):
                    devicesAttached += 1
                    log.info("touchscreen attached", metadata: ["input.device": "\(path)", "input.name": "\(name)", "input.kind": "\(kind)"])
                case .problem(let text):
                    log.error("touchscreen cannot be used", metadata: ["input.error": "\(text)"])
                default:
                    break
                }
            }
            if watcher.device == nil {
                log.warning("no touchscreen yet; waiting for one to be plugged in", metadata: [
                    "input.directory": "\(settings.directory)", "input.wanted": "\(settings.device ?? "any touchscreen")",
                ])
            }
        } catch {
            log.error("touch input unavailable", metadata: ["input.error": "\(error)"])
        }
    }

    static func pointercalCalibration(_ path: String, device d: DeviceDescription, screen: Size, settings: InputSettings) throws -> TouchCalibration {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return try TouchCalibration(pointercal: text, device: d, screen: (screen.width, screen.height))
            .rotated(clockwise: settings.rotation).flipped(horizontally: settings.flipX, vertically: settings.flipY)
    }

    // MARK: Display faults and blanking

    private func displayFailed(_ error: DisplayError, at now: Instant) {
        if !displayDown {
            log.error("display lost: \(error); retrying every 2 s, input goes on")
        }
        displayDown = true
        nextDisplayRetry = now.adding(seconds: 2)
        inFlightInput.removeAll(keepingCapacity: true)
    }

    private func recoverDisplay(at now: Instant) {
        guard let output else { return }
        do {
            try output.recover()
        } catch {
            nextDisplayRetry = now.adding(seconds: 2)
            log.debug("display still down: \(error)")
            return
        }
        displayDown = false
        nextDisplayRetry = nil
        damage.invalidate()
        log.info("display back; drawing a whole frame", metadata: ["display": "\(output.summary)"])
    }

    private func blank(_ off: Bool, at now: Instant, reason: String = "by a touch; the waking touch is not delivered") {
        do {
            try output?.setPower(on: !off)
            if off {
                log.info("display blanked after \(fixedDecimal(configuration.runtime.display.blankAfterSeconds, 0)) s without a touch")
            } else {
                damage.invalidate()
                log.info("display woken \(reason)")
            }
        } catch {
            if off {
                // A panel that cannot sleep stays on and keeps drawing; its next touch is the user's.
                blanking.wake(at: now)
                blanking.blankAfter = 0
                log.error("display cannot be blanked: \(error); blanking is off until the config is reloaded")
            } else {
                log.error("display cannot be woken: \(error)")
            }
        }
    }

    // MARK: Log output

    private func logSceneActivity() {
        guard scene.recordsEvents else { return }
        if !scene.events.isEmpty {
            for line in SceneReport.eventLines(scene.events, origin: .zero) { log.debug("scene \(line)") }
            scene.removeAllEvents()
        }
        let trace = scene.engine.trace
        if trace.decisions.count > decisionsLogged {
            for d in trace.decisions[decisionsLogged...] {
                log.debug("gesture \(scene.engine.describe(d, origin: .zero, viewName: { self.scene.views[$0.rawValue].name }))")
            }
            trace.removeAll()
            decisionsLogged = 0
        }
    }

    private func statsLine(at now: Instant) {
        let interval = configuration.runtime.log.statsInterval
        nextStats = interval > 0 ? now.adding(seconds: interval) : nil
        let fields = stats.report(at: now, extra: [
            ("touches.down", "\(input?.activeTouchCount ?? 0)"),
            ("input.dropped", "\(input?.droppedEvents ?? 0)"),
            ("input.resyncs", "\(input?.resyncCount ?? 0)"),
            ("devices", "\(input?.device == nil ? 0 : 1)"),
            ("devices.attached", "\(devicesAttached)"),
            ("log.dropped", "\(logPump?.droppedLines ?? 0)"),
            ("display", displayDown ? "down" : blanking.isBlanked ? "blank" : "on"),
            ("config.generation", "\(generation)"),
        ])
        var metadata: Logger.Metadata = [:]
        for (k, v) in fields { metadata[k] = "\(v)" }
        // Numbered: a gap in the numbers on the serial console shows lines were lost, and the
        // log's repeat limiter, keyed on the message, never takes one stats line for another.
        statsLines += 1
        log.info("stats \(statsLines)", metadata: metadata)
    }

    private func writeScreenshot() {
        let directory = configuration.runtime.display.screenshotDirectory
        var t = time(nil)
        var parts = tm()
        gmtime_r(&t, &parts)
        let stamp = String(format4: Int(parts.tm_year) + 1900) + two(Int(parts.tm_mon) + 1) + two(Int(parts.tm_mday))
            + "-" + two(Int(parts.tm_hour)) + two(Int(parts.tm_min)) + two(Int(parts.tm_sec))
        let path = "\(directory)/kiosk-\(stamp)-\(screenshotsWritten.count + 1).png"
        do {
            try shadow.writePNG(to: path)
            screenshotsWritten.append(path)
            log.info("SIGUSR1: screenshot written", metadata: ["screenshot": "\(path)"])
        } catch {
            log.error("SIGUSR1: screenshot not written: \(error)", metadata: ["screenshot.directory": "\(directory)"])
        }
    }

    private func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    // MARK: Setup helpers

    static func budgets(_ loop: LoopSettings, refresh: Int) -> [Int64] {
        let frame = loop.frameBudgetMilliseconds.map { $0 * 1e6 } ?? 1e9 / Double(max(1, refresh))
        return LoopStats.budgets(frameNanoseconds: Int64(frame), settings: loop)
    }

    static func sceneSize(_ c: KioskConfiguration) -> (width: Int, height: Int) {
        (Int(c.scene.panel.widthPixels), Int(c.scene.panel.heightPixels))
    }

    static func pixelFormat(_ d: DisplaySettings) -> PixelFormat { d.pixelFormat == .rgb565 ? .rgb565 : .xrgb8888 }

    static func openOutput(_ d: DisplaySettings, sceneSize: (width: Int, height: Int),
                           clock: @escaping () -> Instant) throws(DisplayError) -> FrameOutput {
        let format = pixelFormat(d)
        let rotation = DisplayRotation(degrees: d.rotation) ?? .upright
        if d.card == "headless" {
            let size = rotation.panelSize(width: sceneSize.width, height: sceneSize.height)
            do {
                return try HeadlessOutput(width: size.width, height: size.height, format: format, now: clock)
            } catch {
                throw DisplayError("headless: \(error)")
            }
        }
        var request: ModeRequest?
        if let mode = d.mode {
            guard let r = ModeRequest(parsing: mode) else { throw DisplayError("display.mode: '\(mode)' is not WxH or WxH@R") }
            request = r
        }
        return try DRMDisplay(card: d.card, connector: d.connector, mode: request, format: format)
    }

    /// Now on the monotonic clock, the clock evdev timestamps and page-flip events use.
    public static func monotonicNow() -> Instant {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Instant(microseconds: Int64(t.tv_sec) * 1_000_000 + Int64(t.tv_nsec) / 1000)
    }
}

extension String {
    fileprivate init(format4 n: Int) { self = n < 1000 ? String(repeating: "0", count: 4 - String(n).count) + String(n) : String(n) }
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
