import CCairo
import KioskCore
import Scene

/// Draws the kiosk scene with cairo: the canvas theme, the squares in z order, the controls above them.
public final class SceneRenderer {
    public let font: Font
    /// Reused every frame, so drawing allocates nothing of its own once warmed up.
    private var squareOrder: [Int] = []
    private var looks: [ViewLook] = []
    private var pixelClip: [Rect] = []
    /// The surfaces over the last buffers drawn into (two: a test may draw into two in turn).
    private var targets: [RenderTarget] = []
    /// Each square drawn once, shadow and all, and composited at its place while its look holds:
    /// a drag repaints one image instead of eleven anti-aliased fills.
    var squareImages: [SquareImage?] = []
    /// False: a square being pinched or turned is drawn afresh every frame (the exact reference).
    let cachesTransforms: Bool
    /// This frame's pixels, written by hand (squares, controls' images) instead of through cairo,
    /// which allocates in every fill of a curved path and every composite; nil while a cairo clip
    /// is set (a clip that does not hold the views whole), when all is drawn with cairo.
    var framePixels: FramePixels?
    /// The soft shadow of a square being pinched or turned, by distance from its edge.
    let shadowProfile = ShadowProfile()

    deinit { forgetSquareImages() }

    /// Drops the squares' and controls' drawn images; the next frame draws every view afresh.
    public func forgetSquareImages() {
        for image in squareImages { if let image { cairo_surface_destroy(image.surface) } }
        squareImages.removeAll(keepingCapacity: true)
        for image in controlImages { if let image { cairo_surface_destroy(image.surface) } }
        controlImages.removeAll(keepingCapacity: true)
    }
    /// Each control drawn once per state into an opaque image of its bounds (`ControlImage`).
    private var controlImages: [ControlImage?] = []
    /// False: controls are drawn straight into every frame that reaches them (the benchmarks'
    /// like-for-like row against plain C).
    public var cachesControls = true
    private var buttonTexts: [(label: String, taps: Int, text: String)?] = []
    private var sliderTexts: [(percent: Int, text: String)?] = []

    /// With `cachesTransforms` false, a square under a pinch or rotation is rasterised afresh every
    /// frame instead of drawn from its cached shadow: slower, exact; what tests compare against.
    public init(font: Font, cachesTransforms: Bool = true) {
        self.font = font
        self.cachesTransforms = cachesTransforms
    }

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
    /// One cairo context over the buffer, made once. With damage from `DamageTracker`, every view
    /// that reaches a rectangle lies wholly inside it, so the frame is one pass without a clip:
    /// the background filled rectangle by rectangle, then each such view drawn whole, exactly as a
    /// full redraw draws it (a cairo clip would anti-alias the fills a level differently). However
    /// much of the screen the damage covers, no view is drawn twice and nothing outside a view that
    /// changed is drawn: a frame never costs more than a whole redraw. Any other clip is applied
    /// as a cairo clip.
    public func draw(scene: KioskScene, at now: Instant, into buffer: PixelBuffer, clip: [Rect]? = nil) {
        guard let target = target(for: buffer) else { return }
        ViewLook.all(scene, at: now, into: &looks)
        pixelClip.removeAll(keepingCapacity: true)
        if let clip {
            for r in clip {
                // Cut to the buffer before turning into whole pixels, so no rectangle can overflow an Int.
                func pixel(_ x: Double, _ limit: Int, _ rule: FloatingPointRoundingRule) -> Int {
                    Int(min(Double(limit), max(0, x.isNaN ? 0 : x)).rounded(rule))
                }
                let a = pixel(r.minX, buffer.width, .down), b = pixel(r.minY, buffer.height, .down)
                let c = pixel(r.maxX, buffer.width, .up), d = pixel(r.maxY, buffer.height, .up)
                guard c > a, d > b else { continue }
                pixelClip.append(Rect(x: Double(a), y: Double(b), width: Double(c - a), height: Double(d - b)))
            }
            guard !pixelClip.isEmpty else { return }
        } else {
            pixelClip.append(Rect(x: 0, y: 0, width: Double(buffer.width), height: Double(buffer.height)))
        }
        let clipped = clip != nil
        // A view that reaches a rectangle without lying inside one would be drawn past the damage.
        // (What lies off the buffer cannot be drawn past it.)
        let needsClip = clipped && looks.indices.dropFirst().contains { i in
            let b = looks[i].bounds
            guard Self.isDrawable(b), reachesClip(b) else { return false }
            let x0 = max(0, b.minX), y0 = max(0, b.minY)
            let on = Rect(x: x0, y: y0, width: min(Double(buffer.width), b.maxX) - x0, height: min(Double(buffer.height), b.maxY) - y0)
            return !pixelClip.contains { $0.union(on) == $0 }
        }
        let cr = target.cr
        target.begin()
        cairo_save(cr)
        if needsClip {
            for r in pixelClip { cairo_rectangle(cr, r.minX, r.minY, r.width, r.height) }
            cairo_clip(cr)
        }
        framePixels = needsClip ? nil : FramePixels(target.surface)
        paint(cr, scene, at: now, clipped: clipped)
        // Its pointer is into this frame's surface only.
        framePixels = nil
        cairo_restore(cr)
        for r in pixelClip { target.finish(x0: Int(r.minX), y0: Int(r.minY), x1: Int(r.maxX), y1: Int(r.maxY)) }
    }

    private func reachesClip(_ bounds: Rect) -> Bool { pixelClip.contains { bounds.intersects($0) } }

    /// The reused surface over `buffer`; nil when cairo cannot make one (a buffer it refuses).
    private func target(for buffer: PixelBuffer) -> RenderTarget? {
        if let i = targets.firstIndex(where: { $0.draws(into: buffer) }) {
            if i != 0 { targets.swapAt(0, i) }
            return targets[0]
        }
        guard let made = try? RenderTarget(buffer) else { return nil }
        if targets.count >= 2 { targets.removeLast() }
        targets.insert(made, at: 0)
        return made
    }

    /// Paints the scene; when `clipped`, views whose ink cannot reach the clip are left out (the same pixels, less work).
    private func paint(_ cr: OpaquePointer, _ scene: KioskScene, at now: Instant, clipped: Bool) {
        let theme = SceneRenderer.theme(of: scene)
        Self.setColor(cr, theme.background)
        if clipped {
            for r in pixelClip { cairo_rectangle(cr, r.minX, r.minY, r.width, r.height) }
            cairo_fill(cr)
        } else {
            cairo_paint(cr)
        }

        func reaches(_ i: Int) -> Bool {
            let bounds = looks[i].bounds
            guard Self.isDrawable(bounds) else { return false }
            return !clipped || reachesClip(bounds)
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
        for i in squareOrder { drawSquare(cr, looks[i], index: i) }

        cairo_set_font_face(cr, font.face)
        for (i, v) in scene.views.enumerated() where v.kind != .canvas && v.kind != .square && reaches(i) {
            if cachesControls, let pixels = framePixels, copyControl(v, index: i, theme: theme, into: pixels) { continue }
            drawControl(cr, v, index: i, theme: theme)
        }
    }

    private func drawControl(_ cr: OpaquePointer, _ v: ViewState, index i: Int, theme: Theme) {
        switch v.kind {
        case .button: drawButton(cr, v, index: i)
        case .slider: drawSlider(cr, v, index: i, theme: theme)
        case .toggle: drawSwitch(cr, v, knob: looks[i].knob)
        case .canvas, .square: break
        }
    }

    /// Copies control `i` from its image, drawn again first if its look changed; false (nothing
    /// drawn) where the image would not be exact: the control is not wholly on the frame, or
    /// another view's ink reaches its bounds.
    /// How many times a control was copied from its image, not drawn (for the tests).
    private(set) var controlsCopied = 0

    private func copyControl(_ v: ViewState, index i: Int, theme: Theme, into pixels: FramePixels) -> Bool {
        let look = looks[i]
        let box = ControlImage.box(look.bounds)
        guard box.x >= 0, box.y >= 0, box.width > 0, box.height > 0,
              box.x + box.width <= pixels.width, box.y + box.height <= pixels.height else { return false }
        let whole = Rect(x: Double(box.x), y: Double(box.y), width: Double(box.width), height: Double(box.height))
        for j in looks.indices.dropFirst() where j != i && Self.isDrawable(looks[j].bounds) && looks[j].bounds.intersects(whole) {
            return false
        }
        if controlImages.count <= i { controlImages.append(contentsOf: repeatElement(nil, count: i + 1 - controlImages.count)) }
        if let image = controlImages[i], image.x != box.x || image.y != box.y || image.width != box.width || image.height != box.height {
            cairo_surface_destroy(image.surface)
            controlImages[i] = nil
        }
        if controlImages[i] == nil {
            guard let made = ControlImage(box: box, look: look, color: v.color, theme: theme) else { return false }
            controlImages[i] = made
            controlImages[i]!.redraw(look, color: v.color, theme: theme, font: font) { drawControl($0, v, index: i, theme: theme) }
        } else if !controlImages[i]!.shows(look, color: v.color, theme: theme) {
            controlImages[i]!.redraw(look, color: v.color, theme: theme, font: font) { drawControl($0, v, index: i, theme: theme) }
        }
        controlImages[i]!.copy(into: pixels)
        controlsCopied &+= 1
        return true
    }

    /// The canvas's current theme; a neutral one when the config declares none.
    static func theme(of scene: KioskScene) -> Theme {
        let themes = scene.definition.views[0].themes
        guard !themes.isEmpty else {
            return Theme(name: "plain", background: Color(red: 238, green: 240, blue: 243), foreground: Color(red: 29, green: 39, blue: 51))
        }
        return themes[min(max(0, scene.views[0].themeIndex), themes.count - 1)]
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
