import Foundation
import KioskCore
import KioskTestSupport
import Render
@testable import Runtime
import Scene
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// An extension that keeps the screenshots the loop hands out.
final class ScreenshotRecorder: LoopExtension {
    var results: [Result<Screenshot, ScreenshotError>] = []
    func appendPollDescriptors(to fds: inout [pollfd]) {}
    func service(_ ready: UnsafeBufferPointer<pollfd>, now: Instant, target: CommandTarget) {}
    var nextDeadline: Instant? { nil }
    func publish(_ events: ArraySlice<SceneEvent>, source: ChangeSource, scene: KioskScene, now: Instant) {}
    func stop(now: Instant) {}
    func screenshotTaken(_ result: Result<Screenshot, ScreenshotError>, target: CommandTarget, now: Instant) { results.append(result) }
}

/// Screenshots in the loop (KioskLoop+Screenshots.swift, ScreenshotJob.swift): a forked child
/// encodes the frame while the loop draws on; one child at a time, one start per interval, a
/// bounded PNG and a bounded time, on the virtual clock.
@Suite("Screenshots: encoded in a child, bounded, the loop never waits")
final class ScreenshotLoopTests {
    let run: LiveLoopRun
    let recorder = ScreenshotRecorder()

    init() throws {
        run = try LiveLoopRun("screenshots")
        run.loop.install(recorder)
        run.embedded.run()
    }

    var job: ScreenshotJob { run.loop.extensions.screenshots }

    /// The loop's wake-ups, `run()`'s own, each polling the child's pipe (no sleep), until it
    /// handed out one more screenshot.
    func awaitScreenshot() -> Result<Screenshot, ScreenshotError>? {
        let before = recorder.results.count
        run.embedded.run(seconds: 50, waitingUpTo: 1000) { recorder.results.count > before }
        return recorder.results.count > before ? recorder.results.last : nil
    }

    func ask(after seconds: Double = 0) -> Result<Void, RemoteCommandError> {
        run.clock.now = run.clock.now.adding(seconds: seconds)
        return run.loop.apply(.screenshot, source: .socket)
    }

    func error(_ r: Result<Void, RemoteCommandError>) -> String? {
        if case .failure(let e) = r { return e.message }
        return nil
    }

    @Test func thePictureIsTheFrameAsAskedWhileTheLoopDrawsOn() throws {
        let asked = try PixelBuffer(png: try run.loop.pipeline.shadow.pngData())
        #expect(error(ask()) == nil)
        let child = try #require(job.child)
        // The child held still: the loop goes on drawing and serving, its pipe never waited on.
        kill(child.pid, SIGSTOP)
        let flips = run.loop.output?.flipCount ?? 0
        for i in 1...30 {
            _ = run.loop.apply(.setValue(view: "slider", Double(i) / 30), source: .socket)
            run.embedded.advanceTime(by: 1.0 / 60)
        }
        #expect((run.loop.output?.flipCount ?? 0) >= flips + 30)
        #expect(job.inFlight && recorder.results.isEmpty)
        kill(child.pid, SIGCONT)
        guard case .success(let shot) = try #require(awaitScreenshot()) else { Issue.record("no picture: \(recorder.results)"); return }
        let picture = try PixelBuffer(png: shot.png)
        #expect(shot.width == 800 && shot.height == 480)
        #expect(firstDifference(picture, asked) == "none", "the picture is the frame drawn when it was asked for")
        #expect(!picture.hasSamePixels(as: run.loop.pipeline.shadow), "the loop drew the slider moved since")
        #expect(job.taken == 1 && job.dropped == 0 && !job.inFlight)
    }

    @Test func requestsWhileOneEncodesShareItAndOnesTooSoonAreRefusedAndCounted() throws {
        #expect(error(ask()) == nil)
        #expect(error(ask()) == nil, "joins the one in flight")
        #expect(job.coalesced == 1)
        guard case .success = try #require(awaitScreenshot()) else { Issue.record("\(recorder.results)"); return }
        #expect(recorder.results.count == 1, "one child, one picture for both")
        #expect(error(ask(after: 1.5)) == "at most one screenshot every 2.0 s; the next in 0.5 s")
        #expect(!job.inFlight)
        #expect(error(ask(after: 0.5)) == nil, "2 s after the last start")
        guard case .success = try #require(awaitScreenshot()) else { Issue.record("\(recorder.results)"); return }
        run.loop.statsLine(at: run.clock.now)
        let stats = try #require(run.handler.entries.last { $0.message.description.hasPrefix("stats ") })
        #expect(stats.metadata["screenshots"].map { "\($0)" } == "2/1")
    }

    @Test func aPNGOverTheBoundIsRefusedAndItsChildStopped() throws {
        run.loop.extensions.screenshots = ScreenshotJob(limits: .init(maximumBytes: 1000))
        #expect(error(ask()) == nil)
        guard case .failure(let e) = try #require(awaitScreenshot()) else { Issue.record("a picture over the bound"); return }
        #expect(e.message == "the PNG is larger than 1000 bytes")
        #expect(job.dropped == 1 && job.taken == 0 && !job.inFlight)
    }

    @Test func aChildPastItsTimeIsStopped() throws {
        run.loop.extensions.screenshots = ScreenshotJob(limits: .init(seconds: 5))
        #expect(error(ask()) == nil)
        let child = try #require(job.child)
        kill(child.pid, SIGSTOP)
        #expect(run.loop.nextWake().map { $0 <= run.clock.now.adding(seconds: 5) } == true, "the loop wakes for the child's time limit")
        run.clock.now = run.clock.now.adding(seconds: 5)
        guard case .failure(let e) = try #require(awaitScreenshot()) else { Issue.record("a picture from a stopped child"); return }
        #expect(e.message == "the encoder took longer than 5 s and was stopped")
        #expect(kill(child.pid, 0) != 0, "reaped")
        #expect(job.dropped == 1 && !job.inFlight)
    }

    // SIGUSR1's screenshot: written to its file by a child of its own, the loop only renaming it.

    var fileJob: ScreenshotJob { run.loop.extensions.fileScreenshots }

    /// The loop's wake-ups until SIGUSR1's child is gone.
    func awaitFile() {
        run.embedded.run(seconds: 50, waitingUpTo: 1000) { !fileJob.inFlight }
    }

    func pngs() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: run.folder.path).filter { $0.contains(".png") }.sorted()
    }

    @Test func sigusr1sFileIsWrittenByAChildWhileTheLoopDrawsOnAndNamedOnlyWhenWhole() throws {
        run.loop.configuration.runtime.display.screenshotDirectory = run.folder.path
        let asked = try PixelBuffer(png: try run.loop.pipeline.shadow.pngData())
        run.loop.writeScreenshot()
        let child = try #require(fileJob.child, "a child writes it: \(run.handler.entries.map { $0.message.description })")
        kill(child.pid, SIGSTOP)
        let flips = run.loop.output?.flipCount ?? 0
        for i in 1...30 {
            _ = run.loop.apply(.setValue(view: "slider", Double(i) / 30), source: .socket)
            run.embedded.advanceTime(by: 1.0 / 60)
        }
        #expect((run.loop.output?.flipCount ?? 0) >= flips + 30, "the loop draws on while the child writes")
        let partial = try pngs()
        #expect(partial.count == 1 && partial[0].hasPrefix(".kiosk-") && partial[0].hasSuffix(".png.partial"),
                "only the hidden temporary name while it is written: \(partial)")
        #expect(run.loop.screenshotsWritten.isEmpty)
        run.loop.writeScreenshot()
        #expect(fileJob.coalesced == 1, "a SIGUSR1 while one is written is answered by it")
        kill(child.pid, SIGCONT)
        awaitFile()
        let path = try #require(run.loop.screenshotsWritten.last)
        #expect(run.loop.screenshotsWritten.count == 1)
        let written = try pngs()
        #expect(written == [URL(fileURLWithPath: path).lastPathComponent], "renamed, nothing else left: \(written)")
        #expect(URL(fileURLWithPath: path).lastPathComponent.wholeMatch(of: /kiosk-\d{8}-\d{6}-1\.png/) != nil, "\(path)")
        let picture = try PixelBuffer(contentsOfPNG: path)
        #expect(firstDifference(picture, asked) == "none", "the picture is the frame drawn when SIGUSR1 came")
        #expect(run.handler.entries.contains { $0.message.description == "SIGUSR1: screenshot written" })

        run.loop.writeScreenshot()
        awaitFile()
        #expect(run.loop.screenshotsWritten.count == 2 && run.loop.screenshotsWritten[1].hasSuffix("-2.png"),
                "no interval between SIGUSR1's: \(run.loop.screenshotsWritten)")
    }

    @Test func sigusr1sChildThatFailsLeavesNoFileAndSaysWhy() throws {
        run.loop.configuration.runtime.display.screenshotDirectory = run.folder.path
        run.loop.extensions.fileScreenshots = ScreenshotJob(limits: .init(minimumInterval: 0, seconds: 5))
        run.loop.writeScreenshot()
        let child = try #require(fileJob.child)
        kill(child.pid, SIGSTOP)
        run.clock.now = run.clock.now.adding(seconds: 5)
        awaitFile()
        #expect(kill(child.pid, 0) != 0, "reaped")
        let left = try pngs()
        #expect(left.isEmpty, "the temporary file is removed: \(left)")
        #expect(run.loop.screenshotsWritten.isEmpty)
        let error = try #require(run.handler.entries.last { $0.level == .error }?.message.description)
        #expect(error == "SIGUSR1: screenshot not written: the encoder took longer than 5 s and was stopped")

        // Stopped with the loop: the child killed, its temporary file removed.
        run.loop.writeScreenshot()
        #expect(fileJob.inFlight)
        run.loop.shutdownExtensions()
        let leftAtStop = try pngs()
        #expect(!fileJob.inFlight && leftAtStop.isEmpty, "\(leftAtStop)")
    }

    @Test func sigusr1sFileIsNamedByTheUTCSecondAndWrittenUnderAHiddenNameBesideIt() {
        #expect(WallClock.fileStamp(0) == "19700101-000000")
        #expect(WallClock.fileStamp(1_795_700_000.9) == "20261126-133320")
        #expect(ScreenshotJob.temporaryName(of: "/var/lib/kiosk/kiosk-20261126-133320-1.png") == "/var/lib/kiosk/.kiosk-20261126-133320-1.png.partial")
        #expect(ScreenshotJob.temporaryName(of: "shot.png") == ".shot.png.partial")
    }

    @Test func sigusr1IntoAFolderThatIsNotThereNamesIt() throws {
        let missing = run.folder.appendingPathComponent("no-such-folder").path
        run.loop.configuration.runtime.display.screenshotDirectory = missing
        run.loop.writeScreenshot()
        #expect(!fileJob.inFlight, "no child for a folder that cannot take the file")
        let error = try #require(run.handler.entries.last { $0.level == .error }?.message.description)
        #expect(error.hasPrefix("SIGUSR1: screenshot not written: ") && error.contains(missing), "\(error)")
    }
}
