import KioskCore
import KioskLog

// Screenshots asked for from outside (RemoteCommand `.screenshot`): encoded in a child process
// (ScreenshotJob.swift), read back through the loop's poll, and handed to every extension.
extension KioskLoop {
    /// Starts encoding the frame drawn last (the shadow buffer), or joins the encode in flight;
    /// refused when the last one started less than the job's interval ago.
    func requestScreenshot(at now: Instant) throws(RemoteCommandError) {
        switch extensions.screenshots.request(pipeline.shadow, now: now) {
        case .started:
            log.debug("screenshot: encoding", metadata: ["screenshot.size": "\(pipeline.shadow.width)x\(pipeline.shadow.height)"])
        case .joined:
            break
        case .refused(let why):
            throw RemoteCommandError(why)
        }
    }

    /// The child's pipe and exit; once it is gone, its picture (or why none) to every extension.
    /// Called each wake-up before the extensions are served: never inside one.
    func serviceScreenshots(at now: Instant) {
        guard extensions.screenshots.inFlight, let result = extensions.screenshots.service(now: now) else { return }
        switch result {
        case .success(let s):
            log.debug("screenshot: encoded", metadata: ["screenshot.bytes": "\(s.png.count)",
                                                         "screenshot.seconds": "\(fixedDecimal(now.seconds - s.takenAt.seconds, 3))"])
        case .failure(let e):
            log.warning("screenshot failed", metadata: ["screenshot.error": "\(e.message)"])
        }
        for e in extensions.installed { e.screenshotTaken(result, target: self, now: now) }
    }

    /// `screenshots=TAKEN/DROPPED` on the stats line when something can ask for one: made, and
    /// refused (too soon) or failed.
    var screenshotStatsFields: [(String, String)] {
        guard !extensions.installed.isEmpty else { return [] }
        return [("screenshots", "\(extensions.screenshots.taken)/\(extensions.screenshots.dropped)")]
    }
}
