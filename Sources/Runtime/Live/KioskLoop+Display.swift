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

// A display that fails, comes back, blanks and wakes.
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
}
