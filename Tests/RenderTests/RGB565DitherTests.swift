import KioskCore
import KioskTestSupport
import Render
import Testing

/// RGB565 without banding: the soft shadows' gradients are dithered, not cut into flat steps.
@Suite struct RGB565DitherTests {
    /// Over every 4x4 block of the busiest shadows, the 16-bit frame's mean colour stays within
    /// this many levels of the 24-bit frame's. Rounding each pixel to 5 or 6 bits alone is off by
    /// up to 4 levels (red, blue) everywhere a gradient falls between two steps: the bands.
    static let blockTolerance = 1.5

    @Test func shadowsInRGB565KeepTheirMeanColourBlockByBlock() throws {
        let on = try FingersOnScene()
        on.fingers.down(Point(x: 640, y: 190), after: Fingers.frame)
        on.fingers.wait(0.7)
        #expect(on.scene.views.contains { $0.square?.isLifted == true }, "a lifted square: the widest, darkest shadow")
        let renderer = try SceneRenderer()
        let deep = try PixelBuffer(width: 800, height: 480, format: .xrgb8888)
        let shallow = try PixelBuffer(width: 800, height: 480, format: .rgb565)
        renderer.draw(scene: on.scene, at: on.now, into: deep)
        renderer.draw(scene: on.scene, at: on.now, into: shallow)
        var worst = 0.0, blocks = 0, dithered = 0
        for by in stride(from: 0, to: 480, by: 4) {
            for bx in stride(from: 0, to: 800, by: 4) {
                var sum = (0, 0, 0), reference = (0, 0, 0), levels = Set<UInt8>()
                for y in by..<by + 4 {
                    for x in bx..<bx + 4 {
                        let p = shallow.rgb(x: x, y: y), q = deep.rgb(x: x, y: y)
                        sum = (sum.0 + Int(p.red), sum.1 + Int(p.green), sum.2 + Int(p.blue))
                        reference = (reference.0 + Int(q.red), reference.1 + Int(q.green), reference.2 + Int(q.blue))
                        levels.insert(q.red)
                    }
                }
                // Only smooth blocks (a gradient, not an edge between two colours): the shadows.
                guard levels.count > 1, (levels.max()! - levels.min()!) <= 12 else { continue }
                blocks += 1
                let off = max(abs(sum.0 - reference.0), abs(sum.1 - reference.1), abs(sum.2 - reference.2))
                worst = max(worst, Double(off) / 16)
                var mixed = Set<UInt16>()
                for y in by..<by + 4 { for x in bx..<bx + 4 { mixed.insert(shallow.bytes.load(fromByteOffset: y * shallow.stride + x * 2, as: UInt16.self)) } }
                if mixed.count > 1 { dithered += 1 }
            }
        }
        #expect(blocks > 200, "smooth shadow blocks to measure")
        #expect(dithered > blocks / 4, "\(dithered) of \(blocks) smooth blocks mix neighbouring 16-bit levels")
        #expect(worst <= Self.blockTolerance, "a 4x4 block's mean is \(worst) levels off the 24-bit frame's")
    }
}
