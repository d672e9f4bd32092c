import CLinuxSystem
import KioskCore
import KioskLog
#if canImport(Glibc)
import Glibc
#endif

// Signals arrive through a signalfd in the same poll; SIGTERM and SIGINT end the loop.
extension KioskLoop {

    func handleSignals() -> Ending? {
        var stop: Int32?
        var hangup = false
        var screenshot = false
        // A storm of signals collapses into at most one of each action per wake-up.
        pollLoop.takeSignals { signo in
            switch signo {
            case SIGTERM, SIGINT: stop = signo
            case SIGHUP: hangup = true
            case SIGUSR1: screenshot = true
            default: break
            }
        }
        if let stop { return .signal(stop) }
        if hangup {
            log.info("SIGHUP: reloading the config", metadata: ["config.file": "\(options.configPath)"])
            reloadPending = true
            if fingers.count > 0 {
                log.info("the reload waits until no finger is on the glass")
            }
        }
        if screenshot { writeScreenshot() }
        return nil
    }

    func finish(_ ending: Ending) -> Ending {
        notifier?.stopping()
        shutdownExtensions()
        // After the extensions: what they remembered in their last words is written too.
        flushState()
        let problem = output?.restore()
        if case .signal(let s) = ending {
            let name = s == SIGTERM ? "SIGTERM" : "SIGINT"
            if let problem {
                log.error("stopping on \(name); display not restored: \(problem)", metadata: ["frames": "\(stats.totalFrames)"])
            } else {
                log.info("stopping on \(name); display restored", metadata: ["frames": "\(stats.totalFrames)"])
            }
        }
        // What is still queued waits for the wire once, in `kiosk run` after the loop returns.
        logPump?.flush()
        return ending
    }
}
