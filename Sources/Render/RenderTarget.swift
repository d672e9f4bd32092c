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

    init(_ buffer: PixelBuffer) throws(DrawingResourceError) {
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
            throw DrawingResourceError("cairo_create: \(String(cString: cairo_status_to_string(status))) for a \(width)x\(height) target")
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
        Dither.red.withUnsafeBufferPointer { red in
            Dither.green.withUnsafeBufferPointer { green in
                Dither.blue.withUnsafeBufferPointer { blue in
                    for y in y0..<y1 {
                        let from = (drawing.bytes + y * drawing.stride).assumingMemoryBound(to: UInt32.self)
                        let to = (bytes + y * stride).assumingMemoryBound(to: UInt16.self)
                        let row = (y & 7) * 8
                        for x in x0..<x1 {
                            let v = Int(from[x]), d = (row + (x & 7)) << 8
                            to[x] = red[d | (v >> 16 & 0xff)] | green[d | (v >> 8 & 0xff)] | blue[d | (v & 0xff)]
                        }
                    }
                }
            }
        }
    }
}

/// Ordered dithering from 8 to 5 or 6 bits: each level scaled to the narrower range in 1/256ths,
/// plus an offset from the 8x8 Bayer matrix, keeps every 8x8 block's mean colour as drawn.
/// Tables by Bayer cell and level (64 x 256 each), already shifted into place: a pixel is three
/// loads, and a row touches only its eight cells' part.
private enum Dither {
    static let red = table(bits: 5, shift: 11)
    static let green = table(bits: 6, shift: 5)
    static let blue = table(bits: 5, shift: 0)

    private static func table(bits: Int, shift: Int) -> [UInt16] {
        let top = (1 << bits) - 1
        return (0..<64 * 256).map { i in
            let cell = i >> 8, level = i & 0xff
            // The level worth `level * top / 255` in 1/256ths, plus the cell's offset in (0, 256).
            let value = (level * top * 256 / 255 + offsets[cell]) >> 8
            return UInt16(min(top, value) << shift)
        }
    }

    /// The 8x8 Bayer matrix, row by row, as offsets in 1/256ths spread evenly over 0..<256.
    static let offsets: [Int] = (0..<64).map { i in
        let x = i & 7, y = i >> 3
        var t = 0
        for bit in 0..<3 {
            let xb = x >> bit & 1, yb = y >> bit & 1
            t |= ((xb ^ yb) << (5 - 2 * bit)) | (yb << (4 - 2 * bit))
        }
        return t * 4 + 2
    }
}
