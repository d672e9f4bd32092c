import Geometry
import Gestures
import InputEvents
import Scene

/// A trace that decodes but cannot be replayed as it is.
public struct ReplayError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Runs a recorded trace through the scene on a virtual clock.
///
/// The clock is the trace's own timestamps: each frame is delivered at its time after the timers
/// due before it have fired, each at its own time. After the last event the clock runs on, from
/// deadline to deadline, until nothing is pending (long presses and tap windows decided,
/// animations finished). Nothing reads a real clock, so a trace always gives the same outputs.
public struct Replay {
    public let scene: KioskScene
    /// The trace's first timestamp: event times are reported relative to it.
    public private(set) var origin: Instant
    public private(set) var frameCount = 0
    /// The virtual clock when the scene went idle.
    public private(set) var endTime: Instant
    public private(set) var decoder: TouchDecoder

    /// Decodes `trace` and plays it into a scene built from `description`.
    public init(
        trace: EvemuTrace, scene description: SceneDescription, traceDecisions: Bool = true,
        positionAxes: (x: AbsoluteAxis, y: AbsoluteAxis)? = nil
    ) throws {
        scene = try KioskScene(description, trace: DecisionTrace(enabled: traceDecisions))
        let screen = Size(width: description.panel.widthPixels, height: description.panel.heightPixels)
        decoder = try TouchDecoder(device: trace.device, screen: screen, positionAxes: positionAxes)
        origin = trace.events.first?.time ?? .zero
        endTime = origin
        for event in trace.events {
            if let frame = decoder.feed(event) { deliver(frame) }
            while let frame = decoder.nextPendingFrame() { deliver(frame) }
        }
        // Touches that never moved on the position axes are a device that reports them elsewhere
        // (eGalax): replaying on would print nothing and look like a working trace.
        if positionAxes == nil, let diagnostic = decoder.diagnostic { throw ReplayError(diagnostic) }
        runUntilIdle()
    }

    private mutating func deliver(_ frame: TouchFrame) {
        scene.advance(to: frame.time)
        scene.handle(frame)
        frameCount += 1
        endTime = frame.time
    }

    /// Fires every pending deadline in order; a bound keeps a misbehaving timer from spinning forever.
    private mutating func runUntilIdle() {
        var steps = 0
        while let deadline = scene.nextDeadline, steps < 100_000 {
            scene.advance(to: max(deadline, endTime))
            endTime = max(deadline, endTime)
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
