import Gestures
import KioskConfig
import KioskCore
import KioskLog
import Render
import Scene

// SIGHUP: the config read again and applied, or refused with the old one kept.
extension KioskLoop {

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
        let carried = newScene.carryOver(from: scene)
        scene = newScene
        pipeline.replaceScene(renderer: newRenderer)
        let old = configuration.runtime
        configuration = next
        generation += 1
        for e in extensions.installed { (e as? HookRunner)?.reconfigure(next.hooks) }
        onLogLevel?(level)
        meter.stats.setBudgets(Self.budgets(settings.loop, refresh: output?.refreshHz ?? 60))
        if blanking.isBlanked { perform(display.wake(), at: now, reason: "by the reload") }
        blanking.blankAfter = settings.display.blankAfterSeconds
        blanking.wake(at: now)
        if settings.log.statsInterval != old.log.statsInterval {
            nextStats = settings.log.statsInterval > 0 ? now.adding(seconds: settings.log.statsInterval) : nil
        }
        if settings.input != old.input || resized { openInput() }
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
}
