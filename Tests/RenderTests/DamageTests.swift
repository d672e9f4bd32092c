import Gestures
import KioskCore
import KioskTestSupport
import Render
import Scene
import Testing

/// Redrawing only the damage gives the same pixels as drawing everything.
@Suite struct DamageTests {
    @Test func aFrameWithNoChangeHasNoDamage() throws {
        let on = try FingersOnScene(), f = on.fingers
        var tracker = DamageTracker(width: 800, height: 480)
        #expect(tracker.damage(for: on.scene, at: f.now) == [Rect(x: 0, y: 0, width: 800, height: 480)])
        #expect(tracker.damage(for: on.scene, at: f.now).isEmpty)
        f.wait(1)
        #expect(tracker.damage(for: on.scene, at: f.now).isEmpty)
    }

    @Test func aThemeChangeDamagesTheWholeScreen() throws {
        let on = try FingersOnScene(), f = on.fingers
        var tracker = DamageTracker(width: 800, height: 480)
        _ = tracker.damage(for: on.scene, at: f.now)
        f.drag(from: Point(x: 700, y: 320), to: Point(x: 250, y: 320), over: 0.12)
        #expect(tracker.damage(for: on.scene, at: f.now) == [Rect(x: 0, y: 0, width: 800, height: 480)])
    }

    @Test func movingTheSliderDamagesOnlyTheSlider() throws {
        let on = try FingersOnScene(), f = on.fingers
        var tracker = DamageTracker(width: 800, height: 480)
        _ = tracker.damage(for: on.scene, at: f.now)
        let slider = on.scene.views.first { $0.kind == .slider }!
        f.drag(from: slider.knobCenter(), to: slider.knobCenter() + Point(x: 60, y: 0), over: 0.3)
        let damage = tracker.damage(for: on.scene, at: f.now)
        #expect(!damage.isEmpty)
        #expect(damage.allSatisfy { $0.intersects(slider.baseFrame) && $0.width < 320 })
    }

    @Test func theSliderShowsItsValueAndItsDamageHoldsIt() throws {
        let on = try FingersOnScene(), f = on.fingers
        let renderer = try SceneRenderer()
        var tracker = DamageTracker(width: 800, height: 480)
        let before = try PixelBuffer(width: 800, height: 480)
        renderer.draw(scene: on.scene, at: f.now, into: before)
        _ = tracker.damage(for: on.scene, at: f.now)
        let index = on.scene.views.firstIndex { $0.kind == .slider }!
        let slider = on.scene.views[index]
        #expect(slider.slider?.value == 0.5 && SceneRenderer.sliderValueText(slider.slider?.value ?? -1) == "50%")
        f.drag(from: slider.knobCenter(), to: slider.knobCenter() + Point(x: 61, y: 0), over: 0.3)
        let moved = try #require(on.scene.views[index].slider).value
        #expect(SceneRenderer.sliderValueText(moved) == "\(Int((moved * 100).rounded()))%" && moved > 0.7)
        let after = try PixelBuffer(width: 800, height: 480)
        renderer.draw(scene: on.scene, at: f.now, into: after)

        // The value is written in its band above the slider, and the band is damaged when it changes.
        let band = SceneRenderer.sliderLabelBox(slider.baseFrame)
        var changed = 0, ink = 0
        for y in Int(band.minY)..<Int(band.maxY) {
            for x in Int(band.minX)..<Int(band.maxX) {
                if before.rgb(x: x, y: y) != after.rgb(x: x, y: y) { changed += 1 }
                if before.rgb(x: x, y: y) != before.rgb(x: 0, y: Int(band.minY)) { ink += 1 }
            }
        }
        #expect(ink > 100, "the band above the slider shows no text")
        #expect(changed > 50, "the value's text did not change")
        let damage = tracker.damage(for: on.scene, at: f.now)
        #expect(damage.contains { $0.union(band) == $0 }, "\(damage) does not hold \(band)")
        // Outside the band and the slider, nothing changed.
        let slid = slider.baseFrame.insetBy(-4).union(band)
        for y in stride(from: 0, to: 480, by: 3) {
            for x in stride(from: 0, to: 800, by: 3) where !slid.contains(Point(x: Double(x) + 0.5, y: Double(y) + 0.5)) {
                if before.rgb(x: x, y: y) != after.rgb(x: x, y: y) {
                    Issue.record("(\(x), \(y)) changed outside the slider")
                    return
                }
            }
        }
    }

    @Test func theValueReadsAsAWholePercentage() {
        #expect(SceneRenderer.sliderValueText(0) == "0%")
        #expect(SceneRenderer.sliderValueText(0.004) == "0%")
        #expect(SceneRenderer.sliderValueText(0.125) == "13%")
        #expect(SceneRenderer.sliderValueText(1) == "100%")
    }

    @Test(arguments: PixelFormat.allCases, [1, 2, 3, 4, 5, 6] as [UInt64])
    func damageOnlyRedrawEqualsFullRedraw(format: PixelFormat, seed: UInt64) throws {
        let on = try FingersOnScene()
        let renderer = try SceneRenderer()
        let incremental = try PixelBuffer(width: 800, height: 480, format: format)
        let full = try PixelBuffer(width: 800, height: 480, format: format)
        var tracker = DamageTracker(width: 800, height: 480)
        var frames = 0, mismatches = 0, firstMismatch = ""
        on.onFrame = { scene, now in
            let damage = tracker.damage(for: scene, at: now)
            renderer.draw(scene: scene, at: now, into: incremental, clip: damage)
            renderer.draw(scene: scene, at: now, into: full)
            frames += 1
            if !incremental.hasSamePixels(as: full) {
                mismatches += 1
                if mismatches == 1 { firstMismatch = "frame \(frames): \(firstDifference(incremental, full)) damage \(damage)" }
            }
        }
        var random = SplitMix64(seed: seed)
        for _ in 0..<10 { randomChange(on, &random) }
        #expect(frames > 50)
        #expect(mismatches == 0, "\(mismatches) of \(frames) frames differ (\(format), seed \(seed)); first: \(firstMismatch)")
    }

    /// Far more random changes than the test above (seeds 7 to 60, in four runs side by side),
    /// cheaply: a frame whose damage is empty changes no pixel, so only frames that drew are
    /// compared with a full redraw. After a mismatch the screen starts again from a full redraw,
    /// so one cut is counted once. In XRGB8888 only (every Pi panel's format), to stay within
    /// a few seconds: the test above runs both formats.
    @Test(arguments: [7...20, 21...34, 35...47, 48...60] as [ClosedRange<UInt64>])
    func manyRandomChangesRedrawnThroughTheirDamageEqualAFullRedraw(seeds: ClosedRange<UInt64>) throws {
        let format = PixelFormat.xrgb8888
        let renderer = try SceneRenderer()
        let incremental = try PixelBuffer(width: 800, height: 480, format: format)
        let full = try PixelBuffer(width: 800, height: 480, format: format)
        var frames = 0, compared = 0, mismatches = 0, first = ""
        for seed in seeds {
            let on = try FingersOnScene()
            var tracker = DamageTracker(width: 800, height: 480)
            on.onFrame = { scene, now in
                let damage = tracker.damage(for: scene, at: now)
                frames += 1
                guard !damage.isEmpty else { return }
                renderer.draw(scene: scene, at: now, into: incremental, clip: damage)
                renderer.draw(scene: scene, at: now, into: full)
                compared += 1
                if !incremental.hasSamePixels(as: full) {
                    mismatches += 1
                    if mismatches == 1 { first = "seed \(seed) frame \(frames): \(firstDifference(incremental, full)) damage \(damage)" }
                    renderer.draw(scene: scene, at: now, into: incremental)
                }
            }
            var random = SplitMix64(seed: seed)
            for _ in 0..<10 { randomChange(on, &random) }
        }
        #expect(compared > 100 * seeds.count)
        #expect(mismatches == 0, "\(mismatches) of \(compared) frames drawn differ from a full redraw (\(format)); first: \(first)")
    }

    /// Magenta dragged down until its damage reaches the switch: the damage's edge crosses the
    /// switch's rounded end, which must then be redrawn whole, since a curve clipped by a damage
    /// edge comes out a level off along the cut (cairo clips the path before it rasterizes).
    /// In XRGB8888: RGB565's coarser levels hide that one level here.
    @Test func damageThatCutsANeighbouringViewRedrawsItWhole() throws {
        let format = PixelFormat.xrgb8888
        let on = try FingersOnScene(), f = on.fingers
        let renderer = try SceneRenderer()
        let incremental = try PixelBuffer(width: 800, height: 480, format: format)
        let full = try PixelBuffer(width: 800, height: 480, format: format)
        var tracker = DamageTracker(width: 800, height: 480)
        let magenta = try #require(on.scene.viewID(named: "magenta")), toggle = try #require(on.scene.viewID(named: "switch"))
        let switchBounds = on.scene.views[toggle.rawValue].baseFrame
        var frames = 0, mismatches = 0, reached = 0, first = ""
        on.onFrame = { scene, now in
            let damage = tracker.damage(for: scene, at: now)
            renderer.draw(scene: scene, at: now, into: incremental, clip: damage)
            renderer.draw(scene: scene, at: now, into: full)
            frames += 1
            if damage.contains(where: { $0.intersects(switchBounds) }) { reached += 1 }
            if !incremental.hasSamePixels(as: full) {
                mismatches += 1
                if mismatches == 1 { first = "frame \(frames): \(firstDifference(incremental, full)) damage \(damage)" }
            }
        }
        _ = tracker.damage(for: on.scene, at: f.now)
        renderer.draw(scene: on.scene, at: f.now, into: incremental)
        // From (640, 190) to (536, 320): the square's box, grown by its shadow, ends near (629, 407),
        // across the rounded left end of the switch (x 620..648, y 396..452).
        let start = try #require(on.scene.views[magenta.rawValue].square).center
        f.drag(from: start, to: start + Point(x: -104, y: 130), over: 0.5)
        f.wait(0.5)
        #expect(reached > 0, "the damage reached the switch, the case this test is about")
        #expect(mismatches == 0, "\(mismatches) of \(frames) frames differ (\(format)); first: \(first)")
    }

    /// One scene change: a gesture somewhere, with random places and sizes.
    private func randomChange(_ on: FingersOnScene, _ random: inout SplitMix64) {
        let scene = on.scene, f = on.fingers
        let squares = scene.views.compactMap(\.square)
        let square = squares[Int(random.next() % UInt64(squares.count))]
        func jitter(_ r: Double) -> Double { (Double(random.next() % 1000) / 500 - 1) * r }
        switch random.next() % 8 {
        case 0: f.drag(from: square.center, to: square.center + Point(x: jitter(200), y: jitter(120)), over: 0.3)
        case 1: f.spreadAndTurn(around: square.center, span: 60, to: 60 * (1 + jitter(0.4)), toAngle: jitter(0.8), over: 0.3)
        case 2:
            let finger = f.down(square.center)
            f.wait(0.6)
            f.move([finger[0]: square.center + Point(x: jitter(100), y: jitter(60))], over: 0.2)
            f.up(finger)
            f.wait(0.4)
        case 3: f.drag(from: Point(x: 700, y: 330), to: Point(x: 250, y: 330), over: 0.12)
        case 4:
            let slider = scene.views.first { $0.kind == .slider }!
            f.drag(from: slider.knobCenter(), to: Point(x: slider.baseFrame.center.x + jitter(170), y: slider.baseFrame.center.y), over: 0.3)
        case 5: f.tap(at: scene.views.first { $0.kind == .toggle }!.baseFrame.center)
        case 6:
            let finger = f.down(scene.views.first { $0.kind == .button }!.baseFrame.center)
            f.wait(0.1)
            f.up(finger)
        default: f.tap(at: square.center)
        }
        f.wait(0.1)
    }
}

/// A small seeded generator, so every run makes the same changes.
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
