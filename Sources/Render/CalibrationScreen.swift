import CCairo
import KioskCore

/// What `kiosk calibrate` shows: one target at a time, then the check screen with a crosshair
/// and the Save and Retry buttons. Drawn with cairo into a shadow buffer, as the scene is.
public enum CalibrationScreen {
    /// A target: rings and a cross, large enough to hit with a finger, and the instruction in words.
    public static func drawTarget(_ buffer: PixelBuffer, font: Font, at p: Point, number: Int, of count: Int, name: String) {
        draw(buffer, font: font) { cr in
            let lines = ["Touch the centre of the target \(number) of \(count) (\(name)), then lift.",
                         "One finger or a stylus; nothing else on the glass."]
            text(cr, lines, y: Double(buffer.height) * (p.y < Double(buffer.height) / 2 ? 0.62 : 0.3), width: Double(buffer.width))
            cairo_set_source_rgb(cr, 1, 0.85, 0)
            cairo_set_line_width(cr, 3)
            for r in [28.0, 14.0] {
                cairo_new_sub_path(cr)
                cairo_arc(cr, p.x, p.y, r, 0, 2 * Double.pi)
            }
            cairo_move_to(cr, p.x - 40, p.y)
            cairo_line_to(cr, p.x + 40, p.y)
            cairo_move_to(cr, p.x, p.y - 40)
            cairo_line_to(cr, p.x, p.y + 40)
            cairo_stroke(cr)
        }
    }

    /// The check screen: where the new matrix puts the finger, and the two buttons.
    public static func drawCheck(_ buffer: PixelBuffer, font: Font, crosshair: Point?, save: Rect, retry: Rect, lines: [String]) {
        draw(buffer, font: font) { cr in
            text(cr, lines, y: Double(buffer.height) * 0.15, width: Double(buffer.width))
            for (rect, label, green) in [(save, "Save", true), (retry, "Retry", false)] {
                cairo_set_source_rgb(cr, green ? 0.1 : 0.35, green ? 0.55 : 0.35, green ? 0.2 : 0.4)
                cairo_rectangle(cr, rect.origin.x, rect.origin.y, rect.size.width, rect.size.height)
                cairo_fill(cr)
                cairo_set_source_rgb(cr, 1, 1, 1)
                centred(cr, label, x: rect.origin.x + rect.size.width / 2, y: rect.origin.y + rect.size.height / 2 + 8)
            }
            if let c = crosshair {
                cairo_set_source_rgb(cr, 1, 0.2, 0.2)
                cairo_set_line_width(cr, 2)
                cairo_move_to(cr, 0, c.y)
                cairo_line_to(cr, Double(buffer.width), c.y)
                cairo_move_to(cr, c.x, 0)
                cairo_line_to(cr, c.x, Double(buffer.height))
                cairo_stroke(cr)
            }
        }
    }

    private static func draw(_ buffer: PixelBuffer, font: Font, _ body: (OpaquePointer) -> Void) {
        buffer.withSurface { surface in
            let cr = cairo_create(surface)!
            defer { cairo_destroy(cr) }
            cairo_set_source_rgb(cr, 0.08, 0.08, 0.1)
            cairo_paint(cr)
            cairo_set_font_face(cr, font.face)
            cairo_set_font_size(cr, 20)
            body(cr)
        }
    }

    private static func text(_ cr: OpaquePointer, _ lines: [String], y: Double, width: Double) {
        cairo_set_source_rgb(cr, 0.9, 0.9, 0.9)
        for (n, line) in lines.enumerated() { centred(cr, line, x: width / 2, y: y + Double(n) * 28) }
    }

    private static func centred(_ cr: OpaquePointer, _ line: String, x: Double, y: Double) {
        var extents = cairo_text_extents_t()
        cairo_text_extents(cr, line, &extents)
        cairo_move_to(cr, x - extents.width / 2 - extents.x_bearing, y)
        cairo_show_text(cr, line)
    }
}
