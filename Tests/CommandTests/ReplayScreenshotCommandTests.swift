import Foundation
import InputEvents
import KioskConfig
import KioskCore
import KioskTestSupport
import Render
import Runtime
import Testing

/// `kiosk replay --screenshot`'s final frame, against the scene drawn whole apart from the loop.
@Suite struct ReplayScreenshotCommandTests {
    /// `kiosk replay --screenshot` as a user runs it: the PNG is the loop's own shadow buffer,
    /// built frame by frame from damage, in the config's pixel format and font; it must equal a
    /// full redraw of the replay's final state, made here apart from the loop.
    @Test(arguments: PixelFormat.allCases)
    func screenshotIsTheFinalStateDrawnWhole(format: PixelFormat) throws {
        let folder = try KioskExecutable.temporaryFolder("screenshot")
        defer { try? FileManager.default.removeItem(at: folder) }
        // A font other than the default, so a screenshot that ignored the config would show.
        let bold = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
        let name = format == .rgb565 ? "rgb565" : "xrgb8888"
        let text = try String(contentsOfFile: defaultConfigPath, encoding: .utf8)
            .replacingOccurrences(of: #"pixel_format = "xrgb8888""#, with: #"pixel_format = "\#(name)""#)
            .replacingOccurrences(of: #"font = "\#(Font.defaultPath)""#, with: #"font = "\#(bold)""#)
        let configPath = folder.appendingPathComponent("kiosk.toml").path
        try text.write(toFile: configPath, atomically: true, encoding: .utf8)
        let configuration = try KioskConfiguration.load(path: configPath)
        #expect(configuration.runtime.display.font == bold)
        #expect(configuration.runtime.display.pixelFormat.rawValue == name)

        let tracePath = repositoryRoot.appendingPathComponent("traces/demo.evemu").path
        let png = folder.appendingPathComponent("final.png").path
        let run = try KioskExecutable.run(["replay", tracePath, "--config", configPath, "--screenshot", png,
                                           "--events", folder.appendingPathComponent("events.jsonl").path])
        #expect(run.status == 0, "\(run.stderr)")

        let trace = try EvemuTrace.parse(try String(contentsOfFile: tracePath, encoding: .utf8), file: tracePath)
        let replay = try Replay(trace: trace, configuration: configuration, traceDecisions: false)
        #expect(replay.loop.output == nil, "the reference replay draws nothing of its own")
        let expected = try PixelBuffer(width: 800, height: 480, format: format)
        SceneRenderer(font: try Font(path: bold)).draw(scene: replay.scene, at: replay.endTime, into: expected)
        let shot = try PixelBuffer(contentsOfPNG: png)
        #expect(firstDifference(shot, expected) == "none")
        // A replay that drew nothing writes its final frame drawn whole through its own frame
        // pipeline, in the config's format and font: the same pixels.
        let whole = folder.appendingPathComponent("whole.png").path
        try replay.writeScreenshot(to: whole)
        #expect(firstDifference(try PixelBuffer(contentsOfPNG: whole), expected) == "none")

        // The comparison can tell: the default font, or the other pixel format, would not pass.
        let plain = try PixelBuffer(width: 800, height: 480, format: format)
        try SceneRenderer().draw(scene: replay.scene, at: replay.endTime, into: plain)
        #expect(firstDifference(shot, plain) != "none")
        let otherFormat = try PixelBuffer(width: 800, height: 480, format: format == .rgb565 ? .xrgb8888 : .rgb565)
        SceneRenderer(font: try Font(path: bold)).draw(scene: replay.scene, at: replay.endTime, into: otherFormat)
        #expect(firstDifference(shot, otherFormat) != "none")
    }
}
