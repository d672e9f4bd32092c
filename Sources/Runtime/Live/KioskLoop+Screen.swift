import Display
import KioskConfig
import KioskCore
import KioskLog
import KioskState

// The panel as a light: on and off (blanked and woken as idle blanking does), the backlight's
// brightness through the Linux backlight class, `blank_after` at run time, and the last touch;
// told to the extensions once a wake-up when it changed, and kept in the state file.
extension KioskLoop {

    /// The display's status now, for the extensions (`CommandTarget.display`).
    public var displayStatus: DisplayStatus {
        DisplayStatus(isOn: !blanking.isBlanked, brightness: screen.backlight == nil ? nil : screen.brightness,
                      blankAfter: blanking.blankAfter, lastTouch: screen.lastTouch, cause: screen.cause)
    }

    /// Finds the backlight `[display] backlight` names (or the first there is) and reads its
    /// brightness. One named that is not there is an error naming it; the panel is then on and off only.
    func openBacklight() {
        let name = configuration.runtime.display.backlight
        do {
            screen.backlight = try Backlight.find(named: name, in: screen.classDirectory)
        } catch {
            screen.backlight = nil
            let there = Backlight.entries(of: screen.classDirectory).sorted()
            let found = there.isEmpty ? "there is none" : "there: \(there.joined(separator: ", "))"
            log.error("display.backlight: no usable backlight '\(name ?? "")' in \(screen.classDirectory) (\(error.reason)); \(found); the display is switched on and off only",
                metadata: ["display.backlight": "\(name ?? "")", "config.file": "\(options.configPath)"])
            return
        }
        guard let b = screen.backlight else {
            log.info("no backlight in \(screen.classDirectory): the panel is switched on and off only, without brightness")
            return
        }
        do {
            screen.brightness = b.level(of: try b.brightness())
        } catch {
            log.warning("display.backlight: cannot read the brightness: \(error)")
        }
        log.info("backlight found", metadata: ["display.backlight": "\(b.name)", "display.max_brightness": "\(b.maxBrightness)"])
    }

    /// `setDisplay`, `wake` and `setBlankAfter`, applied now (KioskLoop+Extensions.swift's `apply`).
    func applyScreen(_ command: RemoteCommand, source: ChangeSource, at now: Instant) throws(RemoteCommandError) {
        switch command {
        case .setDisplay(let on, let brightness):
            // As idle blanking never blanks under a finger (whose next move would wake it at once).
            guard on != false || fingers.count == 0 || blanking.isBlanked else {
                throw RemoteCommandError("a finger is on the glass: the display is not switched off under it; try again")
            }
            if let brightness { try setBrightness(brightness) }
            if on == false { switchOff(cause: DisplayCause(source), at: now) }
            if on == true { wakeScreen(cause: DisplayCause(source), at: now) }
        case .wake:
            wakeScreen(cause: DisplayCause(source), at: now)
        case .setBlankAfter(let seconds):
            guard seconds.isFinite, seconds >= 0, seconds <= Self.longestBlankAfter else {
                throw RemoteCommandError("blank_after \(seconds) is out of range; expected seconds from 0 (never) to \(Int(Self.longestBlankAfter))")
            }
            blanking.blankAfter = seconds
            screen.blankAfterInConfig = configuration.runtime.display.blankAfterSeconds
            log.info("display blank_after set to \(fixedDecimal(seconds, 0)) s", metadata: ["display.source": "\(source.rawValue)"])
        default:
            break
        }
    }

    /// `[display] blank_after`'s upper bound: a day.
    static let longestBlankAfter = 86_400.0

    /// Writes `level` (0...1) to the backlight: one small write to sysfs, which the driver does at
    /// once; on the loop like the state file's write.
    func setBrightness(_ level: Double) throws(RemoteCommandError) {
        guard level.isFinite, level >= 0, level <= 1 else {
            throw RemoteCommandError("brightness \(level) is out of range; expected 0 to 1")
        }
        guard let b = screen.backlight else {
            throw RemoteCommandError("this display has no backlight: it is switched on and off only")
        }
        do {
            try b.setBrightness(b.steps(forLevel: level))
        } catch {
            log.error("display brightness not set: \(error)")
            throw RemoteCommandError("brightness not set: \(error)")
        }
        screen.brightness = level
    }

    /// Blanks the panel now, as idle blanking does; a touch wakes it.
    func switchOff(cause: DisplayCause, at now: Instant) {
        guard !blanking.isBlanked else { return }
        screen.cause = cause
        blanking.blankNow()
        blank(at: now, reason: "by \(cause.rawValue)")
    }

    /// Wakes the panel (and counts as activity: `blank_after` starts again).
    func wakeScreen(cause: DisplayCause, at now: Instant) {
        if blanking.isBlanked {
            screen.cause = cause
            perform(display.wake(), at: now, reason: "by \(cause.rawValue)")
        }
        blanking.wake(at: now)
    }

    /// Switches the backlight's power with the panel's (`bl_power`); a failure is said, not fatal.
    func powerBacklight(on: Bool) {
        guard let b = screen.backlight else { return }
        do {
            try b.setOn(on)
        } catch {
            log.error("backlight power not switched: \(error)")
        }
    }

    /// A touch frame's fingers that came down: the last touch, on the wall clock.
    func noteTouch(_ frame: TouchFrame) {
        guard frame.touches.contains(where: { $0.phase == .began }) else { return }
        screen.lastTouch = WallClock.seconds(at: frame.time, now: clock.now)
    }

    /// Once a wake-up, after its changes: the extensions hear the display's status when it
    /// changed, and the state file keeps it.
    func tellDisplayStatus(at now: Instant) {
        let status = displayStatus
        if status != screen.told {
            screen.told = status
            for e in extensions.installed { e.displayChanged(status, now: now) }
        }
        stateStore?.remember(display: SavedDisplay(isOn: status.isOn, brightness: status.brightness, blankAfter: status.blankAfter,
                                                   blankAfterInConfig: screen.blankAfterInConfig ?? configuration.runtime.display.blankAfterSeconds))
    }

    /// At the start, after the state file was read: the display as it was left. A saved
    /// `blank_after` is taken while the config still says what it said when it was set.
    func restoreScreen(at now: Instant) {
        openBacklight()
        guard let saved = stateStore?.savedDisplay else { return }
        let configured = configuration.runtime.display.blankAfterSeconds
        if saved.blankAfterInConfig == configured {
            blanking.blankAfter = saved.blankAfter
            screen.blankAfterInConfig = configured
        }
        if let level = saved.brightness, screen.backlight != nil {
            do throws(RemoteCommandError) { try setBrightness(level) } catch { log.warning("saved brightness not restored: \(error)") }
        }
        if !saved.isOn { switchOff(cause: .start, at: now) }
    }

    /// A reload: the backlight looked for again; `blank_after` set at run time is kept unless the
    /// config's value changed.
    func reloadScreen(old: DisplaySettings, new: DisplaySettings, at now: Instant) {
        if old.backlight != new.backlight { openBacklight() }
        if old.blankAfterSeconds != new.blankAfterSeconds || screen.blankAfterInConfig == nil {
            blanking.blankAfter = new.blankAfterSeconds
            screen.blankAfterInConfig = nil
        }
    }
}
