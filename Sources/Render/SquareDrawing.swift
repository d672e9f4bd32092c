import CCairo
import KioskCore

extension SceneRenderer {
    /// How far a square's side may drift from the side its cached shadow was drawn at before the
    /// shadow is drawn again: scaling the image scales the shadow's spread too, off by this share.
    static let shadowRescale = 0.04

    /// A settled square from its cached image at whole pixels; one under a pinch or rotation from
    /// its cached shadow, turned and scaled, with its body filled exactly on top.
    func drawSquare(_ cr: OpaquePointer, _ look: ViewLook, index: Int) {
        let square = look.square
        guard SquareImage.size(square) <= Self.largestSquareImage else {
            cairo_save(cr)
            cairo_translate(cr, look.center.x, look.center.y)
            SquareImage.draw(cr, square)
            cairo_restore(cr)
            return
        }
        if square.transforming && cachesTransforms {
            drawTransforming(cr, look, index: index)
            return
        }
        if squareImages.count <= index { squareImages.append(contentsOf: repeatElement(nil, count: index + 1 - squareImages.count)) }
        if squareImages[index]?.look != square.settled {
            if let old = squareImages[index] { cairo_surface_destroy(old.surface) }
            squareImages[index] = SquareImage(square.settled)
        }
        let image = squareImages[index]!
        // At whole pixels, so the image is copied, not resampled.
        cairo_set_source_surface(cr, image.surface, (look.center.x - image.half).rounded(), (look.center.y - image.half).rounded())
        cairo_paint(cr)
    }

    /// `look` with its side moved on by nearly `shadowRescale`, the way it moved from `side`.
    private func ahead(_ look: SquareLook, from side: Double) -> SquareLook {
        var next = look
        next.side *= look.side > side ? 1 + 0.9 * Self.shadowRescale : 1 - 0.9 * Self.shadowRescale
        return next
    }

    /// The shadow is the costly part (ten translucent anti-aliased fills, three times dearer
    /// turned than upright): drawn once upright, it is composited under the square's rotation and
    /// scale with nearest sampling, which a soft shadow does not show; the opaque body over it is
    /// one exact fill. Drawn again when the side drifts past `shadowRescale` or the lift changes.
    private func drawTransforming(_ cr: OpaquePointer, _ look: ViewLook, index: Int) {
        let square = look.square
        if shadowImages.count <= index { shadowImages.append(contentsOf: repeatElement(nil, count: index + 1 - shadowImages.count)) }
        if shadowImages[index].map({ !$0.serves(square) }) ?? true {
            if let old = shadowImages[index], old.raised == square.raised, old.fits(ahead(square, from: old.side)) {
                // A pinch goes on the way it went: drawn a little ahead of the side, the shadow
                // serves nearly twice the change before it is drawn again.
                shadowImages[index]!.redraw(ahead(square, from: old.side), profile: shadowProfile)
            } else if let old = shadowImages[index], old.fits(square) {
                shadowImages[index]!.redraw(square, profile: shadowProfile)
            } else {
                if let old = shadowImages[index] { cairo_surface_destroy(old.surface) }
                shadowImages[index] = ShadowImage(square, profile: shadowProfile)
            }
        }
        let shadow = shadowImages[index]!
        let k = square.side / shadow.side
        // Where a settled square's image would put its center (at whole pixels), so the end of
        // the gesture does not shift the square by a fraction of a pixel.
        let half = Double(SquareImage.size(square)) / 2
        let x = (look.center.x - half).rounded() + half, y = (look.center.y - half).rounded() + half + SquareImage.drop(square)
        // Only the box the turned shadow covers is composited, not the image's spare room: a
        // clip to whole pixels costs nothing, and the resampling is the frame's main cost.
        let reach = (shadow.reach * k * (abs(_cos(square.rotation)) + abs(_sin(square.rotation)))).rounded(.up) + 1
        cairo_save(cr)
        cairo_rectangle(cr, (x - reach).rounded(.down), (y - reach).rounded(.down), 2 * reach + 1, 2 * reach + 1)
        cairo_clip(cr)
        cairo_translate(cr, x, y)
        cairo_rotate(cr, square.rotation)
        cairo_scale(cr, k, k)
        cairo_set_source_surface(cr, shadow.surface, -shadow.half, -shadow.half)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST)
        cairo_paint(cr)
        cairo_restore(cr)
        if drawsBodiesByHand, let frame = cairo_get_target(cr), let data = cairo_image_surface_get_data(frame),
           cairo_image_surface_get_format(frame) == CAIRO_FORMAT_RGB24 || cairo_image_surface_get_format(frame) == CAIRO_FORMAT_ARGB32 {
            // Written straight into the frame's pixels: no cairo fill, nothing allocated.
            cairo_surface_flush(frame)
            let c = square.color
            let body = RoundedSquare(cx: x, cy: y - SquareImage.drop(square), side: square.side,
                                     radius: SquareImage.radius(square), rotation: square.rotation)
            body.drawBody(rgb: UInt32(c.red) << 16 | UInt32(c.green) << 8 | UInt32(c.blue),
                          outline: square.raised > 0 ? Pixel8.alpha(0.9 * square.raised) : 0,
                          into: data, stride: Int(cairo_image_surface_get_stride(frame)),
                          width: Int(cairo_image_surface_get_width(frame)), height: Int(cairo_image_surface_get_height(frame)))
            cairo_surface_mark_dirty(frame)
        } else {
            cairo_save(cr)
            cairo_translate(cr, x, y - SquareImage.drop(square))
            SquareImage.drawBody(cr, square)
            cairo_restore(cr)
        }
    }
}

/// A square with its shadow and outline, drawn once into an image with room for the shadow.
struct SquareImage {
    let look: SquareLook
    let surface: OpaquePointer
    /// From the image's corner to the square's center.
    let half: Double

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

/// A square's shadow drawn upright once, for the frames of a pinch or rotation; its surface has
/// room to spare, so drawing it again at a nearby side reuses the memory.
struct ShadowImage {
    let surface: OpaquePointer
    /// The surface's side in pixels.
    let size: Int
    /// The square's side and lift it was drawn for.
    private(set) var side: Double
    private(set) var raised: Double
    /// From the image's corner to the shadow's center.
    let half: Double

    /// The side of image a shadow of `look` needs: upright, its side and the widest layer's spread
    /// each side, with a pixel of anti-aliasing and one to spare.
    static func needed(_ look: SquareLook) -> Int { Int((look.side + 2 * spread(look) + 4).rounded(.up)) }

    /// How far the widest shadow layer reaches beyond the square's side.
    static func spread(_ look: SquareLook) -> Double { 1 + 9 * (0.6 + 0.7 * look.raised) }

    /// From the shadow's center to the edge of its ink, upright, at the side it was drawn for.
    var reach: Double { side / 2 + Self.spread(SquareLook(side: side, rotation: 0, raised: raised, color: .init(red: 0, green: 0, blue: 0), transforming: true)) + 1 }

    init(_ look: SquareLook, profile: UnsafeMutableBufferPointer<UInt8>) {
        // A quarter larger than needed: a pinch that grows the square keeps the same memory.
        size = Self.needed(look) + Self.needed(look) / 4
        half = Double(size) / 2
        surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(size), Int32(size))!
        side = look.side
        raised = look.raised
        draw(profile: profile)
    }

    /// Whether this image shows `look`'s shadow closely enough: the same lift, a side within `shadowRescale`.
    func serves(_ look: SquareLook) -> Bool {
        raised == look.raised && look.side > 0 && abs(look.side / side - 1) <= SceneRenderer.shadowRescale
    }

    func fits(_ look: SquareLook) -> Bool { Self.needed(look) <= size }

    mutating func redraw(_ look: SquareLook, profile: UnsafeMutableBufferPointer<UInt8>) {
        side = look.side
        raised = look.raised
        draw(profile: profile)
    }

    /// Rasterised by hand (`RoundedSquare.drawShadow`) into the surface's own memory: ten cairo
    /// fills would allocate some fifty times and cost several times more.
    private func draw(profile: UnsafeMutableBufferPointer<UInt8>) {
        let look = SquareLook(side: side, rotation: 0, raised: raised, color: Color(red: 0, green: 0, blue: 0), transforming: true)
        let count = RoundedSquare.shadowProfile(spreads: 1, step: SquareImage.shadowStep(look), layers: SquareImage.shadowLayers,
                                                alpha: Pixel8.alpha(SquareImage.shadowAlpha(look)), into: profile)
        guard let data = cairo_image_surface_get_data(surface) else { return }
        cairo_surface_flush(surface)
        RoundedSquare(cx: half, cy: half, side: side, radius: SquareImage.radius(look), rotation: 0)
            .drawShadow(profile: profile, count: count, into: data, stride: Int(cairo_image_surface_get_stride(surface)), size: size)
        cairo_surface_mark_dirty(surface)
    }
}
