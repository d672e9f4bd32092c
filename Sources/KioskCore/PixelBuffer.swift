#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A shadow buffer: pixel memory in ordinary RAM, allocated once. Plain memory: Render draws into
/// it with cairo (a surface over `bytes`), Display copies it to the panel, neither owns the other.
public final class PixelBuffer {
    public let width: Int
    public let height: Int
    public let format: PixelFormat
    /// Bytes from one row to the next: whole pixels rounded up to 4 bytes, as
    /// `cairo_format_stride_for_width` gives (Render checks the two agree).
    public let stride: Int
    public let bytes: UnsafeMutableRawPointer

    /// The largest side cairo draws on (its image surfaces refuse more than 32767 pixels).
    public static let largestSide = 32767

    public init(width: Int, height: Int, format: PixelFormat = .xrgb8888) throws(DrawingResourceError) {
        guard width > 0, height > 0 else { throw DrawingResourceError("pixel buffer: bad size \(width)x\(height)") }
        guard width <= Self.largestSide, height <= Self.largestSide else {
            throw DrawingResourceError("pixel buffer: \(width)x\(height) is too large (at most \(Self.largestSide) pixels a side)")
        }
        let stride = Self.stride(width: width, format: format)
        self.width = width
        self.height = height
        self.format = format
        self.stride = stride
        bytes = UnsafeMutableRawPointer.allocate(byteCount: stride * height, alignment: 16)
        bytes.initializeMemory(as: UInt8.self, repeating: 0, count: stride * height)
    }

    /// Bytes a row of `width` pixels takes, rounded up to 4 bytes (pixman's row alignment).
    public static func stride(width: Int, format: PixelFormat) -> Int {
        (width * format.bytesPerPixel + 3) & ~3
    }

    deinit {
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
}
