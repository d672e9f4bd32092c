import CCairo
import Gestures
import KioskCore
import Scene

/// Draws the kiosk scene with cairo: the canvas theme, the squares in z order, the controls above them.
public final class SceneRenderer {
    public let font: Font
    /// Reused every frame, so drawing allocates nothing of its own once warmed up.
    private var squareOrder: [Int] = []
    /// Each square drawn once, shadow and all, and composited at its place while its look holds:
    /// a drag repaints one image instead of eleven anti-aliased fills.
    private var squareImages: [SquareImage?] = []

    deinit { forgetSquareImages() }

    /// Drops the squares' drawn images; the next frame draws every square afresh.
    public func forgetSquareImages() {
        for image in squareImages { if let image { cairo_surface_destroy(image.surface) } }
        squareImages.removeAll(keepingCapacity: true)
    }
    private var buttonTexts: [(label: String, taps: Int, text: String)?] = []
    private var sliderTexts: [(percent: Int, text: String)?] = []

    public init(font: Font) { self.font = font }

    /// Loads the default font; the error names the font file when it is missing.
    public convenience init() throws(DrawingResourceError) { self.init(font: try Font()) }

    /// How far a square's shadow and outline can reach beyond its bounding box, in pixels: the
    /// widest shadow layer (13 px, turned with the square: up to 13 * sqrt 2) and its 6 px drop.
    static let squareHalo = 26.0
    /// How far a control's shadow reaches beyond its frame.
    static let controlHalo = 4.0
    /// The band above a slider where its value is written.
    static let sliderLabelHeight = 30.0
    /// How far from the origin a view may reach and still be drawn, in pixels (2^22). cairo keeps
    /// path coordinates in 24.8 fixed point (up to about 8.4 million) and splits an arc into
    /// segments by its radius (a knob 1e16 px tall takes minutes, one of 2^22 some 15000 segments).
    /// A config keeps frames within +-65536 (`KioskConfig`), so even its largest square, pinched up
    /// 3 times, lifted 4 and turned 45 degrees, reaches 1.2 million; whatever reaches further, or is
    /// not a number, is left out, not drawn wrong.
    public static let drawableLimit = 4_194_304.0
    /// The largest square drawn once into an image and reused; a larger one (a pinched-up square
    /// many panels wide) is drawn straight into the frame, as an image of it would be gigabytes.
    static let largestSquareImage = 2048

    /// Whether `r` lies within `drawableLimit` of the origin (false for NaN).
    public static func isDrawable(_ r: Rect) -> Bool {
        r.minX >= -drawableLimit && r.maxX <= drawableLimit && r.minY >= -drawableLimit && r.maxY <= drawableLimit
    }

    /// Where a slider whose frame is `frame` writes its value: the band above it; its text never leaves it.
    public static func sliderLabelBox(_ frame: Rect) -> Rect {
        Rect(x: frame.minX, y: frame.minY - sliderLabelHeight, width: frame.width, height: sliderLabelHeight)
    }

    /// The slider's value as it reads on screen: its 0...1 range as a whole percentage.
    public static func sliderValueText(_ value: Double) -> String { "\(sliderPercent(value))%" }

    static func sliderPercent(_ value: Double) -> Int { Int((min(1, max(0, value)) * 100).rounded()) }

    /// Draws the scene as it is at `now`; with `clip`, only those rectangles are touched.
    ///
    /// Each clip rectangle is drawn on its own surface over the buffer's memory rather than through
    /// a cairo clip: cairo anti-aliases a clipped fill through another path, a level off here and
    /// there, and the damaged part of a frame must match a full redraw pixel for pixel.
    public func draw(scene: KioskScene, at now: Instant, into buffer: PixelBuffer, clip: [Rect]? = nil) {
        guard let clip else {
            buffer.withSurface { surface in
                let cr = cairo_create(surface)!
                paint(cr, scene, at: now, region: nil)
                cairo_destroy(cr)
            }
            return
        }
        // pixman wants each row to start on 4 bytes: an RGB565 rectangle starts on an even pixel.
        let step = 4 / buffer.format.bytesPerPixel
        for r in clip {
            // Cut to the buffer before turning into whole pixels, so no rectangle can overflow an Int.
            func pixel(_ x: Double, _ limit: Int, _ rule: FloatingPointRoundingRule) -> Int {
                Int(min(Double(limit), max(0, x.isNaN ? 0 : x)).rounded(rule))
            }
            let x0 = pixel(r.minX, buffer.width, .down) / step * step, y0 = pixel(r.minY, buffer.height, .down)
            let x1 = pixel(r.maxX, buffer.width, .up), y1 = pixel(r.maxY, buffer.height, .up)
            guard x1 > x0, y1 > y0 else { continue }
            let data = (buffer.bytes + y0 * buffer.stride + x0 * buffer.format.bytesPerPixel).assumingMemoryBound(to: UInt8.self)
            let part = cairo_image_surface_create_for_data(data, buffer.format.cairoFormat, Int32(x1 - x0), Int32(y1 - y0), Int32(buffer.stride))!
            let cr = cairo_create(part)!
            cairo_translate(cr, Double(-x0), Double(-y0))
            paint(cr, scene, at: now, region: Rect(x: Double(x0), y: Double(y0), width: Double(x1 - x0), height: Double(y1 - y0)))
            cairo_destroy(cr)
            cairo_surface_flush(part)
            cairo_surface_destroy(part)
        }
    }

    /// Paints the scene; with `region`, views whose ink cannot reach it are left out (the same pixels, less work).
    private func paint(_ cr: OpaquePointer, _ scene: KioskScene, at now: Instant, region: Rect?) {
        let theme = SceneRenderer.theme(of: scene)
        Self.setColor(cr, theme.background)
        cairo_paint(cr)

        func reaches(_ i: Int) -> Bool {
            let bounds = ViewLook(scene, ViewID(i), at: now).bounds
            guard Self.isDrawable(bounds) else { return false }
            guard let region else { return true }
            return bounds.intersects(region)
        }
        // Squares back to front: an insertion sort by z in reused storage.
        squareOrder.removeAll(keepingCapacity: true)
        for i in scene.views.indices where scene.views[i].kind == .square && reaches(i) {
            var j = squareOrder.count
            squareOrder.append(i)
            while j > 0, scene.views[squareOrder[j - 1]].z > scene.views[i].z {
                squareOrder[j] = squareOrder[j - 1]
                j -= 1
            }
            squareOrder[j] = i
        }
        for i in squareOrder { drawSquare(cr, scene, ViewID(i), at: now, theme: theme) }

        cairo_set_font_face(cr, font.face)
        for (i, v) in scene.views.enumerated() where v.kind != .canvas && v.kind != .square && reaches(i) {
            switch v.kind {
            case .button: drawButton(cr, v, index: i)
            case .slider: drawSlider(cr, v, index: i, theme: theme)
            case .toggle: drawSwitch(cr, v, knob: scene.knobCenter(of: ViewID(i), at: now))
            case .canvas, .square: break
            }
        }
    }

    /// The canvas's current theme; a neutral one when the config declares none.
    static func theme(of scene: KioskScene) -> Theme {
        let themes = scene.definition.views[0].themes
        guard !themes.isEmpty else {
            return Theme(name: "plain", background: Color(red: 238, green: 240, blue: 243), foreground: Color(red: 29, green: 39, blue: 51))
        }
        return themes[min(max(0, scene.views[0].themeIndex), themes.count - 1)]
    }

    // MARK: Squares

    private func drawSquare(_ cr: OpaquePointer, _ scene: KioskScene, _ id: ViewID, at now: Instant, theme: Theme) {
        let v = scene.views[id.rawValue]
        let lift = scene.liftFactor(of: id, at: now)
        let side = v.side * v.scale * lift
        // 0 at rest, 1 fully lifted: the shadow grows and the outline fades in with the lift.
        let raised = scene.definition.liftScale > 1 ? min(1, max(0, (lift - 1) / (scene.definition.liftScale - 1))) : (v.lifted ? 1 : 0)
        let look = SquareLook(side: side, rotation: v.rotation, raised: raised, color: v.color)
        guard SquareImage.size(look) <= Self.largestSquareImage else {
            cairo_save(cr)
            cairo_translate(cr, v.center.x, v.center.y)
            SquareImage.draw(cr, look)
            cairo_restore(cr)
            return
        }
        if squareImages.count <= id.rawValue { squareImages.append(contentsOf: repeatElement(nil, count: id.rawValue + 1 - squareImages.count)) }
        if squareImages[id.rawValue]?.look != look {
            if let old = squareImages[id.rawValue] { cairo_surface_destroy(old.surface) }
            squareImages[id.rawValue] = SquareImage(look)
        }
        let image = squareImages[id.rawValue]!
        // At whole pixels, so the image is copied, not resampled.
        cairo_set_source_surface(cr, image.surface, (v.center.x - image.half).rounded(), (v.center.y - image.half).rounded())
        cairo_paint(cr)
    }

    // MARK: Controls

    /// The button's label with its tap count, made again only when the count changes.
    private func buttonText(_ v: ViewState, index: Int) -> String {
        if buttonTexts.count <= index { buttonTexts.append(contentsOf: repeatElement(nil, count: index + 1 - buttonTexts.count)) }
        if let t = buttonTexts[index], t.taps == v.taps, t.label == v.label { return t.text }
        let text = "\(v.label) · \(v.taps)"
        buttonTexts[index] = (v.label, v.taps, text)
        return text
    }

    private func drawButton(_ cr: OpaquePointer, _ v: ViewState, index: Int) {
        let f = v.baseFrame
        Self.roundedRect(cr, f.minX, f.minY + 2, f.width, f.height, 12)
        cairo_set_source_rgba(cr, 0, 0, 0, v.isHighlighted ? 0.06 : 0.14)
        cairo_fill(cr)
        Self.roundedRect(cr, f.minX, f.minY, f.width, f.height, 12)
        Self.setColor(cr, v.color, times: v.isHighlighted ? 0.72 : 1)
        cairo_fill(cr)
        cairo_set_font_size(cr, 22)
        let text = buttonText(v, index: index)
        var extents = cairo_text_extents_t()
        cairo_text_extents(cr, text, &extents)
        var font = cairo_font_extents_t()
        cairo_font_extents(cr, &font)
        let x = f.center.x - (extents.x_bearing + extents.width / 2)
        let y = f.center.y + (font.ascent - font.descent) / 2
        cairo_move_to(cr, x.rounded(), y.rounded())
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_show_text(cr, text)
        cairo_new_path(cr)
    }

    /// The slider's value text, made again only when the percentage changes.
    private func sliderText(_ v: ViewState, index: Int) -> String {
        if sliderTexts.count <= index { sliderTexts.append(contentsOf: repeatElement(nil, count: index + 1 - sliderTexts.count)) }
        let percent = Self.sliderPercent(v.value)
        if let t = sliderTexts[index], t.percent == percent { return t.text }
        let text = Self.sliderValueText(v.value)
        sliderTexts[index] = (percent, text)
        return text
    }

    private func drawSlider(_ cr: OpaquePointer, _ v: ViewState, index: Int, theme: Theme) {
        drawSliderValue(cr, v, index: index, theme: theme)
        let f = v.baseFrame
        let knob = v.knobCenter()
        let track = 8.0
        let x0 = f.minX + v.knobRadius, x1 = f.maxX - v.knobRadius
        Self.roundedRect(cr, x0 - track / 2, f.center.y - track / 2, x1 - x0 + track, track, track / 2)
        Self.setColor(cr, theme.foreground, alpha: 0.22)
        cairo_fill(cr)
        Self.roundedRect(cr, x0 - track / 2, f.center.y - track / 2, knob.x - x0 + track, track, track / 2)
        Self.setColor(cr, v.color)
        cairo_fill(cr)
        drawKnob(cr, at: knob, radius: v.knobRadius * 0.55)
    }

    /// The value, centred over the track near its top, cut to its band so the damage that holds the band holds it all.
    private func drawSliderValue(_ cr: OpaquePointer, _ v: ViewState, index: Int, theme: Theme) {
        let box = Self.sliderLabelBox(v.baseFrame)
        let text = sliderText(v, index: index)
        cairo_save(cr)
        cairo_rectangle(cr, box.minX, box.minY, box.width, box.height)
        cairo_clip(cr)
        cairo_set_font_size(cr, 22)
        var extents = cairo_text_extents_t()
        cairo_text_extents(cr, text, &extents)
        var font = cairo_font_extents_t()
        cairo_font_extents(cr, &font)
        let x = box.center.x - (extents.x_bearing + extents.width / 2)
        let y = box.maxY - 2 - font.descent
        cairo_move_to(cr, x.rounded(), y.rounded())
        Self.setColor(cr, theme.foreground, alpha: 0.85)
        cairo_show_text(cr, text)
        cairo_new_path(cr)
        cairo_restore(cr)
    }

    private func drawSwitch(_ cr: OpaquePointer, _ v: ViewState, knob: Point) {
        let f = v.baseFrame
        let r = f.height / 2
        Self.roundedRect(cr, f.minX, f.minY, f.width, f.height, r)
        if v.isOn {
            Self.setColor(cr, v.color)
        } else {
            cairo_set_source_rgb(cr, 0.62, 0.64, 0.67)
        }
        cairo_fill(cr)
        drawKnob(cr, at: knob, radius: r - 4)
    }

    private func drawKnob(_ cr: OpaquePointer, at c: Point, radius: Double) {
        cairo_arc(cr, c.x, c.y + 1.5, radius + 1, 0, 2 * Double.pi)
        cairo_set_source_rgba(cr, 0, 0, 0, 0.18)
        cairo_fill(cr)
        cairo_arc(cr, c.x, c.y, radius, 0, 2 * Double.pi)
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_fill(cr)
    }

    // MARK: Paths and colours

    static func roundedRect(_ cr: OpaquePointer, _ x: Double, _ y: Double, _ w: Double, _ h: Double, _ r: Double) {
        let r = max(0, min(r, w / 2, h / 2))
        let quarter = Double.pi / 2
        cairo_new_sub_path(cr)
        cairo_arc(cr, x + w - r, y + r, r, -quarter, 0)
        cairo_arc(cr, x + w - r, y + h - r, r, 0, quarter)
        cairo_arc(cr, x + r, y + h - r, r, quarter, 2 * quarter)
        cairo_arc(cr, x + r, y + r, r, 2 * quarter, 3 * quarter)
        cairo_close_path(cr)
    }

    static func setColor(_ cr: OpaquePointer, _ c: Color, times k: Double = 1, alpha: Double = 1) {
        cairo_set_source_rgba(cr, Double(c.red) / 255 * k, Double(c.green) / 255 * k, Double(c.blue) / 255 * k, alpha)
    }
}

/// What decides how a square looks, apart from where it is.
struct SquareLook: Equatable {
    var side: Double
    var rotation: Double
    var raised: Double
    var color: Color
}

/// A square with its shadow and outline, drawn once into an image with room for the shadow.
struct SquareImage {
    let look: SquareLook
    let surface: OpaquePointer
    /// From the image's corner to the square's center.
    let half: Double

    /// The image's side in pixels; Int.max when it would not fit one (the square is then not cached).
    static func size(_ look: SquareLook) -> Int {
        let extent = look.side * (abs(_cos(look.rotation)) + abs(_sin(look.rotation))) + 2 * SceneRenderer.squareHalo
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

    /// The square with its shadow and outline, centred on the origin of `cr`.
    static func draw(_ cr: OpaquePointer, _ look: SquareLook) {
        let side = look.side, raised = look.raised
        let radius = min(12, side * 0.1)
        // The shadow falls straight down whatever the square's rotation.
        // Many faint layers, each a little larger: a soft edge without a blur.
        for k in 0..<10 {
            let spread = 1 + Double(k) * (0.6 + 0.7 * raised)
            cairo_save(cr)
            cairo_translate(cr, 0, 2 + 4 * raised)
            cairo_rotate(cr, look.rotation)
            SceneRenderer.roundedRect(cr, -side / 2 - spread, -side / 2 - spread, side + 2 * spread, side + 2 * spread, radius + spread)
            cairo_set_source_rgba(cr, 0, 0, 0, 0.022 + 0.01 * raised)
            cairo_fill(cr)
            cairo_restore(cr)
        }
        cairo_rotate(cr, look.rotation)
        SceneRenderer.roundedRect(cr, -side / 2, -side / 2, side, side, radius)
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
