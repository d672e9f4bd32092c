import KioskCore

/// Pixel memory a frame is copied into: a dumb buffer's mapping, or a headless `PixelBuffer`.
public struct PixelTarget {
    public var bytes: UnsafeMutableRawPointer
    public var width: Int
    public var height: Int
    /// Bytes from one row to the next (a dumb buffer's pitch).
    public var stride: Int
    public var format: PixelFormat

    public init(bytes: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int, format: PixelFormat) {
        self.bytes = bytes
        self.width = width
        self.height = height
        self.stride = stride
        self.format = format
    }

    public init(_ buffer: PixelBuffer) {
        self.init(bytes: buffer.bytes, width: buffer.width, height: buffer.height, stride: buffer.stride, format: buffer.format)
    }
}

/// Copies the damaged rectangles of a shadow buffer into a target, turned as the panel is mounted.
///
/// It only writes the target, row by row, never reads it: dumb buffers are write-combined on the
/// Pi, where reading them is very slow. A rectangle that falls outside the target is cut to it.
public enum FrameCopy {
    /// Copies the shadow's rectangles `damage` (shadow coordinates) to where they land on the target.
    public static func copy(from shadow: PixelBuffer, to target: PixelTarget, damage: [Rect], rotation: DisplayRotation) {
        let bounds = PixelRect(x: 0, y: 0, width: shadow.width, height: shadow.height)
        for r in damage {
            guard let p = PixelRect(covering: r, within: bounds) else { continue }
            copy(from: shadow, to: target, area: rotation.panelRect(p, shadowWidth: shadow.width, shadowHeight: shadow.height), rotation: rotation)
        }
    }

    /// Writes one area of the target (target coordinates) from the shadow pixels it shows.
    static func copy(from shadow: PixelBuffer, to target: PixelTarget, area: PixelRect, rotation: DisplayRotation) {
        precondition(shadow.format == target.format, "shadow \(shadow.format) copied into a \(target.format) target")
        let targetBounds = PixelRect(x: 0, y: 0, width: target.width, height: target.height)
        // The target may be larger than the turned shadow (or smaller: cut); pixels outside the shadow stay as they are.
        let panel = rotation.panelSize(width: shadow.width, height: shadow.height)
        let shown = PixelRect(x: 0, y: 0, width: panel.width, height: panel.height)
        let bpp = shadow.format.bytesPerPixel
        guard let dest = area.intersection(targetBounds)?.intersection(shown) else { return }
        if rotation == .upright {
            for y in dest.y..<(dest.y + dest.height) {
                (target.bytes + y * target.stride + dest.x * bpp)
                    .copyMemory(from: shadow.bytes + y * shadow.stride + dest.x * bpp, byteCount: dest.width * bpp)
            }
            return
        }
        if bpp == 4 {
            copyTurned(UInt32.self, from: shadow, to: target, dest: dest, rotation: rotation)
        } else {
            copyTurned(UInt16.self, from: shadow, to: target, dest: dest, rotation: rotation)
        }
    }

    /// The side of a tile of a turned copy, in pixels: 32 rows of 32 pixels of source and of
    /// target (4 KB each at 32 bits) stay in the smallest data cache (32 KB on a Cortex-A72).
    static let tileSide = 32

    /// A turned copy. At 90° and 270° a target row reads a column of the source: pixel by pixel
    /// along whole rows, each pixel is a new cache line, evicted before the next row needs its
    /// neighbour (16x an upright copy). So the copy goes tile by tile, and within a tile in blocks
    /// of 4x4 pixels: four source rows loaded as vectors, transposed, stored as four target rows.
    /// The target is still only written, row by row within a block.
    static func copyTurned<Pixel: SIMDScalar & FixedWidthInteger>(_: Pixel.Type, from shadow: PixelBuffer, to target: PixelTarget,
                                                                  dest: PixelRect, rotation: DisplayRotation) {
        switch rotation {
        case .upright, .upsideDown:
            // Source and target both go along rows: no tiles needed.
            copyPixels(Pixel.self, from: shadow, to: target, columns: dest.x..<(dest.x + dest.width), rows: dest.y..<(dest.y + dest.height), rotation: rotation)
        case .clockwise90:
            copyTiles(Pixel.self, from: shadow, to: target, dest: dest, rotation: rotation, mirrored: false)
        case .clockwise270:
            copyTiles(Pixel.self, from: shadow, to: target, dest: dest, rotation: rotation, mirrored: true)
        }
    }

    /// 90° (`mirrored` false) or 270° (true), tile by tile, block by block.
    @inline(__always)
    private static func copyTiles<Pixel: SIMDScalar & FixedWidthInteger>(_: Pixel.Type, from shadow: PixelBuffer, to target: PixelTarget,
                                                                         dest: PixelRect, rotation: DisplayRotation, mirrored: Bool) {
        typealias Block = SIMD4<Pixel>
        let size = MemoryLayout<Pixel>.size
        // Block row k (target column x + k) is source row `sy + k * step`; its four pixels are
        // target rows y...y + 3, left to right (90°) or right to left (270°).
        let step = mirrored ? shadow.stride : -shadow.stride
        let xEnd = dest.x + dest.width, yEnd = dest.y + dest.height
        var ty = dest.y
        while ty < yEnd {
            let tyEnd = min(ty + tileSide, yEnd)
            var tx = dest.x
            while tx < xEnd {
                let txEnd = min(tx + tileSide, xEnd)
                var y = ty
                while y + 4 <= tyEnd {
                    var x = tx
                    while x + 4 <= txEnd {
                        let s = rotation.shadowPixel(panelX: x, panelY: y, shadowWidth: shadow.width, shadowHeight: shadow.height)
                        let from = UnsafeRawPointer(shadow.bytes + s.y * shadow.stride + (s.x - (mirrored ? 3 : 0)) * size)
                        let columns = transposed(
                            from.loadUnaligned(as: Block.self), from.loadUnaligned(fromByteOffset: step, as: Block.self),
                            from.loadUnaligned(fromByteOffset: 2 * step, as: Block.self), from.loadUnaligned(fromByteOffset: 3 * step, as: Block.self))
                        let to = target.bytes + y * target.stride + x * size
                        // Column j of the block is target row y + j (90°) or y + 3 − j (270°).
                        let row = target.stride
                        to.storeBytes(of: columns.0, toByteOffset: mirrored ? 3 * row : 0, as: Block.self)
                        to.storeBytes(of: columns.1, toByteOffset: mirrored ? 2 * row : row, as: Block.self)
                        to.storeBytes(of: columns.2, toByteOffset: mirrored ? row : 2 * row, as: Block.self)
                        to.storeBytes(of: columns.3, toByteOffset: mirrored ? 0 : 3 * row, as: Block.self)
                        x += 4
                    }
                    copyPixels(Pixel.self, from: shadow, to: target, columns: x..<txEnd, rows: y..<(y + 4), rotation: rotation)
                    y += 4
                }
                copyPixels(Pixel.self, from: shadow, to: target, columns: tx..<txEnd, rows: y..<tyEnd, rotation: rotation)
                tx = txEnd
            }
            ty = tyEnd
        }
    }

    /// The columns of the 4x4 block whose rows are `r0`...`r3`: two rounds of even/odd
    /// interleaving, which compile to vector shuffles (a lane picked at run time would not).
    @inline(__always)
    private static func transposed<Pixel: SIMDScalar>(_ r0: SIMD4<Pixel>, _ r1: SIMD4<Pixel>, _ r2: SIMD4<Pixel>, _ r3: SIMD4<Pixel>)
        -> (SIMD4<Pixel>, SIMD4<Pixel>, SIMD4<Pixel>, SIMD4<Pixel>) {
        let r01 = SIMD8(lowHalf: r0, highHalf: r1), r23 = SIMD8(lowHalf: r2, highHalf: r3)
        let even = SIMD8(lowHalf: r01.evenHalf, highHalf: r23.evenHalf), odd = SIMD8(lowHalf: r01.oddHalf, highHalf: r23.oddHalf)
        return (even.evenHalf, odd.evenHalf, even.oddHalf, odd.oddHalf)
    }

    /// Pixel by pixel along target rows: the edges of a tile, and the upside-down turn.
    @inline(__always)
    private static func copyPixels<Pixel: FixedWidthInteger>(_: Pixel.Type, from shadow: PixelBuffer, to target: PixelTarget,
                                                             columns: Range<Int>, rows: Range<Int>, rotation: DisplayRotation) {
        guard !columns.isEmpty else { return }
        let size = MemoryLayout<Pixel>.size
        // How far the source pixel moves for one step right along a target row.
        let step = switch rotation {
        case .upright: size
        case .clockwise90: -shadow.stride
        case .upsideDown: -size
        case .clockwise270: shadow.stride
        }
        for y in rows {
            let s = rotation.shadowPixel(panelX: columns.lowerBound, panelY: y, shadowWidth: shadow.width, shadowHeight: shadow.height)
            var from = UnsafeRawPointer(shadow.bytes + s.y * shadow.stride + s.x * size)
            var to = target.bytes + y * target.stride + columns.lowerBound * size
            for _ in columns {
                to.storeBytes(of: from.load(as: Pixel.self), as: Pixel.self)
                from += step
                to += size
            }
        }
    }
}
