import Foundation
import Gestures
import KioskCore
import KioskTestSupport
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
        try expectMatchesGolden(try FingersOnScene(), "default-start")
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
    private func busy() throws -> FingersOnScene {
        let on = try FingersOnScene()
        let fingers = on.fingers, frame = Fingers.frame
        // A swipe left across the canvas: the next theme.
        let swipe = fingers.down(Point(x: 700, y: 320), after: frame)
        fingers.move([swipe[0]: Point(x: 250, y: 320)], over: 7 * frame)
        fingers.up(swipe)
        // Yellow pinched up and turned by two fingers 60 px apart.
        let c = Point(x: 160, y: 190), d = Point(x: 30, y: 0), turned = (d * 1.35).rotated(by: 0.45)
        let pinch = fingers.down(c - d, after: frame) + fingers.down(c + d, after: frame)
        fingers.move([pinch[0]: c - turned, pinch[1]: c + turned], over: 30 * frame)
        fingers.up(pinch)
        // The slider's knob dragged right.
        let knob = fingers.down(on.scene.views[slider(on)].knobCenter(), after: frame)
        fingers.move([knob[0]: Point(x: 480, y: 424)], over: 18 * frame)
        fingers.up(knob)
        // The switch tapped on, the button tapped twice.
        for p in [Point(x: 680, y: 424), Point(x: 130, y: 424), Point(x: 130, y: 424)] { fingers.up(fingers.down(p, after: frame)) }
        fingers.wait(0.5)
        fingers.down(Point(x: 640, y: 190), after: frame)
        fingers.wait(0.7)
        fingers.down(Point(x: 130, y: 424), after: frame)
        let scene = on.scene
        #expect(scene.themeIndex != 0)
        #expect(scene.views.contains { $0.square?.isLifted == true })
        #expect(scene.views.contains { $0.square.map { $0.rotation != 0 && $0.scale > 1 } ?? false })
        #expect(scene.views.contains { $0.button.map { $0.isHighlighted && $0.taps == 2 } ?? false })
        #expect(scene.views.contains { $0.slider.map { $0.value > 0.6 } ?? false })
        #expect(scene.views.contains { $0.toggle?.isOn == true })
        return on
    }

    private func slider(_ on: FingersOnScene) -> Int { on.scene.views.firstIndex { $0.kind == .slider }! }

    private func expectMatchesGolden(_ on: FingersOnScene, _ name: String, format: PixelFormat = .xrgb8888,
                                     sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let panel = on.scene.definition.panel
        let buffer = try PixelBuffer(width: Int(panel.widthPixels), height: Int(panel.heightPixels), format: format)
        try SceneRenderer().draw(scene: on.scene, at: on.now, into: buffer)
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
