import Gestures
import KioskConfig
import KioskCore
import KioskTestSupport
@testable import Render
import Scene
import Testing

/// Squares under a pinch and a rotation are rasterised by hand (`RoundedSquare`), shadow and body:
/// within a stated tolerance of cairo's exact redraw while the gesture lasts, exact once it ends.
@Suite struct TransformFrameTests {
    /// Per channel, the most any pixel of a frame during a pinch or rotation may differ from the
    /// same frame rasterised by cairo. The body, outline and shadow are rasterised from their
    /// exact area where cairo samples 15 sub-scanlines a pixel (an edge's coverage in steps of
    /// 1/15), and the shadow's ten layers are blended as one (`SquareRasterTests`): up to 13
    /// levels seen, on the nearly level edges of the body and outline.
    static let tolerance = 14
    /// Of a frame's pixels, the share that may differ from the exact redraw by more than 2 levels
    /// (0.16% seen: edge pixels; 1.2% when the shadow was a cached image resampled).
    static let offShare = 0.005

    /// Two fingers on each of the three squares, all pinching and turning at once over `frames`
    /// refreshes, each finger put down a frame after the last.
    private func pinchAllThree(_ on: FingersOnScene, scale: Double, angle: Double, frames: Int = 48) {
        let squares = on.scene.views.compactMap(\.square).map(\.center)
        let d = Point(x: 28, y: 0), turned = (d * scale).rotated(by: angle)
        var targets: [Int: Point] = [:]
        for c in squares {
            let two = on.fingers.down(c - d, after: Fingers.frame) + on.fingers.down(c + d, after: Fingers.frame)
            targets[two[0]] = c - turned
            targets[two[1]] = c + turned
        }
        on.fingers.move(targets, over: Double(frames) * Fingers.frame)
    }

    @Test(arguments: [(1.4, 0.9), (0.7, -1.3)])
    func framesDuringAPinchStayWithinToleranceOfAnExactRedraw(scale: Double, angle: Double) throws {
        let on = try FingersOnScene()
        let cached = try SceneRenderer()
        let exact = SceneRenderer(font: cached.font, cachesTransforms: false)
        let a = try PixelBuffer(width: 800, height: 480), b = try PixelBuffer(width: 800, height: 480)
        var frames = 0, transforming = 0, worst = 0, worstShare = 0.0, differing = 0
        on.onFrame = { scene, now in
            cached.draw(scene: scene, at: now, into: a)
            exact.draw(scene: scene, at: now, into: b)
            frames += 1
            let squares = scene.views.indices.filter { ViewLook.isTransforming(scene, ViewID($0)) }
            guard !squares.isEmpty else { return }
            transforming += 1
            let (most, off) = difference(a, b)
            worst = max(worst, most)
            worstShare = max(worstShare, Double(off) / Double(800 * 480))
            if most > 0 { differing += 1 }
        }
        pinchAllThree(on, scale: scale, angle: angle)
        #expect(transforming > 30, "the three squares were pinched and turned")
        #expect(differing > 0, "the hand rasteriser was used: some frames are not the exact redraw")
        #expect(worst <= Self.tolerance, "a frame differs by \(worst) levels from an exact redraw")
        #expect(worstShare <= Self.offShare, "a frame has \(worstShare * 100)% of its pixels off by more than 2 levels")
        // Once the fingers lift, the squares are drawn exactly again, through their damage too.
        var tracker = DamageTracker(width: 800, height: 480)
        _ = tracker.damage(for: on.scene, at: on.now)
        cached.draw(scene: on.scene, at: on.now, into: a)
        on.onFrame = { scene, now in
            cached.draw(scene: scene, at: now, into: a, clip: tracker.damage(for: scene, at: now))
        }
        on.fingers.up()
        on.fingers.wait(0.1)
        exact.draw(scene: on.scene, at: on.now, into: b)
        #expect(a.hasSamePixels(as: b), "settled squares drawn exactly: \(firstDifference(a, b))")
    }

    /// Squares hanging off the left, top, right and bottom edges, pinched and turned by two
    /// fingers on their visible parts: the rows and columns off the frame are cut, and what is on
    /// it stays within the tolerance of cairo's exact redraw.
    @Test func squaresHangingOffTheEdgesStayWithinToleranceWhileTransforming() throws {
        let text = try String(contentsOfFile: defaultConfigPath, encoding: .utf8)
            .replacingOccurrences(of: "frame = [100, 130, 120, 120]", with: "frame = [-70, 130, 120, 120]")
            .replacingOccurrences(of: "frame = [340, 130, 120, 120]", with: "frame = [340, -70, 120, 120]")
            .replacingOccurrences(of: "frame = [580, 130, 120, 120]", with: "frame = [740, 410, 120, 120]")
        let on = try FingersOnScene(configText: text)
        #expect(on.scene.views.filter { $0.kind == .square }.map(\.baseFrame.minX) == [-70, 340, 740], "the squares moved to the edges")
        let cached = try SceneRenderer()
        let exact = SceneRenderer(font: cached.font, cachesTransforms: false)
        let a = try PixelBuffer(width: 800, height: 480), b = try PixelBuffer(width: 800, height: 480)
        var transforming = 0, worst = 0, worstShare = 0.0
        on.onFrame = { scene, now in
            cached.draw(scene: scene, at: now, into: a)
            exact.draw(scene: scene, at: now, into: b)
            guard scene.views.indices.contains(where: { ViewLook.isTransforming(scene, ViewID($0)) }) else { return }
            transforming += 1
            let (most, off) = difference(a, b)
            worst = max(worst, most)
            worstShare = max(worstShare, Double(off) / Double(800 * 480))
        }
        // Two fingers on each square's visible part, 30 px apart, spread and turned about their middle.
        let visible = [Point(x: 25, y: 190), Point(x: 400, y: 25), Point(x: 770, y: 445)]
        let d = Point(x: 15, y: 0), turned = (d * 1.4).rotated(by: 0.9)
        var targets: [Int: Point] = [:]
        for c in visible {
            let two = on.fingers.down(c - d, after: Fingers.frame) + on.fingers.down(c + d, after: Fingers.frame)
            targets[two[0]] = c - turned
            targets[two[1]] = c + turned
        }
        on.fingers.move(targets, over: 30 * Fingers.frame)
        #expect(transforming > 20, "the squares were pinched and turned")
        #expect(on.scene.views.compactMap(\.square).allSatisfy { $0.rotation != 0 }, "every square turned")
        #expect(worst <= Self.tolerance, "a frame differs by \(worst) levels from an exact redraw")
        #expect(worstShare <= Self.offShare, "a frame has \(worstShare * 100)% of its pixels off by more than 2 levels")
        on.fingers.up()
    }

    /// The start and the end of a transform change the square's look, so both are redrawn.
    @Test func theStartAndTheEndOfAPinchDamageTheSquare() throws {
        let on = try FingersOnScene()
        var tracker = DamageTracker(width: 800, height: 480)
        _ = tracker.damage(for: on.scene, at: on.now)
        let yellow = try #require(on.scene.viewID(named: "yellow"))
        let frame = on.scene.frame(of: yellow)
        var damaged: [Bool] = []
        var states: [Bool] = []
        on.onFrame = { scene, now in
            damaged.append(tracker.damage(for: scene, at: now).contains { $0.union(frame) == $0 })
            states.append(ViewLook.isTransforming(scene, yellow))
        }
        let c = try #require(on.scene.views[yellow.rawValue].square).center
        let two = on.fingers.down(c - Point(x: 30, y: 0), after: Fingers.frame) + on.fingers.down(c + Point(x: 30, y: 0), after: Fingers.frame)
        // The fingers spread, then rest: the pinch is under way, nothing moves.
        on.fingers.move([two[0]: c - Point(x: 40, y: 0), two[1]: c + Point(x: 40, y: 0)], over: 12 * Fingers.frame)
        on.fingers.wait(0.1)
        let resting = damaged.count - 1
        on.fingers.up(two)
        #expect(states.contains(true) && !states.last!, "a pinch was under way, then ended")
        let began = try #require(states.firstIndex(of: true))
        #expect(damaged[began], "the frame the pinch began in redraws the square")
        #expect(!damaged[resting], "a pinch at rest redraws nothing")
        #expect(damaged.last!, "the frame the pinch ended in redraws the square exactly")
    }

    /// Three squares pinched at once damage much of the screen: drawn through that damage in one
    /// pass, each frame has the same pixels as a whole redraw.
    @Test func damageOverMostOfTheScreenDrawsTheSameAsAWholeFrame() throws {
        let on = try FingersOnScene()
        let renderer = try SceneRenderer()
        let a = try PixelBuffer(width: 800, height: 480), b = try PixelBuffer(width: 800, height: 480)
        var tracker = DamageTracker(width: 800, height: 480)
        renderer.draw(scene: on.scene, at: on.now, into: a)
        _ = tracker.damage(for: on.scene, at: on.now)
        var large = 0, frames = 0
        on.onFrame = { scene, now in
            let damage = tracker.damage(for: scene, at: now)
            let area = damage.reduce(0) { $0 + $1.width * $1.height }
            if area >= 0.4 * 800 * 480 { large += 1 }
            renderer.draw(scene: scene, at: now, into: a, clip: damage)
            renderer.draw(scene: scene, at: now, into: b)
            frames += 1
            if !a.hasSamePixels(as: b) { Issue.record("frame \(frames): \(firstDifference(a, b))") }
        }
        pinchAllThree(on, scale: 1.3, angle: 0.6, frames: 18)
        on.fingers.up()
        #expect(large > 2, "the three squares' damage covered much of the screen")
    }
}

/// The most any channel of a pixel differs between `a` and `b`, and how many pixels differ by more than 2.
func difference(_ a: PixelBuffer, _ b: PixelBuffer) -> (most: Int, off: Int) {
    var most = 0, off = 0
    for y in 0..<a.height {
        for x in 0..<a.width {
            let p = a.rgb(x: x, y: y), q = b.rgb(x: x, y: y)
            let d = max(abs(Int(p.red) - Int(q.red)), abs(Int(p.green) - Int(q.green)), abs(Int(p.blue) - Int(q.blue)))
            most = max(most, d)
            if d > 2 { off += 1 }
        }
    }
    return (most, off)
}
