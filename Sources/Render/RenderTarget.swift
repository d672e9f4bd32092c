import CCairo
import KioskCore

/// One cairo surface and context over a buffer's memory, made once and reused frame after frame,
/// so a frame allocates nothing for drawing into it.
///
/// RGB565 is drawn in XRGB8888 into a buffer of the target's own, then the damaged rectangles are
/// converted with an 8x8 ordered (Bayer) dither: straight 16-bit drawing bands the squares' soft
/// shadows into steps 8 levels apart. cairo 1.16 has no dither; pixman 0.42 dithers only in its
/// floating-point pipeline, 70 times slower than its own conversion (6 ms a frame here), so the
/// conversion is the few lines below.
final class RenderTarget {
    let bytes: UnsafeMutableRawPointer
    let width: Int, height: Int, stride: Int
    let format: PixelFormat
    let surface: OpaquePointer
    let cr: OpaquePointer
    /// RGB565 only: where cairo draws.
    private let drawing: PixelBuffer?

    init(_ buffer: PixelBuffer) throws(RenderError) {
        bytes = buffer.bytes
        width = buffer.width
        height = buffer.height
        stride = buffer.stride
        format = buffer.format
        switch buffer.format {
        case .xrgb8888:
            drawing = nil
            surface = cairo_image_surface_create_for_data(
                bytes.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_RGB24, Int32(width), Int32(height), Int32(stride))!
        case .rgb565:
            let drawing = try PixelBuffer(width: width, height: height, format: .xrgb8888)
            self.drawing = drawing
            surface = cairo_image_surface_create_for_data(
                drawing.bytes.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_RGB24, Int32(width), Int32(height), Int32(drawing.stride))!
        }
        cr = cairo_create(surface)!
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw RenderError("cairo_create: \(String(cString: cairo_status_to_string(status))) for a \(width)x\(height) target")
        }
    }

    deinit {
        cairo_destroy(cr)
        cairo_surface_destroy(surface)
    }

    /// Whether this target draws into `buffer`'s memory, laid out as it is.
    func draws(into buffer: PixelBuffer) -> Bool {
        buffer.bytes == bytes && buffer.width == width && buffer.height == height && buffer.stride == stride && buffer.format == format
    }

    /// Before drawing: the memory may have been written by others since the last frame.
    func begin() {
        if drawing == nil { cairo_surface_mark_dirty(surface) }
    }

    /// After drawing the whole pixel rectangle `x0..<x1`, `y0..<y1`: into the target's memory.
    func finish(x0: Int, y0: Int, x1: Int, y1: Int) {
        cairo_surface_flush(surface)
        guard let drawing, x1 > x0, y1 > y0 else { return }
        Dither.five.withUnsafeBufferPointer { five in
            Dither.six.withUnsafeBufferPointer { six in
                Dither.offsets.withUnsafeBufferPointer { offsets in
                    for y in y0..<y1 {
                        let from = (drawing.bytes + y * drawing.stride).assumingMemoryBound(to: UInt32.self)
                        let to = (bytes + y * stride).assumingMemoryBound(to: UInt16.self)
                        let row = (y & 7) * 8
                        for x in x0..<x1 {
                            let v = from[x], d = offsets[row + (x & 7)]
                            let r = (five[Int(v >> 16 & 0xff)] &+ d) >> 8
                            let g = (six[Int(v >> 8 & 0xff)] &+ d) >> 8
                            let b = (five[Int(v & 0xff)] &+ d) >> 8
                            to[x] = UInt16(truncatingIfNeeded: r << 11 | g << 5 | b)
                        }
                    }
                }
            }
        }
    }
}

/// Ordered dithering from 8 to 5 or 6 bits: each level scaled to the narrower range in 1/256ths,
/// plus an offset from the 8x8 Bayer matrix, keeps every 8x8 block's mean colour as drawn.
private enum Dither {
    /// `v * 31 / 255` and `v * 63 / 255` in 1/256ths: what a level is worth in 5 or 6 bits.
    static let five: [UInt32] = (0..<256).map { UInt32($0 * 31 * 256 / 255) }
    static let six: [UInt32] = (0..<256).map { UInt32($0 * 63 * 256 / 255) }
    /// The 8x8 Bayer matrix, row by row, as offsets in 1/256ths spread evenly over 0..<256.
    static let offsets: [UInt32] = (0..<64).map { i in
        let x = i & 7, y = i >> 3
        var t = 0
        for bit in 0..<3 {
            let xb = x >> bit & 1, yb = y >> bit & 1
            t |= ((xb ^ yb) << (5 - 2 * bit)) | (yb << (4 - 2 * bit))
        }
        return UInt32(t * 4 + 2)
    }
}
