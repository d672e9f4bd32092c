import KioskCore
import KioskLog

// Screenshots asked for from outside (RemoteCommand `.screenshot`): encoded in a child process
// (ScreenshotJob.swift), read back through the loop's poll, and handed to every extension.
// SIGUSR1's: written to a file by a child of their own, the loop only renaming it.
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

    /// SIGUSR1: the frame drawn last, written by a child to a new file in the screenshot folder,
    /// while the loop draws on (cairo's PNG encoder takes tens of milliseconds, more on a Pi). A
    /// SIGUSR1 while one is being written is answered by that one.
    func writeScreenshot() {
        let directory = configuration.runtime.display.screenshotDirectory
        let path = "\(directory)/kiosk-\(WallClock.fileStamp(WallClock.now()))-\(screenshotsWritten.count + 1).png"
        do {
            // The child could say only that its write failed: the folder's own trouble is named first.
            try TextFile.checkWritable(path, what: "the screenshot")
        } catch {
            log.error("SIGUSR1: screenshot not written: \(error)", metadata: ["screenshot.directory": "\(directory)"])
            return
        }
        switch extensions.fileScreenshots.request(pipeline.shadow, into: .file(path), now: clock.now) {
        case .started:
            log.debug("SIGUSR1: writing a screenshot", metadata: ["screenshot": "\(path)"])
        case .joined:
            log.info("SIGUSR1: a screenshot is being written; it answers this one too")
        case .refused(let why):
            log.error("SIGUSR1: screenshot not written: \(why)", metadata: ["screenshot.directory": "\(directory)"])
        }
    }

    /// SIGUSR1's child, once it is gone: the file written, or why not.
    func serviceFileScreenshots(at now: Instant) {
        guard extensions.fileScreenshots.inFlight, let result = extensions.fileScreenshots.service(now: now) else { return }
        switch result {
        case .success(let s):
            guard let path = s.file else { return }
            screenshotsWritten.append(path)
            log.info("SIGUSR1: screenshot written", metadata: ["screenshot": "\(path)"])
        case .failure(let e):
            log.error("SIGUSR1: screenshot not written: \(e.message)",
                      metadata: ["screenshot.directory": "\(configuration.runtime.display.screenshotDirectory)"])
        }
    }

    /// `screenshots=TAKEN/DROPPED` on the stats line when something can ask for one: made, and
    /// refused (too soon) or failed.
    var screenshotStatsFields: [(String, String)] {
        guard !extensions.installed.isEmpty else { return [] }
        return [("screenshots", "\(extensions.screenshots.taken)/\(extensions.screenshots.dropped)")]
    }
}
