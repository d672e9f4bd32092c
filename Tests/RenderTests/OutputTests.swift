import Foundation
import Gestures
import InputEvents
import KioskConfig
import KioskCore
import KioskTestSupport
import Render
import Runtime
import Testing

/// PNG output, both pixel formats, the font error.
@Suite struct OutputTests {
    private func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("render-\(getpid())-\(name)").path
    }

    @Test(arguments: PixelFormat.allCases)
    func pngKeepsEveryPixel(format: PixelFormat) throws {
        let on = try FingersOnScene()
        let buffer = try PixelBuffer(width: 800, height: 480, format: format)
        try SceneRenderer().draw(scene: on.scene, at: on.now, into: buffer)
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
}
