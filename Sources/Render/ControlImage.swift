import CCairo
import KioskCore
import Scene

/// A control drawn once over the canvas's background into an opaque image of its whole-pixel
/// bounds, and copied into the frame for as long as its look, colour and the theme hold.
///
/// cairo allocates in each fill of a curved path and in showing text; a frame whose damage reaches
/// a control (a square dragged near it) then allocates. Drawn over the same background at a whole
/// pixel offset, the image has the very bytes a direct draw would leave, so a copy of it is exact;
/// it is used only where no other view's ink reaches the control's bounds.
struct ControlImage {
    let surface: OpaquePointer
    /// The image's place in the frame, in whole pixels.
    let x: Int, y: Int, width: Int, height: Int
    private(set) var look: ViewLook
    private(set) var color: Color
    private(set) var theme: Theme

    /// The whole pixels that hold `bounds`.
    static func box(_ bounds: Rect) -> (x: Int, y: Int, width: Int, height: Int) {
        let x0 = Int(bounds.minX.rounded(.down)), y0 = Int(bounds.minY.rounded(.down))
        return (x0, y0, Int(bounds.maxX.rounded(.up)) - x0, Int(bounds.maxY.rounded(.up)) - y0)
    }

    /// An image for a control whose whole-pixel box is `box`; nil when cairo cannot make one.
    init?(box: (x: Int, y: Int, width: Int, height: Int), look: ViewLook, color: Color, theme: Theme) {
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(box.width), Int32(box.height)),
              cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else { return nil }
        self.surface = surface
        (x, y, width, height) = box
        self.look = look
        self.color = color
        self.theme = theme
    }

    func shows(_ look: ViewLook, color: Color, theme: Theme) -> Bool {
        self.look == look && self.color == color && self.theme == theme
    }

    /// Draws the control again: the background, then `draw` with the frame's coordinates.
    mutating func redraw(_ look: ViewLook, color: Color, theme: Theme, font: Font, _ draw: (OpaquePointer) -> Void) {
        self.look = look
        self.color = color
        self.theme = theme
        let cr = cairo_create(surface)!
        defer { cairo_destroy(cr) }
        SceneRenderer.setColor(cr, theme.background)
        cairo_paint(cr)
        cairo_translate(cr, Double(-x), Double(-y))
        cairo_set_font_face(cr, font.face)
        draw(cr)
        cairo_surface_flush(surface)
    }

    /// Copies the image into the frame (it lies wholly on it).
    func copy(into frame: FramePixels) {
        guard let from = cairo_image_surface_get_data(surface) else { return }
        let fromStride = Int(cairo_image_surface_get_stride(surface))
        frame.begin()
        let rowBytes = 4 * width
        for row in 0..<height {
            let offset = (y + row) * frame.stride + 4 * x
            (frame.data + offset).copyMemory(from: from + row * fromStride, byteCount: rowBytes)
        }
        frame.end()
    }
}
