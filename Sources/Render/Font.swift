import CCairo
import KioskCore
import Scene

/// A typeface loaded with FreeType from a file, for cairo to draw text with.
public final class Font {
    /// DejaVu Sans, from Debian's fonts-dejavu-core.
    public static let defaultPath = DefaultFont.path

    public let path: String
    let face: OpaquePointer

    public init(path: String = Font.defaultPath) throws(DrawingResourceError) {
        self.path = path
        var library: FT_Library?
        var error = FT_Init_FreeType(&library)
        guard error == 0, let library else { throw DrawingResourceError("FT_Init_FreeType failed (error \(error)) loading font \(path)") }
        var ftFace: FT_Face?
        error = FT_New_Face(library, path, 0, &ftFace)
        guard error == 0, let ftFace else {
            FT_Done_FreeType(library)
            throw DrawingResourceError("cannot load font \(path): FT_New_Face error \(error) (install fonts-dejavu-core or pass another font)")
        }
        guard let cairoFace = kiosk_ft_font_face_create(ftFace) else {
            throw DrawingResourceError("cairo_font_face_set_user_data failed for font \(path)")
        }
        face = cairoFace
    }

    deinit { cairo_font_face_destroy(face) }
}
