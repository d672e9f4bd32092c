import CCairo
import KioskCore

extension PixelFormat {
    /// The cairo format with this layout.
    var cairoFormat: cairo_format_t {
        switch self {
        case .xrgb8888: CAIRO_FORMAT_RGB24
        case .rgb565: CAIRO_FORMAT_RGB16_565
        }
    }
}

extension PixelBuffer {
    /// Runs `body` with a cairo image surface over the buffer's memory, flushed and destroyed after.
    /// The surface lives only for the call, so nothing cairo caches can go stale when Display or a
    /// test writes the memory directly.
    func withSurface<T, E: Error>(_ body: (OpaquePointer) throws(E) -> T) throws(E) -> T {
        let surface = cairo_image_surface_create_for_data(
            bytes.assumingMemoryBound(to: UInt8.self), format.cairoFormat, Int32(width), Int32(height), Int32(stride))!
        defer {
            cairo_surface_flush(surface)
            cairo_surface_destroy(surface)
        }
        return try body(surface)
    }

    /// Reads a PNG into a new XRGB8888 buffer (alpha, if any, over black).
    public convenience init(contentsOfPNG path: String) throws(DrawingResourceError) {
        let png = cairo_image_surface_create_from_png(path)!
        defer { cairo_surface_destroy(png) }
        try self.init(decoded: png, call: "cairo_image_surface_create_from_png: \(path)")
    }

    /// A new XRGB8888 buffer of `png`'s size with `png` painted in (alpha over black); `call`
    /// names what read it when cairo could not.
    convenience init(decoded png: OpaquePointer, call: String) throws(DrawingResourceError) {
        let status = cairo_surface_status(png)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw DrawingResourceError("\(call): \(String(cString: cairo_status_to_string(status)))")
        }
        try self.init(width: Int(cairo_image_surface_get_width(png)), height: Int(cairo_image_surface_get_height(png)))
        withSurface { surface in
            let cr = cairo_create(surface)!
            cairo_set_source_surface(cr, png, 0, 0)
            cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
            cairo_paint(cr)
            cairo_destroy(cr)
        }
    }

    /// Writes the buffer as a PNG with `cairo_surface_write_to_png`.
    public func writePNG(to path: String) throws(DrawingResourceError) {
        let status = withSurface { surface in cairo_surface_write_to_png(surface, path) }
        guard status == CAIRO_STATUS_SUCCESS else {
            throw DrawingResourceError("cairo_surface_write_to_png: \(path): \(String(cString: cairo_status_to_string(status)))")
        }
    }
}

extension PixelBuffer {
    /// The row stride cairo asks for `width` pixels of `format`; the core's `stride(width:format:)`
    /// must give the same, or cairo's surfaces over the memory would read it skewed.
    static func cairoStride(width: Int, format: PixelFormat) -> Int {
        Int(cairo_format_stride_for_width(format.cairoFormat, Int32(width)))
    }
}
