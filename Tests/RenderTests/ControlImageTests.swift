import KioskCore
import KioskTestSupport
@testable import Render
import Scene
import Testing

/// Controls copied from their cached images leave the very bytes a direct draw leaves.
@Suite struct ControlImageTests {
    /// Every frame of a session on the controls (taps, a held button, the slider dragged, the switch
    /// flipped, a theme change, a square dragged over the button), drawn whole and through its
    /// damage with the controls' images, and whole without them: byte for byte the same.
    @Test func controlsFromTheirImagesMatchADirectDrawByteForByte() throws {
        let driver = try TouchDriver()
        let cached = try SceneRenderer()
        let direct = SceneRenderer(font: cached.font)
        direct.cachesControls = false
        let whole = try PixelBuffer(width: 800, height: 480), damaged = try PixelBuffer(width: 800, height: 480)
        let reference = try PixelBuffer(width: 800, height: 480)
        var tracker = DamageTracker(width: 800, height: 480)
        cached.draw(scene: driver.scene, at: driver.now, into: damaged)
        _ = tracker.damage(for: driver.scene, at: driver.now)
        var frames = 0, mismatches = 0
        driver.onFrame = { scene, now in
            frames += 1
            cached.draw(scene: scene, at: now, into: whole)
            cached.draw(scene: scene, at: now, into: damaged, clip: tracker.damage(for: scene, at: now))
            direct.draw(scene: scene, at: now, into: reference)
            if !whole.hasSamePixels(as: reference) || !damaged.hasSamePixels(as: reference) {
                mismatches += 1
                if mismatches < 4 { Issue.record("frame \(frames): \(firstDifference(whole, reference)) \(firstDifference(damaged, reference))") }
            }
        }
        let slider = driver.scene.views.first { $0.kind == .slider }!
        driver.tap(Point(x: 130, y: 424))
        driver.down(4, at: Point(x: 130, y: 424))
        driver.wait(0.2)
        driver.up(4)
        driver.drag(from: slider.knobCenter(), to: Point(x: 480, y: 424))
        driver.tap(Point(x: 680, y: 424))
        driver.swipeLeft(at: 320)
        driver.wait(0.5)
        // A square dragged over the button: there the button is drawn directly, over the square.
        driver.drag(1, from: Point(x: 160, y: 190), to: Point(x: 140, y: 380), over: 0.5)
        driver.wait(0.5)
        #expect(frames > 60)
        #expect(mismatches == 0)
    }
}
