import Display
import KioskCore
import KioskLog
import Render
import Scene
import TouchInput
#if canImport(Glibc)
import Glibc
#endif

// What the loop tells the log: scene activity, the stats line.
extension KioskLoop {

    /// Where the scene's events leave the loop, once a wake-up after the timers stage: to every
    /// `LoopExtension` with their sources (the only place they are published), then to the log
    /// at debug, with the gesture decisions. A replay keeps them: they are its output.
    func sceneEventsLeave(at now: Instant) {
        guard !keepsSceneEvents, scene.recordsEvents else { return }
        if !scene.events.isEmpty {
            publishSceneEvents(at: now)
            // Recorded for the extensions below debug too: no log lines built for nothing then.
            if log.logLevel <= .debug {
                for line in SceneReport.eventLines(scene.events, origin: .zero) { log.debug("scene \(line)") }
            }
            scene.removeAllEvents()
        }
        let trace = scene.engine.trace
        if !trace.decisions.isEmpty {
            for d in trace.decisions {
                log.debug("gesture \(scene.engine.describe(d, origin: .zero, viewName: { self.scene.views[$0.rawValue].name }))")
            }
            trace.removeAll()
        }
    }

    func statsLine(at now: Instant) {
        let interval = configuration.runtime.log.statsInterval
        nextStats = interval > 0 ? now.adding(seconds: interval) : nil
        let fields = meter.stats.report(at: now, extra: [
            ("touches.down", "\(fingers.count)"),
            ("devices", "\(liveInput?.deviceCount ?? 0)"),
            ("log.dropped", "\(logPump?.droppedLines ?? 0)"),
            ("display", display.statusWord),
            ("config.generation", "\(generation)"),
        ] + (liveInput?.counters ?? InputCounters()).statsFields()
          + extensions.installed.flatMap(\.statsFields) + screenshotStatsFields + stateStatsFields)
        var metadata: Logger.Metadata = [:]
        for (k, v) in fields { metadata[k] = "\(v)" }
        // Numbered: a gap in the numbers on the serial console shows lines were lost, and the
        // log's repeat limiter, keyed on the message, never takes one stats line for another.
        statsLines += 1
        log.info("stats \(statsLines)", metadata: metadata)
        for e in extensions.installed { e.statsReported(now: now, target: self) }
    }

    /// What `diagnostics` says: the last stats line's figures (the interval so far before the
    /// first), the overruns since start, the touchscreen now, the start.
    public var diagnostics: LoopDiagnostics {
        let figures = meter.stats.lastInterval ?? meter.stats.intervalFigures(at: clock.now)
        return LoopDiagnostics(framesPerSecond: figures.framesPerSecond, latencyP99Milliseconds: figures.latencyP99Milliseconds,
                               overruns: meter.stats.totalOverruns.reduce(0, +), touchscreenConnected: (liveInput?.deviceCount ?? 0) > 0,
                               startedAt: startedAt)
    }
}
