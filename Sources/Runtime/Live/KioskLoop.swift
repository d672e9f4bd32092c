import CLinuxSystem
import Display
import Gestures
import InputEvents
import KioskConfig
import KioskCore
import KioskLog
import KioskState
import Scene
#if canImport(Glibc)
import Glibc
#endif

/// `kiosk run`: one thread, one `poll()` over the touchscreen, the display, a timer, signals,
/// hotplug and the serial log; `kiosk replay` steps the same loop on a virtual clock. Nothing
/// moving means no wake-ups but the stats line and the watchdog: no CPU, no page flips.
///
/// The loop polls and dispatches. Each wake-up runs the frame's stages in order, each timed
/// against its share of the frame budget (`StageMeter`): input (`LiveInput`, each touch frame
/// delivered to the scene at once: the recognizers' stage), timers, then animation, render and
/// present (`FramePipeline`) when the display can take a frame (`DisplayStateMachine`). The
/// stats line reports latency from the kernel's input timestamps to the page flip that showed them.
public final class KioskLoop {
    public typealias Stage = LoopSettings.Stage

    public struct Options {
        public var configPath: String
        /// Overrides `[log] level` (`kiosk run --log-level`).
        public var logLevel: Logger.Level?
        /// Testing the budget: sleep this long in a stage every time it runs.
        public var injectedStall: (stage: Stage, milliseconds: Double)?
        public var environment: [String: String]
        /// Where the backlight class is; a test's folder stands in for sysfs.
        public var backlightClass: String

        public init(configPath: String, logLevel: Logger.Level? = nil, injectedStall: (stage: Stage, milliseconds: Double)? = nil,
                    environment: [String: String] = [:], backlightClass: String = "/sys/class/backlight") {
            self.configPath = configPath
            self.backlightClass = backlightClass
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
    public internal(set) var blanking: BlankingPolicy
    /// Damage, render, copy, present: the frame's path to the glass.
    public let pipeline: FramePipeline
    public internal(set) var screenshotsWritten: [String] = []
    /// Called when the log level changes on reload; the executable's handler reads it.
    public var onLogLevel: ((Logger.Level) -> Void)?

    var log: Logger
    let logPump: LogPump?
    public let clock: any InstantClock
    let meter: StageMeter
    var display = DisplayStateMachine()
    var latency = InputLatency()
    var fingers = FingersDown()
    /// Nil in a replay: its frames come through `process(_:)`.
    let liveInput: LiveInput?
    /// A replay keeps the scene's events (they are its output); live they leave after each wake-up.
    let keepsSceneEvents: Bool
    let notifier: SystemdNotifier?
    /// The kernel's device events, for display hotplug; nil when not live or refused.
    var hotplug: DisplayHotplugSocket?
    /// The one poll() the loop waits in, with the signals and the timer (PollLoop.swift).
    let pollLoop = PollLoop(signals: [SIGINT, SIGTERM, SIGHUP, SIGUSR1])
    /// On a paced output, when the next frame is drawn (KioskLoop+Pacing.swift).
    var repaintAt: Instant?
    /// The output's vblank timing as the log last said it, and whether it was ever paced (KioskLoop+Pacing.swift).
    var pacingSaid: VBlankTiming?
    var pacedOnce = false
    var nextStats: Instant?
    var reloadPending = false
    /// Time spent delivering frames inside the input stage: the recognizers' stage, not input's.
    var recognizerNanoseconds: Int64 = 0
    var statsLines = 0
    /// When the kiosk started, on the wall clock (MQTT's diagnostics say it).
    let startedAt = WallClock.now()
    /// The control socket, hooks, MQTT (KioskLoop+Extensions.swift).
    var extensions = LoopExtensions()
    /// The state file (KioskLoop+State.swift); nil in a replay, with `[state] enabled = false` or
    /// without its folder. MQTT keeps its announced topics and device components in it (`remember(announced:deviceComponents:)`).
    public internal(set) var stateStore: StateStore?
    /// The panel as a light: backlight, brightness, last touch (KioskLoop+Screen.swift).
    var screen = ScreenControl()

    /// Reads the config, opens the display and the touchscreen: `kiosk run`.
    /// Throws `KioskLoopError.config` (exit status 2), `.display` or `.loopFiles` (exit status 1).
    public convenience init(options: Options, logger: Logger, logPump: LogPump?,
                            output makeOutput: ((DisplaySettings) throws(DisplayError) -> any FrameOutput)? = nil,
                            clock: any InstantClock = MonotonicClock()) throws(KioskLoopError) {
        let configuration: KioskConfiguration
        do {
            configuration = try KioskConfiguration.load(path: options.configPath)
        } catch {
            throw .config("\(error)")
        }
        let settings = configuration.runtime
        let output: any FrameOutput
        do {
            if let makeOutput {
                output = try makeOutput(settings.display)
            } else {
                output = try Self.openOutput(settings.display, sceneSize: Self.sceneSize(configuration), clock: clock)
            }
        } catch {
            throw .display(error)
        }
        do {
            try self.init(configuration: configuration, options: options, logger: logger, logPump: logPump, output: output,
                          input: LiveInput(log: logger, clock: clock), notifier: SystemdNotifier(environment: options.environment),
                          recordsEvents: nil, clock: clock)
        } catch {
            _ = output.restore()
            throw error
        }
        // The saved state, before the first frame and before any extension can publish the scene.
        openStateStore()
        screen.classDirectory = options.backlightClass
        restoreScreen(at: clock.now)
        // Signals are taken from here on: one sent while starting must not kill the kiosk.
        try openLoopFiles()
        openDisplayHotplug()
        openInput()
    }

    /// The loop on `configuration` without a touchscreen, signals or a real display: `kiosk replay`
    /// steps it on a virtual clock with `process(_:)` and `tick(at:)`. With `output` nil nothing is
    /// drawn (a replay that wants no screenshot).
    public convenience init(replaying configuration: KioskConfiguration, output: (any FrameOutput)?, traceDecisions: Bool,
                            recordsEvents: Bool = true, clock: any InstantClock) throws(KioskLoopError) {
        try self.init(configuration: configuration, options: Options(configPath: configuration.file, logLevel: traceDecisions ? .debug : .info),
                      logger: Logger(label: "kiosk.replay"), logPump: nil,
                      output: output, input: nil, notifier: nil, recordsEvents: recordsEvents, clock: clock)
    }

    /// `recordsEvents` nil: as the log level says (a live loop records the scene's events only to log them at debug).
    private init(configuration: KioskConfiguration, options: Options, logger: Logger, logPump: LogPump?, output: (any FrameOutput)?,
                 input: LiveInput?, notifier: SystemdNotifier?, recordsEvents: Bool?, clock: any InstantClock) throws(KioskLoopError) {
        self.options = options
        self.configuration = configuration
        log = logger
        self.logPump = logPump
        self.clock = clock
        liveInput = input
        keepsSceneEvents = input == nil
        self.notifier = notifier
        let settings = configuration.runtime
        guard let turn = DisplayRotation(degrees: settings.display.rotation) else {
            throw .config("\(options.configPath): display.rotation: \(settings.display.rotation) is not 0, 90, 180 or 270")
        }
        let size = Self.sceneSize(configuration)
        let level = options.logLevel ?? Logger.Level(settings.log.level)
        do {
            pipeline = try FramePipeline(width: size.width, height: size.height, format: Self.pixelFormat(settings.display),
                                         font: settings.display.font, rotation: turn, output: output)
        } catch {
            throw .config("\(options.configPath): display.font: \(error)")
        }
        do {
            scene = try KioskScene(configuration.scene, trace: DecisionTrace(enabled: level <= .debug),
                                   recordsEvents: recordsEvents ?? (level <= .debug))
        } catch {
            throw .config("\(error)")
        }
        let now = clock.now
        meter = StageMeter(stats: LoopStats(budgets: Self.budgets(settings.loop, refresh: output?.refreshHz ?? 60), start: now),
                           log: logger, clock: clock, injectedStall: options.injectedStall)
        blanking = BlankingPolicy(blankAfter: settings.display.blankAfterSeconds, now: now)
        if input != nil, let output {
            logStart(output, rotation: turn)
            notePacing()
        }
    }

    deinit {
        _ = output?.restore()
        closeLoopFiles()
    }

    /// Runs until SIGTERM or SIGINT; the display is put back before it returns.
    public func run() throws(KioskLoopError) -> Ending {
        try openLoopFiles()
        let start = clock.now
        drawFrame(at: start)
        logPump?.service(now: start.seconds)
        logPump?.flush()
        notifier?.ready(status: "generation \(generation); \(output?.summary ?? "no display")")
        if configuration.runtime.log.statsInterval > 0 {
            nextStats = start.adding(seconds: configuration.runtime.log.statsInterval)
        }
        while true {
            if let ending = runOnce() { return finish(ending) }
        }
    }

    /// One wake-up as `run()` makes it: the descriptors wanted now, `poll()` until one is ready,
    /// the timer fires at `nextWake` or `milliseconds` pass (-1: no limit), then every stage.
    /// Returns an ending when a signal asks to stop (`run()` then finishes). Only the monotonic
    /// clock arms the timer: on a virtual one (EmbeddedLoop) the poll waits `milliseconds` at most,
    /// never without a limit.
    public func runOnce(milliseconds: Int32 = -1) -> Ending? {
        let monotonic = clock is MonotonicClock
        pollLoop.begin(wakeAt: monotonic ? nextWake(after: clock.now) : nil)
        if let fd = output?.pollDescriptor { pollLoop.add(fd) }
        if let fd = hotplug?.fileDescriptor { pollLoop.add(fd) }
        liveInput?.forEachDescriptor { fd in pollLoop.add(fd) }
        logPump?.descriptorsWantingWrite { fd in pollLoop.addIfRoom(fd, events: Int16(POLLOUT)) }
        appendExtensionDescriptors()
        if case .failure(let errno) = pollLoop.wait(milliseconds: monotonic ? milliseconds : max(0, milliseconds)) {
            // Never seen in practice (poll fails only on a bad array or no memory), but a loop
            // that went round again at once would spin a core: say it, then wait a moment.
            log.error("poll failed; retrying in 0.1 s", metadata: ["errno": "\(errno)"])
            StageMeter.pause(milliseconds: 100)
        }
        return iterate()
    }

    /// One wake-up: every stage in order. Returns an ending when a signal asks to stop.
    func iterate() -> Ending? {
        if let ending = handleSignals() { return ending }
        handleDisplayEvents(at: clock.now)
        if let hotplug, hotplug.readDisplayHotplug() { displayHotplugged(at: clock.now) }
        // Input: read and decode; each frame goes to the scene at once (the recognizers' stage).
        recognizerNanoseconds = 0
        let inputStart = meter.start()
        meter.stall(.input)
        liveInput?.service { deliver($0) }
        // The control socket, hooks and MQTT: their ready descriptors, after the touchscreen's.
        serviceExtensions()
        meter.record(.input, nanoseconds: meter.nanoseconds(since: inputStart) - recognizerNanoseconds)
        if recognizerNanoseconds > 0 { meter.record(.recognizers, nanoseconds: recognizerNanoseconds) }
        tick(at: clock.now)
        return nil
    }

    /// Delivers one frame of touches as the touchscreen would (a replay's input stage).
    public func process(_ frame: TouchFrame) {
        recognizerNanoseconds = 0
        deliver(frame)
        if recognizerNanoseconds > 0 { meter.record(.recognizers, nanoseconds: recognizerNanoseconds) }
    }

    /// The stages after input, at `now`: timers, then animation, render and present when the
    /// display can take a frame; then the scene's events, the log, the stats line and the watchdog.
    public func tick(at now: Instant) {
        // The synthetic finger's frames due by `now` happened before it: they go in first, so that a
        // loop that stalled after a tap's down (a starved CPU) never fires the long press its lift,
        // due long ago, forbids. The panel's frames were read in the input stage just before.
        playSyntheticTouches(through: now)
        // Timers: long presses, tap windows, animations ending. Those due before a frame fired as
        // the engine took it (GestureEngine.process), each once, at its own time.
        let timersStart = meter.start()
        scene.advance(to: now)
        meter.end(.timers, since: timersStart)
        sceneEventsLeave(at: now)
        // Never with a finger on the glass: its lift would be taken for a wake and lost.
        if reloadPending, fingers.count == 0 { reload(at: now) }
        if fingers.count == 0, blanking.shouldBlank(at: now) { blank(at: now) }
        perform(display.tick(at: now), at: now)
        if display.canDraw, repaintDue(at: now) { drawFrame(at: now) }
        // After the frame: a write's fsync falls in the idle rest of the frame, not before it.
        tellDisplayStatus(at: now)
        saveState(at: now)
        if let pump = logPump {
            pump.service(now: now.seconds)
            pump.flush()
        }
        if let due = nextStats, now >= due { statsLine(at: now) }
        notifier?.keepAlive(at: now)
    }

    /// The moment the loop must wake without input (a replay moves its clock there); nil when
    /// nothing is pending.
    public func nextWake() -> Instant? { nextWake(after: clock.now) }

    /// The earliest moment something must happen without input.
    func nextWake(after now: Instant) -> Instant? {
        var wake: Instant?
        func consider(_ t: Instant?) {
            guard let t else { return }
            if wake.map({ t < $0 }) ?? true { wake = t }
        }
        consider(scene.nextDeadline)
        // An animation runs at the refresh rate; with page flips, the flip event paces it.
        if let output, scene.isAnimating, !display.isFlipPending { consider(now.adding(seconds: 1 / Double(output.refreshHz))) }
        consider(nextStats)
        if let repaintAt, repaintAt > now { consider(repaintAt) }
        // A new touchscreen node that refused to open is looked at again when udev's time is up.
        consider(liveInput?.nextDeadline)
        if fingers.count == 0 { consider(blanking.deadline) }
        consider(notifier?.nextKeepAlive(after: now))
        consider(display.retryDeadline)
        if reloadPending { consider(now.adding(seconds: 0.1)) }
        if logPump?.needsService == true { consider(now.adding(seconds: 5)) }
        consider(extensionDeadline)
        consider(stateStore?.nextDeadline)
        return wake
    }
}
