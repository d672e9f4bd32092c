/// How a pixel is laid out in memory, as the display's dumb buffers take it.
public enum PixelFormat: Sendable, CaseIterable, CustomStringConvertible {
    /// 32 bits, the top 8 unused: `CAIRO_FORMAT_RGB24`, DRM's XRGB8888.
    case xrgb8888
    /// 16 bits, 5-6-5: `CAIRO_FORMAT_RGB16_565`, DRM's RGB565.
    case rgb565

    public var bytesPerPixel: Int {
        switch self {
        case .xrgb8888: 4
        case .rgb565: 2
        }
    }

    public var description: String {
        switch self {
        case .xrgb8888: "XRGB8888"
        case .rgb565: "RGB565"
        }
    }
}
