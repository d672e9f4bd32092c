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
}
