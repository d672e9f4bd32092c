import Gestures
import KioskConfig
import KioskCore
import KioskLog
import Render
import Scene

// SIGHUP: the config read again and checked whole; then applied by every part (the scene, input,
// the loop's settings, each extension's `reconfigure`), or refused with the old one kept.
extension KioskLoop {

    /// Reads the config file again and applies it, or keeps the running one; the keys that wait
    /// for the next start are named in one warning, from the key table (KioskConfig/RestartKeys.swift).
    func reload(at now: Instant) {
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
            newRenderer = settings.display.font == configuration.runtime.display.font ? nil : try pipeline.renderer(font: settings.display.font)
        } catch {
            log.error("config reload failed: \(options.configPath): \(error); still running generation \(generation)")
            return
        }
        let panel = next.scene.panel
        let resized = Int(panel.widthPixels) != shadow.width || Int(panel.heightPixels) != shadow.height
        do {
            try pipeline.resize(width: Int(panel.widthPixels), height: Int(panel.heightPixels))
        } catch {
            log.error("config reload failed: \(options.configPath): panel: \(error); still running generation \(generation)")
            return
        }
        // Checked whole: from here every part takes the new file.
        let carried = newScene.carryOver(from: scene)
        extensions.sourceRuns.removeAll(keepingCapacity: true)
        scene = newScene
        if !extensions.installed.isEmpty { scene.recordsEvents = true }
        pipeline.replaceScene(renderer: newRenderer)
        let previous = configuration
        let old = previous.runtime
        configuration = next
        generation += 1
        onLogLevel?(level)
        meter.stats.setBudgets(Self.budgets(settings.loop, refresh: output?.refreshHz ?? 60))
        wakeScreen(cause: .reload, at: now)
        reloadScreen(old: old.display, new: settings.display, at: now)
        if settings.log.statsInterval != old.log.statsInterval {
            nextStats = settings.log.statsInterval > 0 ? now.adding(seconds: settings.log.statsInterval) : nil
        }
        if settings.input != old.input || resized { openInput() }
        var restartKeys = next.restartKeys(from: previous)
        for e in extensions.installed { restartKeys += e.reconfigure(old: previous, new: next, scene: scene, now: now) }
        restartKeys += reconfigureState(next.state, old: previous.state)
        log.info("config reloaded", metadata: [
            "config.generation": "\(generation)", "config.file": "\(options.configPath)",
            "scene.carried": "\(carried.joined(separator: ","))",
        ])
        if !restartKeys.isEmpty {
            log.warning("config reloaded; these keys keep their old values until the next start: \(restartKeys.joined(separator: ", "))",
                        metadata: ["config.restart": "\(restartKeys.joined(separator: ","))"])
        }
    }
}
