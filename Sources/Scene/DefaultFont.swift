/// The font the scene's text is drawn with unless the config names another: DejaVu Sans, from
/// Debian's fonts-dejavu-core. Kept here, below both the config and the renderer, so that reading
/// a config does not need the drawing libraries.
public enum DefaultFont {
    public static let path = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
}
