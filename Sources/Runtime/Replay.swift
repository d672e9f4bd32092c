import Display
import Gestures
import InputEvents
import KioskConfig
import KioskCore
import Render
import TouchInput
import Scene

/// A trace that decodes but cannot be replayed as it is.
public struct ReplayError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Runs a recorded trace through the kiosk's own loop on a virtual clock.
///
/// The clock is the trace's own timestamps: each frame goes through the loop's input and
/// recognizer stages at its time, and the loop's timers stage fires what is due before it, each
/// at its own time. After the last event the clock moves from one wake-up of the loop to the next
/// (long presses and tap windows decided, animations finished) until nothing is pending. Nothing
/// reads a real clock, so a trace always gives the same outputs. The panel never blanks in a replay.
public struct Replay {
    /// The loop the trace ran through; with `draws`, its frames were drawn as on the kiosk.
    public let loop: KioskLoop
    public var scene: KioskScene { loop.scene }
    /// The trace's first timestamp: event times are reported relative to it.
    public private(set) var origin: Instant
    public private(set) var frameCount = 0
    /// The virtual clock when the scene went idle.
    public internal(set) var endTime: Instant
    /// The trace's touchscreen, decoded as `kiosk run` decodes a live one (protocol A through
    /// libmtdev, calibration, the touches' turn, the whole-touch filters).
    public let touchscreen: TouchscreenDecoder
    public var decoder: TouchDecoder { touchscreen.decoder }
    /// `[input]`'s whole-touch filters; nil when they are off.
    public var frameFilter: TouchFrameFilter? { touchscreen.frameFilter }

    /// Decodes `trace` and plays it into a loop on `configuration`; with `draws`, every frame is
    /// drawn through damage tracking into a headless display, as on the kiosk.
    public init(
        trace: EvemuTrace, configuration: KioskConfiguration, traceDecisions: Bool = true,
        positionAxes: (x: AbsoluteAxis, y: AbsoluteAxis)? = nil, draws: Bool = false, vblank: SimulatedVBlank? = nil
    ) throws {
        origin = trace.events.first?.time ?? .zero
        endTime = origin
        var settings = configuration
        settings.runtime.display.blankAfterSeconds = 0
        let clock = VirtualClock(origin)
        var output: (any FrameOutput)?
        if draws || vblank != nil {
            let (w, h) = KioskLoop.sceneSize(settings)
            output = try HeadlessDisplay(width: w, height: h, format: KioskLoop.pixelFormat(settings.runtime.display), vblank: vblank,
                                         clock: clock)
        }
        loop = try KioskLoop(replaying: settings, output: output, traceDecisions: traceDecisions, clock: clock)
        let panel = settings.scene.panel
        // [input] as `kiosk run` applies it: calibration, the touches' turn, and the filters; a
        // protocol A trace through libmtdev as the live device's events go.
        let screen = Size(width: panel.widthPixels, height: panel.heightPixels)
        let input = settings.runtime.input
        let filters = input.touchFilters(panel: panel)
        // Calibrated against the device as it describes itself, as the live watcher does (a
        // pointercal file reads ABS_MT_POSITION_X/Y of a protocol A panel as of a protocol B one).
        touchscreen = try TouchscreenDecoder(device: trace.device, screen: screen, positionAxes: positionAxes,
                                             calibration: try input.touchCalibration(displayRotation: settings.runtime.display.rotation,
                                                                                     device: trace.device, screen: screen),
                                             filters: filters)
        loop.tick(at: origin)
        for event in trace.events {
            touchscreen.feed(event) { deliver($0, clock) }
        }
        // A touch held back at the trace's end begins when its duration is reached, as live.
        if frameFilter != nil {
            var late: [TouchFrame] = []
            touchscreen.advance(to: endTime.adding(seconds: filters.minimumTouchDuration)) { late.append($0) }
            for frame in late { deliver(frame, clock) }
        }
        // Touches that never moved on the position axes are a device that reports them elsewhere
        // (eGalax): replaying on would print nothing and look like a working trace.
        if positionAxes == nil, let diagnostic = decoder.diagnostic { throw ReplayError(diagnostic) }
        runPacedWakes(through: nil, clock)
        runUntilIdle(clock)
    }

    /// The scene of `description` with the runtime's defaults.
    public init(
        trace: EvemuTrace, scene description: SceneDescription, traceDecisions: Bool = true,
        positionAxes: (x: AbsoluteAxis, y: AbsoluteAxis)? = nil
    ) throws {
        try self.init(trace: trace, configuration: KioskConfiguration(file: "<scene>", scene: description),
                      traceDecisions: traceDecisions, positionAxes: positionAxes)
    }

    private mutating func deliver(_ frame: TouchFrame, _ clock: VirtualClock) {
        runPacedWakes(through: frame.time, clock)
        clock.now = max(clock.now, frame.time)
        loop.process(frame)
        loop.tick(at: clock.now)
        frameCount += 1
        endTime = frame.time
    }

    /// Moves the clock from wake-up to wake-up; a bound keeps a misbehaving timer from spinning forever.
    private mutating func runUntilIdle(_ clock: VirtualClock) {
        var steps = 0
        while let wake = loop.nextWake(), steps < 100_000 {
            clock.now = max(wake, endTime)
            loop.tick(at: clock.now)
            endTime = clock.now
            steps += 1
        }
    }

    public var eventLines: [String] { SceneReport.eventLines(scene.events, origin: origin) }
    public var stateJSON: String { SceneReport.state(of: scene) }

    /// The decision trace, a line per decision, times relative to the trace's start.
    public var decisionLines: [String] {
        let engine = scene.engine
        return engine.trace.decisions.map { d in
            engine.describe(d, origin: origin, viewName: { scene.views[$0.rawValue].name })
        }
    }
}
