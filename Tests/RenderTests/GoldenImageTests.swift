import Foundation
import Gestures
import KioskCore
import Render
import Scene
import Testing

/// The look, against PNGs committed under Golden/; `KIOSK_WRITE_GOLDEN=1` (set to anything) writes
/// them afresh and fails each test that wrote one: a run that compared nothing must not pass.
@Suite struct GoldenImageTests {
    static let goldenDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    /// Per channel: room for a different cairo or FreeType version's anti-aliasing, not for a changed look.
    static let tolerance = 6

    @Test func defaultSceneAtStart() throws {
        let driver = try TouchDriver()
        try expectMatchesGolden(driver, "default-start")
    }

    @Test func busyScene() throws {
        try expectMatchesGolden(try busy(), "busy")
    }

    /// The same scene in 16 bits: the banding of RGB565 must stay clean, the text readable.
    @Test func busySceneInRGB565() throws {
        try expectMatchesGolden(try busy(), "busy-rgb565", format: .rgb565)
    }

    /// A scene with everything in it: a theme change, a pinched and turned square, a lifted one,
    /// the slider moved, the switch on, the button held after two taps.
    private func busy() throws -> TouchDriver {
        let driver = try TouchDriver()
        driver.swipeLeft(at: 320)
        driver.pinchAndRotate(Point(x: 160, y: 190), scale: 1.35, angle: 0.45)
        driver.drag(from: driver.scene.views[slider(driver)].knobCenter(), to: Point(x: 480, y: 424))
        driver.tap(Point(x: 680, y: 424))
        driver.tap(Point(x: 130, y: 424))
        driver.tap(Point(x: 130, y: 424))
        driver.wait(0.5)
        driver.down(3, at: Point(x: 640, y: 190))
        driver.wait(0.7)
        driver.down(4, at: Point(x: 130, y: 424))
        let scene = driver.scene
        #expect(scene.views[0].themeIndex != 0)
        #expect(scene.views.contains { $0.lifted })
        #expect(scene.views.contains { $0.kind == .square && $0.rotation != 0 && $0.scale > 1 })
        #expect(scene.views.contains { $0.kind == .button && $0.isHighlighted && $0.taps == 2 })
        #expect(scene.views.contains { $0.kind == .slider && $0.value > 0.6 })
        #expect(scene.views.contains { $0.kind == .toggle && $0.isOn })
        return driver
    }

    private func slider(_ driver: TouchDriver) -> Int { driver.scene.views.firstIndex { $0.kind == .slider }! }

    private func expectMatchesGolden(_ driver: TouchDriver, _ name: String, format: PixelFormat = .xrgb8888,
                                     sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let panel = driver.scene.definition.panel
        let buffer = try PixelBuffer(width: Int(panel.widthPixels), height: Int(panel.heightPixels), format: format)
        try SceneRenderer().draw(scene: driver.scene, at: driver.now, into: buffer)
        let golden = Self.goldenDirectory.appendingPathComponent("\(name).png").path
        let actualPath = Self.goldenDirectory.appendingPathComponent("\(name).actual.png").path
        let diffPath = Self.goldenDirectory.appendingPathComponent("\(name).diff.png").path
        if let request = ProcessInfo.processInfo.environment["KIOSK_WRITE_GOLDEN"], !request.isEmpty {
            try FileManager.default.createDirectory(at: Self.goldenDirectory, withIntermediateDirectories: true)
            try buffer.writePNG(to: golden)
            Issue.record("\(name): KIOSK_WRITE_GOLDEN=\(request) wrote \(golden); nothing was compared, so this run does not count: check the image, commit it, and run again without KIOSK_WRITE_GOLDEN",
                         sourceLocation: sourceLocation)
            return
        }
        let expected = try PixelBuffer(contentsOfPNG: golden)
        guard expected.width == buffer.width, expected.height == buffer.height else {
            try buffer.writePNG(to: actualPath)
            Issue.record("\(name): size \(buffer.width)x\(buffer.height), golden \(expected.width)x\(expected.height); actual written to \(actualPath)", sourceLocation: sourceLocation)
            return
        }
        let diff = try PixelBuffer(width: buffer.width, height: buffer.height)
        var bad = 0, worst = 0
        for y in 0..<buffer.height {
            for x in 0..<buffer.width {
                let a = buffer.rgb(x: x, y: y), e = expected.rgb(x: x, y: y)
                let d = max(abs(Int(a.red) - Int(e.red)), abs(Int(a.green) - Int(e.green)), abs(Int(a.blue) - Int(e.blue)))
                worst = max(worst, d)
                if d > Self.tolerance { bad += 1 }
                // Grey where equal, red where off by more than the tolerance.
                let v = UInt32(a.red / 4 + a.green / 4 + a.blue / 4)
                let pixel: UInt32 = d > Self.tolerance ? 0xff0000 : (v << 16 | v << 8 | v)
                diff.bytes.storeBytes(of: pixel, toByteOffset: y * diff.stride + x * 4, as: UInt32.self)
            }
        }
        guard bad > 0 else {
            try? FileManager.default.removeItem(atPath: actualPath)
            try? FileManager.default.removeItem(atPath: diffPath)
            return
        }
        try buffer.writePNG(to: actualPath)
        try diff.writePNG(to: diffPath)
        Issue.record("\(name): \(bad) pixels differ by more than \(Self.tolerance) (worst \(worst)); see \(actualPath) and \(diffPath)", sourceLocation: sourceLocation)
    }
}
