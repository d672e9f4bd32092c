import CCairo

/// A shadow buffer: pixel memory in ordinary RAM, allocated once, with a cairo image surface over it.
public final class PixelBuffer {
    public let width: Int
    public let height: Int
    public let format: PixelFormat
    /// Bytes from one row to the next, as `cairo_format_stride_for_width` asks.
    public let stride: Int
    public let bytes: UnsafeMutableRawPointer
    let surface: OpaquePointer

    public init(width: Int, height: Int, format: PixelFormat = .xrgb8888) throws(RenderError) {
        guard width > 0, height > 0 else { throw RenderError("pixel buffer: bad size \(width)x\(height)") }
        let stride = Int(cairo_format_stride_for_width(format.cairoFormat, Int32(width)))
        guard stride > 0 else { throw RenderError("cairo_format_stride_for_width: no stride for \(width) px of \(format)") }
        self.width = width
        self.height = height
        self.format = format
        self.stride = stride
        bytes = UnsafeMutableRawPointer.allocate(byteCount: stride * height, alignment: 16)
        bytes.initializeMemory(as: UInt8.self, repeating: 0, count: stride * height)
        let s = cairo_image_surface_create_for_data(
            bytes.assumingMemoryBound(to: UInt8.self), format.cairoFormat, Int32(width), Int32(height), Int32(stride))!
        let status = cairo_surface_status(s)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(s)
            bytes.deallocate()
            throw RenderError("cairo_image_surface_create_for_data: \(String(cString: cairo_status_to_string(status)))")
        }
        surface = s
    }

    /// Reads a PNG into a new XRGB8888 buffer (alpha, if any, over black).
    public convenience init(contentsOfPNG path: String) throws(RenderError) {
        let png = cairo_image_surface_create_from_png(path)!
        defer { cairo_surface_destroy(png) }
        let status = cairo_surface_status(png)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw RenderError("cairo_image_surface_create_from_png: \(path): \(String(cString: cairo_status_to_string(status)))")
        }
        try self.init(width: Int(cairo_image_surface_get_width(png)), height: Int(cairo_image_surface_get_height(png)))
        let cr = cairo_create(surface)!
        cairo_set_source_surface(cr, png, 0, 0)
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        cairo_paint(cr)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
    }

    deinit {
        cairo_surface_destroy(surface)
        bytes.deallocate()
    }

    /// The colour at a pixel, widened to 8 bits a channel.
    public func rgb(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8) {
        let row = bytes + y * stride
        switch format {
        case .xrgb8888:
            let v = row.load(fromByteOffset: x * 4, as: UInt32.self)
            return (UInt8((v >> 16) & 0xff), UInt8((v >> 8) & 0xff), UInt8(v & 0xff))
        case .rgb565:
            let v = UInt32(row.load(fromByteOffset: x * 2, as: UInt16.self))
            let r = (v >> 11) & 0x1f, g = (v >> 5) & 0x3f, b = v & 0x1f
            return (UInt8((r << 3) | (r >> 2)), UInt8((g << 2) | (g >> 4)), UInt8((b << 3) | (b >> 2)))
        }
    }

    /// True when both buffers have the same size and format and every pixel is equal.
    public func hasSamePixels(as other: PixelBuffer) -> Bool {
        guard width == other.width, height == other.height, format == other.format else { return false }
        let rowBytes = width * format.bytesPerPixel
        for y in 0..<height where memcmp(bytes + y * stride, other.bytes + y * other.stride, rowBytes) != 0 {
            return false
        }
        return true
    }

    /// Writes the buffer as a PNG with `cairo_surface_write_to_png`.
    public func writePNG(to path: String) throws(RenderError) {
        cairo_surface_flush(surface)
        let status = cairo_surface_write_to_png(surface, path)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw RenderError("cairo_surface_write_to_png: \(path): \(String(cString: cairo_status_to_string(status)))")
        }
    }
}

extension PixelBuffer {
    /// Tells cairo the memory was written directly, not through it.
    public func markDirty() { cairo_surface_mark_dirty(surface) }
}
