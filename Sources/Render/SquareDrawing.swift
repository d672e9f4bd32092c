import CCairo
import KioskCore

extension SceneRenderer {
    /// A settled square from its cached image at whole pixels; one under a pinch or rotation
    /// rasterised by hand, shadow and body, straight into the frame.
    func drawSquare(_ cr: OpaquePointer, _ look: ViewLook, index: Int) {
        let square = look.square
        guard SquareImage.size(square) <= Self.largestSquareImage else {
            cairo_save(cr)
            cairo_translate(cr, look.center.x, look.center.y)
            SquareImage.draw(cr, square)
            cairo_restore(cr)
            return
        }
        if square.transforming && cachesTransforms, let pixels = framePixels {
            drawTransforming(look, into: pixels)
            return
        }
        if squareImages.count <= index { squareImages.append(contentsOf: repeatElement(nil, count: index + 1 - squareImages.count)) }
        if squareImages[index]?.look != square.settled {
            if let old = squareImages[index] { cairo_surface_destroy(old.surface) }
            squareImages[index] = SquareImage(square.settled)
        }
        let image = squareImages[index]!
        // At whole pixels, so the image is copied, not resampled.
        let x = Int((look.center.x - image.half).rounded()), y = Int((look.center.y - image.half).rounded())
        if let pixels = framePixels {
            // pixman's own arithmetic, byte for byte; cairo_paint allocates twice for each composite.
            pixels.composite(image, x: x, y: y)
        } else {
            cairo_set_source_surface(cr, image.surface, Double(x), Double(y))
            cairo_paint(cr)
        }
    }

    /// The square turned and scaled as it is at this frame, from its signed distance: its
    /// shadow's ten layers as one alpha by distance (`shadowProfile`), then its body and outline.
    /// Nothing is cached or resampled, so no frame pays for drawing a cache again; the shadow is
    /// left out under the body's inside, which the body covers.
    private func drawTransforming(_ look: ViewLook, into pixels: FramePixels) {
        let square = look.square
        shadowProfile.update(for: square)
        // Where a settled square's image would put its center (at whole pixels), so the end of
        // the gesture does not shift the square by a fraction of a pixel.
        let half = Double(SquareImage.size(square)) / 2
        let x = (look.center.x - half).rounded() + half, y = (look.center.y - half).rounded() + half
        let radius = SquareImage.radius(square)
        let body = RoundedSquare(cx: x, cy: y, side: square.side, radius: radius, rotation: square.rotation)
        let shadow = RoundedSquare(cx: x, cy: y + SquareImage.drop(square), side: square.side, radius: radius, rotation: square.rotation)
        let outline = square.raised > 0 ? Pixel8.alpha(0.9 * square.raised) : 0
        pixels.begin()
        shadow.drawShadow(profile: shadowProfile.alpha, count: shadowProfile.count, under: body, outline: outline > 0,
                          into: pixels.data, stride: pixels.stride, width: pixels.width, height: pixels.height)
        let c = square.color
        body.drawBody(rgb: UInt32(c.red) << 16 | UInt32(c.green) << 8 | UInt32(c.blue), outline: outline,
                      into: pixels.data, stride: pixels.stride, width: pixels.width, height: pixels.height)
        pixels.end()
    }
}

/// The frame's pixels as cairo holds them (32 bits, XRGB), for drawing by hand between cairo's calls.
struct FramePixels {
    let surface: OpaquePointer
    let data: UnsafeMutableRawPointer
    let stride: Int, width: Int, height: Int

    /// The pixels of `surface` when it is a 32-bit image surface.
    init?(_ surface: OpaquePointer) {
        let format = cairo_image_surface_get_format(surface)
        guard format == CAIRO_FORMAT_RGB24 || format == CAIRO_FORMAT_ARGB32, let data = cairo_image_surface_get_data(surface) else { return nil }
        self.surface = surface
        self.data = UnsafeMutableRawPointer(data)
        stride = Int(cairo_image_surface_get_stride(surface))
        width = Int(cairo_image_surface_get_width(surface))
        height = Int(cairo_image_surface_get_height(surface))
    }

    /// Before writing: whatever cairo has pending is in memory.
    func begin() { cairo_surface_flush(surface) }

    /// After writing: cairo forgets anything it kept of the old pixels.
    func end() { cairo_surface_mark_dirty(surface) }

    /// Lays the square's image over the frame with its corner at `x`, `y`, as pixman's OVER
    /// does (each channel `s + d (255 - sa) / 255`, rounded as pixman rounds): its opaque run
    /// in each row copied, its edges blended.
    func composite(_ image: SquareImage, x: Int, y: Int) {
        guard let from = cairo_image_surface_get_data(image.surface) else { return }
        let w = Int(cairo_image_surface_get_width(image.surface)), h = Int(cairo_image_surface_get_height(image.surface))
        let fromStride = Int(cairo_image_surface_get_stride(image.surface))
        let x0 = max(0, x), x1 = min(width, x + w), y0 = max(0, y), y1 = min(height, y + h)
        guard x0 < x1, y0 < y1, image.spans.count == 4 * h else { return }
        begin()
        image.spans.withUnsafeBufferPointer { spans in
            for row in y0..<y1 {
                let s = UnsafeMutableRawPointer(from + (row - y) * fromStride).assumingMemoryBound(to: UInt32.self)
                let d = (data + row * stride).assumingMemoryBound(to: UInt32.self) + x
                let k = 4 * (row - y)
                // In the image's columns, cut to the frame's.
                let lo = x0 - x, hi = x1 - x
                let first = max(lo, Int(spans[k])), o0 = min(hi, max(lo, Int(spans[k + 1])))
                let o1 = min(hi, max(lo, Int(spans[k + 2]))), last = min(hi, Int(spans[k + 3]))
                guard first < last else { continue }
                var i = first
                while i < min(o0, last) { d[i] = Pixel8.over(premultiplied: s[i], d[i]); i += 1 }
                if o0 < o1 { UnsafeMutableRawPointer(d + o0).copyMemory(from: s + o0, byteCount: 4 * (o1 - o0)) }
                i = max(i, o1)
                while i < last { d[i] = Pixel8.over(premultiplied: s[i], d[i]); i += 1 }
            }
        }
        end()
    }
}

/// A square with its shadow and outline, drawn once into an image with room for the shadow.
struct SquareImage {
    let look: SquareLook
    let surface: OpaquePointer
    /// From the image's corner to the square's center.
    let half: Double
    /// Per row, from `RowSpans`: where its ink begins, its opaque run begins and ends, its ink ends.
    let spans: [Int32]

    /// The image's side in pixels; Int.max when it would not fit one (the square is then not cached).
    static func size(_ look: SquareLook) -> Int {
        let extent = look.extent
        guard extent < SceneRenderer.drawableLimit else { return Int.max }
        return Int(extent.rounded(.up)) + 2
    }

    /// Only for a look whose `size` is at most `SceneRenderer.largestSquareImage`.
    init(_ look: SquareLook) {
        self.look = look
        let size = Self.size(look)
        half = Double(size) / 2
        surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(size), Int32(size))!
        let cr = cairo_create(surface)!
        defer { cairo_destroy(cr) }
        cairo_translate(cr, half, half)
        Self.draw(cr, look)
        cairo_surface_flush(surface)
        spans = Self.spans(of: surface)
    }

    /// For each row: the first pixel with ink, the first and one past the last of its opaque run
    /// (empty when the opaque pixels are not one run), one past the last pixel with ink. A
    /// composite then copies the run and blends only the edges.
    static func spans(of surface: OpaquePointer) -> [Int32] {
        let w = Int(cairo_image_surface_get_width(surface)), h = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard let data = cairo_image_surface_get_data(surface) else { return [] }
        var spans: [Int32] = []
        spans.reserveCapacity(4 * h)
        for y in 0..<h {
            let row = UnsafeMutableRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
            var first = 0, last = w
            while first < w && row[first] == 0 { first += 1 }
            while last > first && row[last - 1] == 0 { last -= 1 }
            var o0 = first
            while o0 < last && row[o0] >> 24 != 0xff { o0 += 1 }
            var o1 = o0
            while o1 < last && row[o1] >> 24 == 0xff { o1 += 1 }
            var rest = o1
            while rest < last && row[rest] >> 24 != 0xff { rest += 1 }
            if rest < last { (o0, o1) = (first, first) }
            spans.append(contentsOf: [Int32(first), Int32(o0), Int32(o1), Int32(last)])
        }
        return spans
    }

    /// How far the shadow falls below the square: further the higher it is lifted.
    static func drop(_ look: SquareLook) -> Double { 2 + 4 * look.raised }

    /// The square with its shadow and outline, centred on the origin of `cr`.
    static func draw(_ cr: OpaquePointer, _ look: SquareLook) {
        // The shadow falls straight down whatever the square's rotation.
        drawShadow(cr, look, drop: drop(look))
        drawBody(cr, look)
    }

    /// The square's shadow, `drop` below the origin: many faint layers, each a little larger, a
    /// soft edge without a blur.
    static func drawShadow(_ cr: OpaquePointer, _ look: SquareLook, drop: Double) {
        let side = look.side
        let radius = radius(look)
        for k in 0..<shadowLayers {
            let spread = 1 + Double(k) * shadowStep(look)
            cairo_save(cr)
            cairo_translate(cr, 0, drop)
            cairo_rotate(cr, look.rotation)
            SceneRenderer.roundedRect(cr, -side / 2 - spread, -side / 2 - spread, side + 2 * spread, side + 2 * spread, radius + spread)
            cairo_set_source_rgba(cr, 0, 0, 0, shadowAlpha(look))
            cairo_fill(cr)
            cairo_restore(cr)
        }
    }

    static let shadowLayers = 10
    /// How much each shadow layer grows beyond the one before; the first grows 1 pixel.
    static func shadowStep(_ look: SquareLook) -> Double { 0.6 + 0.7 * look.raised }
    /// Each shadow layer's alpha.
    static func shadowAlpha(_ look: SquareLook) -> Double { 0.022 + 0.01 * look.raised }
    /// The corners' radius.
    static func radius(_ look: SquareLook) -> Double { min(12, look.side * 0.1) }

    /// The square's body and, when lifted, its outline, turned and centred on the origin.
    static func drawBody(_ cr: OpaquePointer, _ look: SquareLook) {
        let side = look.side, raised = look.raised
        cairo_rotate(cr, look.rotation)
        SceneRenderer.roundedRect(cr, -side / 2, -side / 2, side, side, radius(look))
        SceneRenderer.setColor(cr, look.color)
        cairo_fill_preserve(cr)
        if raised > 0 {
            cairo_set_line_width(cr, 4)
            cairo_set_source_rgba(cr, 1, 1, 1, 0.9 * raised)
            cairo_stroke(cr)
        } else {
            cairo_new_path(cr)
        }
    }
}

/// A soft shadow's ten layers as one alpha by distance from the edge
/// (`RoundedSquare.shadowProfile`), worked out again only when the square's lift changes.
final class ShadowProfile {
    let alpha = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 1024)
    /// The entries of `alpha` in use, for the lift `lift`.
    private(set) var count = 0
    private var lift = -1.0

    deinit { alpha.deallocate() }

    func update(for square: SquareLook) {
        guard lift != square.raised else { return }
        lift = square.raised
        count = RoundedSquare.shadowProfile(spreads: 1, step: SquareImage.shadowStep(square), layers: SquareImage.shadowLayers,
                                            alpha: Pixel8.alpha(SquareImage.shadowAlpha(square)), into: alpha)
    }
}
