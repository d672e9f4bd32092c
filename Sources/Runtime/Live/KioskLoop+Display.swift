import Display
import KioskCore
import KioskLog

// The display's events go to its state machine (DisplayStateMachine.swift); the loop carries
// out the actions it returns: drawing, taking the display again, blanking, and the log lines.
extension KioskLoop {

    /// Animation, render and present (`FramePipeline`), and what came of them.
    func drawFrame(at now: Instant) {
        switch pipeline.drawFrame(scene, at: now, meter: meter) {
        case .unchanged:
            latency.nothingDrawn()
        case .presented(let shownAt):
            meter.stats.frames += 1
            meter.stats.totalFrames += 1
            latency.presented()
            perform(display.presented(shownAt: shownAt), at: now)
        case .failed(let error):
            perform(display.failed(error, at: now), at: now)
        }
    }

    /// Page flips done: the frame is on the glass, and its inputs' latency is known.
    func handleDisplayEvents(at now: Instant) {
        // A card's flip events come through its descriptor; a paced headless display's on the clock.
        guard let output, output.pollDescriptor != nil || pipeline.paced != nil, display.readsEvents else { return }
        do {
            try output.handleEvents { perform(display.flipDone(at: $0), at: now) }
            notePacing()
        } catch {
            perform(display.failed(error, at: now), at: now)
        }
    }

    /// A display hotplug event: the connector is read again. Unplugged, nothing is drawn until it
    /// is back; plugged in again, the mode is set afresh and a whole frame drawn at once, idle or not.
    func displayHotplugged(at now: Instant) {
        guard let output, let connection = output.probeConnection() else { return }
        let metadata: Logger.Metadata = ["display.connector": "\(connection.connector)", "display.modes": "\(connection.modeList)"]
        guard connection.isConnected else {
            if case .sayUnplugged = display.unplugged() {
                latency.forgetInFlight()
                log.warning("display unplugged; nothing is drawn until it is back, input goes on", metadata: metadata)
            }
            return
        }
        let action = display.pluggedIn()
        guard case .recover = action else {
            log.debug("display hotplug event; the display is still connected", metadata: metadata)
            return
        }
        log.info("display plugged in", metadata: metadata)
        if !connection.offers(width: output.width, height: output.height) {
            log.warning("the display plugged in does not offer \(output.width)x\(output.height); kiosk sets that mode all the same",
                        metadata: metadata)
        }
        perform(action, at: now)
    }

    /// The blanking policy says it is time. A display that is down or unplugged has nothing to
    /// blank: the policy is told it is awake, so no touch is swallowed as a wake, and tries later.
    /// `reason` is a command's, said in the log line; none: `blank_after` ran out.
    func blank(at now: Instant, reason: String = "") {
        let action = display.blank()
        if case .none = action { blanking.wake(at: now) }
        if reason.isEmpty { screen.cause = .idle }
        perform(action, at: now, reason: reason)
    }

    /// Carries out what the display's state machine asked for.
    /// `reason` says what woke or blanked the panel, for `.powerOn`'s and `.powerOff`'s lines.
    func perform(_ action: DisplayStateMachine.Action, at now: Instant, reason: String = "") {
        switch action {
        case .none, .sayStillConnected, .sayUnplugged:
            break
        case .frameShown(let shown):
            latency.shown(at: shown) { meter.stats.recordLatency(microseconds: $0) }
        case .lost(let error, let firstTime):
            if firstTime { log.error("display lost: \(error); retrying every 2 s, input goes on") }
            latency.forgetInFlight()
        case .recover:
            guard let output else { return }
            do {
                try output.recover()
            } catch {
                log.debug("display still down: \(error)")
                perform(display.recoveryFailed(at: now), at: now)
                return
            }
            perform(display.recovered(), at: now)
            log.info("display back; drawing a whole frame", metadata: ["display": "\(output.summary)"])
        case .drawWhole:
            pipeline.invalidate()
        case .powerOff:
            do {
                try output?.setPower(on: false)
                powerBacklight(on: false)
                log.info(reason.isEmpty ? "display blanked after \(fixedDecimal(blanking.blankAfter, 0)) s without a touch" : "display blanked \(reason)")
            } catch {
                // A panel that cannot sleep stays on and keeps drawing; its next touch is the user's.
                display.blankRefused()
                blanking.wake(at: now)
                blanking.blankAfter = 0
                log.error("display cannot be blanked: \(error); blanking is off until the config is reloaded")
            }
        case .powerOn:
            do {
                try output?.setPower(on: true)
                powerBacklight(on: true)
                pipeline.invalidate()
                log.info("display woken \(reason)")
            } catch {
                log.error("display cannot be woken: \(error)")
            }
        }
    }

    /// Opens the kernel's device events for display hotplug, when the display is a real one. A
    /// sandbox without AF_NETLINK refuses it: then an unplug is noticed at the next page flip.
    func openDisplayHotplug() {
        guard hotplug == nil, output?.pollDescriptor != nil else { return }
        do {
            hotplug = try DisplayHotplugSocket()
        } catch {
            log.warning("display hotplug not watched: \(error); an unplugged display is noticed only at the next frame")
        }
    }
}
