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
        let on = try FingersOnScene()
        let cached = try SceneRenderer()
        let direct = SceneRenderer(font: cached.font)
        direct.cachesControls = false
        let whole = try PixelBuffer(width: 800, height: 480), damaged = try PixelBuffer(width: 800, height: 480)
        let reference = try PixelBuffer(width: 800, height: 480)
        var tracker = DamageTracker(width: 800, height: 480)
        cached.draw(scene: on.scene, at: on.now, into: damaged)
        _ = tracker.damage(for: on.scene, at: on.now)
        var frames = 0, mismatches = 0
        on.onFrame = { scene, now in
            frames += 1
            cached.draw(scene: scene, at: now, into: whole)
            cached.draw(scene: scene, at: now, into: damaged, clip: tracker.damage(for: scene, at: now))
            direct.draw(scene: scene, at: now, into: reference)
            if !whole.hasSamePixels(as: reference) || !damaged.hasSamePixels(as: reference) {
                mismatches += 1
                if mismatches < 4 { Issue.record("frame \(frames): \(firstDifference(whole, reference)) \(firstDifference(damaged, reference))") }
            }
        }
        let fingers = on.fingers
        let slider = on.scene.views.first { $0.kind == .slider }!
        fingers.tap(at: Point(x: 130, y: 424))
        fingers.tap(at: Point(x: 130, y: 424), holding: 0.2)
        fingers.drag(from: slider.knobCenter(), to: Point(x: 480, y: 424), over: 0.3)
        fingers.tap(at: Point(x: 680, y: 424))
        fingers.drag(from: Point(x: 700, y: 320), to: Point(x: 250, y: 320), over: 0.12)
        fingers.wait(0.5)
        // A square dragged over the button: there the button is drawn directly, over the square.
        fingers.drag(from: Point(x: 160, y: 190), to: Point(x: 140, y: 380), over: 0.5)
        fingers.wait(0.5)
        #expect(frames > 60)
        #expect(mismatches == 0)
        // The frames compared were the controls' images, not direct draws on both sides.
        #expect(cached.controlsCopied > frames, "controls copied from their images \(cached.controlsCopied) times in \(frames) frames")
        #expect(direct.controlsCopied == 0)
    }
}
