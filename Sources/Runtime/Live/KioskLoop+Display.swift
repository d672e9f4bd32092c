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

// A display that fails, is unplugged, comes back, blanks and wakes.
extension KioskLoop {

    func displayFailed(_ error: DisplayError, at now: Instant) {
        if !displayDown {
            log.error("display lost: \(error); retrying every 2 s, input goes on")
        }
        displayDown = true
        nextDisplayRetry = now.adding(seconds: 2)
        inFlightInput.removeAll(keepingCapacity: true)
    }

    func recoverDisplay(at now: Instant) {
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

    func blank(_ off: Bool, at now: Instant, reason: String = "by a touch; the waking touch is not delivered") {
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

    /// A display hotplug event: the connector is read again. Unplugged, nothing is drawn until it
    /// is back; plugged in again, the mode is set afresh and a whole frame drawn at once, idle or not.
    func displayHotplugged(at now: Instant) {
        guard let output, let connection = output.probeConnection() else { return }
        let metadata: Logger.Metadata = ["display.connector": "\(connection.connector)", "display.modes": "\(connection.modeList)"]
        guard connection.isConnected else {
            guard !displayUnplugged else { return }
            displayUnplugged = true
            displayDown = true
            nextDisplayRetry = nil
            inFlightInput.removeAll(keepingCapacity: true)
            log.warning("display unplugged; nothing is drawn until it is back, input goes on", metadata: metadata)
            return
        }
        guard displayUnplugged || displayDown else {
            log.debug("display hotplug event; the display is still connected", metadata: metadata)
            return
        }
        displayUnplugged = false
        log.info("display plugged in", metadata: metadata)
        if !connection.offers(width: output.width, height: output.height) {
            log.warning("the display plugged in does not offer \(output.width)x\(output.height); kiosk sets that mode all the same",
                        metadata: metadata)
        }
        recoverDisplay(at: now)
    }
}
