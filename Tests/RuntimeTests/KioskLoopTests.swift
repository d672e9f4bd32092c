import Display
import Foundation
import Geometry
import Gestures
import KioskConfig
import Render
@testable import Runtime
import Scene
import Testing

/// The kiosk loop stepped by hand on a virtual clock, drawing into a headless display.
@Suite("The kiosk loop on a virtual clock")
struct KioskLoopTests {
    static let configPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("config/kiosk.toml").path

    final class Harness {
        final class Clock { var now = Instant(seconds: 100) }
        let clock = Clock()
        let loop: KioskLoop
        let output: HeadlessOutput
        let finger = TouchID(1)

        init() throws {
            let configuration = try KioskConfiguration.load(path: KioskLoopTests.configPath)
            let clock = self.clock
            output = try HeadlessOutput(width: 800, height: 480, format: .xrgb8888, now: { clock.now })
            loop = try KioskLoop(replaying: configuration, output: output, traceDecisions: false, recordsEvents: false, clock: { clock.now })
            loop.tick(at: clock.now)
        }

        func frame(_ phase: TouchPhase, _ p: Point, after seconds: Double = 1.0 / 60) {
            clock.now = clock.now.adding(seconds: seconds)
            loop.process(TouchFrame(time: clock.now, touches: [Touch(id: finger, phase: phase, location: p)]), touchesDown: phase.isFinal ? 0 : 1)
            loop.tick(at: clock.now)
        }
    }

    @Test func theFirstFrameIsTheWholeSceneAndAnIdleLoopDrawsNothingMore() throws {
        let h = try Harness()
        #expect(h.output.flipCount == 1)
        let expected = try PixelBuffer(width: 800, height: 480)
        try SceneRenderer().draw(scene: h.loop.scene, at: h.clock.now, into: expected)
        #expect(memcmp(expected.bytes, h.loop.shadow.bytes, expected.stride * 480) == 0)
        #expect(h.loop.nextWake() == nil, "nothing pending: the loop sleeps")
        h.loop.tick(at: h.clock.now.adding(seconds: 5))
        #expect(h.output.flipCount == 1, "no change, no frame")
    }

    @Test func aRestingFingerDrawsNothing() throws {
        let h = try Harness()
        h.frame(.began, Point(x: 160, y: 190))
        for i in 1...20 { h.frame(.moved, Point(x: 160 + Double(i) * 3, y: 190)) }
        let flips = h.output.flipCount
        #expect(flips > 10, "a drag draws frames")
        for _ in 0..<10 { h.frame(.stationary, Point(x: 220, y: 190)) }
        #expect(h.output.flipCount == flips, "a finger at rest changes nothing on screen")
    }
}
