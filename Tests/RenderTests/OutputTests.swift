import Foundation
import Geometry
import Gestures
import InputEvents
import KioskConfig
import Render
import Runtime
import Testing

/// PNG output, both pixel formats, the font error, and `kiosk replay --screenshot`'s final frame.
@Suite struct OutputTests {
    private func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("render-\(getpid())-\(name)").path
    }

    @Test(arguments: PixelFormat.allCases)
    func pngKeepsEveryPixel(format: PixelFormat) throws {
        let driver = try TouchDriver()
        let buffer = try PixelBuffer(width: 800, height: 480, format: format)
        try SceneRenderer().draw(scene: driver.scene, at: driver.now, into: buffer)
        let path = temporaryPath("\(format).png")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try buffer.writePNG(to: path)
        let back = try PixelBuffer(contentsOfPNG: path)
        #expect(back.width == 800 && back.height == 480)
        #expect(firstDifference(back, buffer) == "none")
    }

    @Test func aMissingFontNamesItsPath() {
        #expect {
            _ = try Font(path: "/nonexistent/Font.ttf")
        } throws: { error in
            "\(error)".contains("/nonexistent/Font.ttf")
        }
    }

    @Test func screenshotIsTheReplaysFinalFrame() throws {
        let configuration = try KioskConfiguration.load(path: defaultConfigPath)
        let tracePath = repositoryRoot.appendingPathComponent("traces/demo.evemu").path
        let trace = try EvemuTrace.parse(try String(contentsOfFile: tracePath, encoding: .utf8), file: tracePath)
        let replay = try Replay(trace: trace, scene: configuration.scene, traceDecisions: false)
        let path = temporaryPath("screenshot.png")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try replay.writeScreenshot(to: path)
        let expected = try PixelBuffer(width: 800, height: 480)
        try SceneRenderer().draw(scene: replay.scene, at: replay.endTime, into: expected)
        #expect(firstDifference(try PixelBuffer(contentsOfPNG: path), expected) == "none")
    }
}
