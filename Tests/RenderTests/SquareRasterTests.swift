import CCairo
import KioskCore
import KioskTestSupport
@testable import Render
import Testing

/// The hand rasteriser against cairo drawing the same shapes: a turned body with and without its
/// outline, and the upright ten-layer shadow.
@Suite struct SquareRasterTests {
    /// Per channel, the most a body pixel may differ from cairo's fill and stroke: cairo samples
    /// 15 sub-scanlines a pixel and flattens arcs to 0.1 pixel, the rasteriser takes the exact
    /// area (the corners' arcs approximately, `RoundedSquare.arcFlattening`), so an edge pixel
    /// may be a few levels apart (11 seen: 0.06 of the body's contrast with the background; 16
    /// without the arcs' correction; the interior is exact).
    static let bodyTolerance = 12
    /// The most a shadow pixel's alpha may differ from cairo's ten fills.
    static let shadowTolerance = 3

    static let background: UInt32 = 0xffee_f0f3

    private func cleared(_ buffer: PixelBuffer) {
        for y in 0..<buffer.height {
            let row = (buffer.bytes + y * buffer.stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<buffer.width { row[x] = Self.background }
        }
    }

    @Test(arguments: [
        (144.0, 0.0, 1.0), (144.0, 0.3, 1.0), (187.2, 0.8, 1.0), (100.8, -1.3, 0.5),
        (120.0, 0.0, 0.0), (120.0, 0.45, 0.0), (30.0, 2.0, 1.0), (168.0, Double.pi / 4, 1.0),
    ])
    func aBodyMatchesCairosFillAndStroke(side: Double, rotation: Double, raised: Double) throws {
        let cairo = try PixelBuffer(width: 300, height: 300), hand = try PixelBuffer(width: 300, height: 300)
        cleared(cairo)
        cleared(hand)
        let look = SquareLook(side: side, rotation: rotation, raised: raised, color: Color(red: 0xd6, green: 0x33, blue: 0x84), transforming: true)
        // Off the pixel grid, as a pinched square's center is.
        let cx = 150.3, cy = 149.6
        cairo.withSurface { surface in
            let cr = cairo_create(surface)!
            cairo_translate(cr, cx, cy)
            SquareImage.drawBody(cr, look)
            cairo_destroy(cr)
        }
        RoundedSquare(cx: cx, cy: cy, side: side, radius: SquareImage.radius(look), rotation: rotation)
            .drawBody(rgb: 0xd6_3384, outline: raised > 0 ? Pixel8.alpha(0.9 * raised) : 0,
                      into: hand.bytes, stride: hand.stride, width: hand.width, height: hand.height)
        let (most, _) = difference(cairo, hand)
        #expect(most <= Self.bodyTolerance, "a body pixel is \(most) levels from cairo's")
        let middle = (cairo.bytes + 150 * cairo.stride).load(fromByteOffset: 4 * 150, as: UInt32.self)
        #expect(middle & 0xff_ffff == 0xd6_3384, "cairo drew the body")
        // Every pixel's top byte as cairo leaves it, so whole frames can be compared byte for byte.
        var tops = Set<UInt32>()
        for y in 0..<300 {
            for x in 0..<300 { tops.insert((hand.bytes + y * hand.stride).load(fromByteOffset: 4 * x, as: UInt32.self) >> 24) }
        }
        #expect(tops == [0xff])
    }

    @Test(arguments: [(144.0, 0.0, 1.0), (120.0, 0.0, 0.0), (187.2, 0.8, 1.0), (60.0, -1.3, 0.4), (168.0, Double.pi / 4, 1.0)])
    func aShadowMatchesCairosTenFills(side: Double, rotation: Double, raised: Double) throws {
        let cairo = try PixelBuffer(width: 300, height: 300), hand = try PixelBuffer(width: 300, height: 300)
        cleared(cairo)
        cleared(hand)
        let look = SquareLook(side: side, rotation: rotation, raised: raised, color: Color(red: 0, green: 0, blue: 0), transforming: true)
        let cx = 150.3, cy = 149.6
        cairo.withSurface { surface in
            let cr = cairo_create(surface)!
            cairo_translate(cr, cx, cy)
            SquareImage.drawShadow(cr, look, drop: 0)
            cairo_destroy(cr)
        }
        let profile = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 1024)
        defer { profile.deallocate() }
        let count = RoundedSquare.shadowProfile(spreads: 1, step: SquareImage.shadowStep(look), layers: SquareImage.shadowLayers,
                                                alpha: Pixel8.alpha(SquareImage.shadowAlpha(look)), into: profile)
        // No body over it: every pixel of the shadow is drawn.
        let none = RoundedSquare(cx: cx, cy: cy, side: 0, radius: 0, rotation: 0)
        RoundedSquare(cx: cx, cy: cy, side: side, radius: SquareImage.radius(look), rotation: rotation)
            .drawShadow(profile: profile, count: count, under: none, outline: false,
                        into: hand.bytes, stride: hand.stride, width: hand.width, height: hand.height)
        let (most, _) = difference(cairo, hand)
        let middle = cairo.rgb(x: 150, y: 150)
        #expect(middle.green < 200, "cairo drew the shadow")
        #expect(most <= Self.shadowTolerance, "a shadow pixel is \(most) levels from cairo's")
    }

    /// A settled square's image laid over the frame by hand has the bytes `cairo_paint` leaves,
    /// also where it hangs off the frame's edges.
    @Test(arguments: [(150.0, 150.0), (20.0, 30.0), (290.0, 285.0)])
    func aSquaresImageLaysOverTheFrameAsCairoPaintDoes(x: Double, y: Double) throws {
        let cairo = try PixelBuffer(width: 300, height: 300), hand = try PixelBuffer(width: 300, height: 300)
        // A frame with something in it already: a gradient under the square.
        for b in [cairo, hand] {
            for row in 0..<300 {
                let p = (b.bytes + row * b.stride).assumingMemoryBound(to: UInt32.self)
                for col in 0..<300 { p[col] = 0xff00_0000 | UInt32(col % 256) << 16 | UInt32(row % 256) << 8 | 0x80 }
            }
        }
        let image = SquareImage(SquareLook(side: 144, rotation: 0.3, raised: 1, color: Color(red: 0x17, green: 0xbe, blue: 0xcf), transforming: false))
        defer { cairo_surface_destroy(image.surface) }
        let left = Int((x - image.half).rounded()), top = Int((y - image.half).rounded())
        cairo.withSurface { surface in
            let cr = cairo_create(surface)!
            cairo_set_source_surface(cr, image.surface, Double(left), Double(top))
            cairo_paint(cr)
            cairo_destroy(cr)
        }
        hand.withSurface { surface in FramePixels(surface)!.composite(image, x: left, y: top) }
        #expect(hand.hasSamePixels(as: cairo), "\(firstDifference(hand, cairo))")
    }
}
