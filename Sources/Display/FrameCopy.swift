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

    /// A turned copy. At 90° and 270° a target row reads a column of the source: pixel by pixel
    /// along whole rows, each pixel is a new cache line, evicted before the next row needs its
    /// neighbour (16x an upright copy). So the copy goes tile by tile, and within a tile in
    /// square blocks of 16-byte rows (`TurnBlock`): the block's source rows loaded as vectors,
    /// transposed with shuffles, stored as whole target rows. The target is still only written,
    /// row by row within a block.
    static func copyTurned<Pixel: SIMDScalar & FixedWidthInteger>(_: Pixel.Type, from shadow: PixelBuffer, to target: PixelTarget,
                                                                  dest: PixelRect, rotation: DisplayRotation) {
        switch rotation {
        case .upright:
            copyPixels(Pixel.self, from: shadow, to: target, columns: dest.x..<(dest.x + dest.width), rows: dest.y..<(dest.y + dest.height), rotation: rotation)
        case .upsideDown:
            // Source and target both go along rows: no tiles needed.
            if Pixel.self == UInt32.self {
                copyUpsideDown(Block32.self, from: shadow, to: target, dest: dest)
            } else {
                copyUpsideDown(Block16.self, from: shadow, to: target, dest: dest)
            }
        case .clockwise90, .clockwise270:
            // Each of the four kernels compiled on its own, `mirrored` a constant in it.
            switch (Pixel.self == UInt32.self, rotation == .clockwise270) {
            case (true, false): copyTiles(Block32.self, from: shadow, to: target, dest: dest, mirrored: false)
            case (true, true): copyTiles(Block32.self, from: shadow, to: target, dest: dest, mirrored: true)
            case (false, false): copyTiles(Block16.self, from: shadow, to: target, dest: dest, mirrored: false)
            case (false, true): copyTiles(Block16.self, from: shadow, to: target, dest: dest, mirrored: true)
            }
        }
    }

    /// 90° (`mirrored` false) or 270° (true), tile by tile, and within a tile block by block along
    /// each band of `Block.side` target rows, with the source and target addresses kept as they go.
    @inline(__always)
    private static func copyTiles<Block: TurnBlock>(_: Block.Type, from shadow: PixelBuffer, to target: PixelTarget,
                                                    dest: PixelRect, mirrored: Bool) {
        let n = Block.side, size = MemoryLayout<Block.Pixel>.size
        let rotation: DisplayRotation = mirrored ? .clockwise270 : .clockwise90
        // Target pixel (x, y) shows the source pixel at `origin + x * dx + y * dy`:
        // 90°: shadow (y, h − 1 − x); 270°: shadow (w − 1 − y, x).
        let dx = mirrored ? shadow.stride : -shadow.stride
        let dy = mirrored ? -size : size
        let origin = UnsafeRawPointer(mirrored ? shadow.bytes + (shadow.width - 1) * size : shadow.bytes + (shadow.height - 1) * shadow.stride)
        // A block's vectors start at its top row's source pixel (90°: lane j is target row y + j)
        // or at its bottom row's (270°: lane j is target row y + n − 1 − j).
        let firstRow = mirrored ? n - 1 : 0
        let blockStep = n * dx, blockBytes = n * size
        let xEnd = dest.x + dest.width, yEnd = dest.y + dest.height
        // The first columns one by one, up to where a block row starts at a 16-byte boundary of the
        // target (a store that crosses a cache line costs two), when the target's rows allow it.
        var x0 = dest.x
        if target.stride % 16 == 0 {
            let misaligned = (Int(bitPattern: target.bytes) + x0 * size) & 15
            if misaligned != 0 { x0 = min(xEnd, x0 + (16 - misaligned) / size) }
            copyPixels(Block.Pixel.self, from: shadow, to: target, columns: dest.x..<x0, rows: dest.y..<yEnd, rotation: rotation)
        }
        var ty = dest.y
        while ty < yEnd {
            let tyEnd = min(ty + Block.tileHeight, yEnd)
            var tx = x0
            while tx < xEnd {
                let txEnd = min(tx + Block.tileWidth, xEnd)
                var y = ty
                while y + n <= tyEnd {
                    var from = origin + tx * dx + (y + firstRow) * dy
                    var to = target.bytes + y * target.stride + tx * size
                    let blocks = (txEnd - tx) / n
                    for _ in 0..<blocks {
                        Block.copy(from: from, rowStep: dx, to: to, stride: target.stride, mirrored: mirrored)
                        from += blockStep
                        to += blockBytes
                    }
                    copyPixels(Block.Pixel.self, from: shadow, to: target, columns: (tx + blocks * n)..<txEnd, rows: y..<(y + n), rotation: rotation)
                    y += n
                }
                copyPixels(Block.Pixel.self, from: shadow, to: target, columns: tx..<txEnd, rows: y..<tyEnd, rotation: rotation)
                tx = txEnd
            }
            ty = tyEnd
        }
    }

    /// 180°: target row y is shadow row h − 1 − y read backwards, 16 bytes at a time, their
    /// pixels reversed in a register.
    @inline(__always)
    private static func copyUpsideDown<Block: TurnBlock>(_: Block.Type, from shadow: PixelBuffer, to target: PixelTarget, dest: PixelRect) {
        let n = Block.side, size = MemoryLayout<Block.Pixel>.size
        let blocks = dest.width / n, blockBytes = n * size
        for y in dest.y..<(dest.y + dest.height) {
            // Target (x, y) shows shadow (w − 1 − x, h − 1 − y): the block from x starts at shadow column w − n − x.
            var from = UnsafeRawPointer(shadow.bytes + (shadow.height - 1 - y) * shadow.stride) + (shadow.width - n - dest.x) * size
            var to = target.bytes + y * target.stride + dest.x * size
            for _ in 0..<blocks {
                Block.copyReversed(from: from, to: to)
                from -= blockBytes
                to += blockBytes
            }
            copyPixels(Block.Pixel.self, from: shadow, to: target, columns: (dest.x + blocks * n)..<(dest.x + dest.width), rows: y..<(y + 1), rotation: .upsideDown)
        }
    }

    /// Pixel by pixel along target rows: the edges of a block or tile.
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

/// A square block of pixels a turned copy moves at once: `side` source rows of 16 bytes loaded as
/// vectors (a NEON or SSE register each), transposed, stored as `side` whole target rows.
protocol TurnBlock {
    associatedtype Pixel: SIMDScalar & FixedWidthInteger
    /// Pixels a side: 16 bytes of them.
    static var side: Int { get }
    /// The tile a turned copy goes through at once, in target pixels (multiples of `side`), band
    /// after band of `side` target rows. Its `tileWidth` source rows are read along, a cache line
    /// each, the line used again by the next bands while it is in the smallest data cache (32 KB
    /// on a Cortex-A72); 32 rows of 800 pixels span 25 pages of 4 KB, within the A72's 48-entry
    /// first-level data TLB. Measured here (x86): 16 wide was slower, 8 wide much slower; 32 to
    /// 128 wide about the same; 32x256 at 32 bits and 32x64 at 16 bits a few per cent ahead.
    static var tileWidth: Int { get }
    static var tileHeight: Int { get }
    /// Copies one block: source row k (k = 0 ..< side, at `from + k * rowStep`) is target column
    /// k; its lane j goes to target row j from `to` (or row side − 1 − j when `mirrored`).
    static func copy(from: UnsafeRawPointer, rowStep: Int, to: UnsafeMutableRawPointer, stride: Int, mirrored: Bool)
    /// Copies the `side` pixels at `from` to `to` in reverse order.
    static func copyReversed(from: UnsafeRawPointer, to: UnsafeMutableRawPointer)
}

/// 4x4 blocks of 32-bit pixels: interleaved by 32 bits, then by 64.
enum Block32: TurnBlock {
    typealias Pixel = UInt32
    typealias Row = SIMD4<UInt32>
    static var side: Int { 4 }
    static var tileWidth: Int { 32 }
    static var tileHeight: Int { 256 }

    @inline(__always)
    static func copy(from: UnsafeRawPointer, rowStep: Int, to: UnsafeMutableRawPointer, stride: Int, mirrored: Bool) {
        let r0 = from.loadUnaligned(as: Row.self), r1 = from.loadUnaligned(fromByteOffset: rowStep, as: Row.self)
        let r2 = from.loadUnaligned(fromByteOffset: 2 &* rowStep, as: Row.self), r3 = from.loadUnaligned(fromByteOffset: 3 &* rowStep, as: Row.self)
        // Pixels 0, 1 (2, 3) of rows 0 and 1, then of rows 2 and 3, alternately.
        let a0 = zip32Low(r0, r1), a1 = zip32High(r0, r1), a2 = zip32Low(r2, r3), a3 = zip32High(r2, r3)
        // Column j: its pixel pair from rows 0 and 1, then from rows 2 and 3.
        let c0 = zip64Low(a0, a2), c1 = zip64High(a0, a2), c2 = zip64Low(a1, a3), c3 = zip64High(a1, a3)
        if mirrored {
            to.storeBytes(of: c3, as: Row.self)
            to.storeBytes(of: c2, toByteOffset: stride, as: Row.self)
            to.storeBytes(of: c1, toByteOffset: 2 &* stride, as: Row.self)
            to.storeBytes(of: c0, toByteOffset: 3 &* stride, as: Row.self)
        } else {
            to.storeBytes(of: c0, as: Row.self)
            to.storeBytes(of: c1, toByteOffset: stride, as: Row.self)
            to.storeBytes(of: c2, toByteOffset: 2 &* stride, as: Row.self)
            to.storeBytes(of: c3, toByteOffset: 3 &* stride, as: Row.self)
        }
    }

    @inline(__always)
    static func copyReversed(from: UnsafeRawPointer, to: UnsafeMutableRawPointer) {
        let r = from.loadUnaligned(as: Row.self)
        to.storeBytes(of: Row(r[3], r[2], r[1], r[0]), as: Row.self)
    }
}

/// 8x8 blocks of 16-bit pixels: interleaved by 16 bits, by 32, then by 64; each store is a whole 16 bytes.
enum Block16: TurnBlock {
    typealias Pixel = UInt16
    typealias Row = SIMD8<UInt16>
    static var side: Int { 8 }
    static var tileWidth: Int { 32 }
    static var tileHeight: Int { 64 }

    @inline(__always)
    static func copy(from: UnsafeRawPointer, rowStep: Int, to: UnsafeMutableRawPointer, stride: Int, mirrored: Bool) {
        let r0 = from.loadUnaligned(as: Row.self), r1 = from.loadUnaligned(fromByteOffset: rowStep, as: Row.self)
        let r2 = from.loadUnaligned(fromByteOffset: 2 &* rowStep, as: Row.self), r3 = from.loadUnaligned(fromByteOffset: 3 &* rowStep, as: Row.self)
        let r4 = from.loadUnaligned(fromByteOffset: 4 &* rowStep, as: Row.self), r5 = from.loadUnaligned(fromByteOffset: 5 &* rowStep, as: Row.self)
        let r6 = from.loadUnaligned(fromByteOffset: 6 &* rowStep, as: Row.self), r7 = from.loadUnaligned(fromByteOffset: 7 &* rowStep, as: Row.self)
        // Pixels 0 to 3 (4 to 7) of rows 2m and 2m + 1, alternately.
        let a0 = zip16Low(r0, r1), a1 = zip16High(r0, r1), a2 = zip16Low(r2, r3), a3 = zip16High(r2, r3)
        let a4 = zip16Low(r4, r5), a5 = zip16High(r4, r5), a6 = zip16Low(r6, r7), a7 = zip16High(r6, r7)
        // Columns 2k and 2k + 1 of rows 0 to 3 (b0 to b3) and of rows 4 to 7 (b4 to b7).
        let b0 = zip32Low(a0, a2), b1 = zip32High(a0, a2), b2 = zip32Low(a1, a3), b3 = zip32High(a1, a3)
        let b4 = zip32Low(a4, a6), b5 = zip32High(a4, a6), b6 = zip32Low(a5, a7), b7 = zip32High(a5, a7)
        // Column j, rows 0 to 7.
        let c0 = zip64Low(b0, b4), c1 = zip64High(b0, b4), c2 = zip64Low(b1, b5), c3 = zip64High(b1, b5)
        let c4 = zip64Low(b2, b6), c5 = zip64High(b2, b6), c6 = zip64Low(b3, b7), c7 = zip64High(b3, b7)
        if mirrored {
            to.storeBytes(of: c7, as: Row.self)
            to.storeBytes(of: c6, toByteOffset: stride, as: Row.self)
            to.storeBytes(of: c5, toByteOffset: 2 &* stride, as: Row.self)
            to.storeBytes(of: c4, toByteOffset: 3 &* stride, as: Row.self)
            to.storeBytes(of: c3, toByteOffset: 4 &* stride, as: Row.self)
            to.storeBytes(of: c2, toByteOffset: 5 &* stride, as: Row.self)
            to.storeBytes(of: c1, toByteOffset: 6 &* stride, as: Row.self)
            to.storeBytes(of: c0, toByteOffset: 7 &* stride, as: Row.self)
        } else {
            to.storeBytes(of: c0, as: Row.self)
            to.storeBytes(of: c1, toByteOffset: stride, as: Row.self)
            to.storeBytes(of: c2, toByteOffset: 2 &* stride, as: Row.self)
            to.storeBytes(of: c3, toByteOffset: 3 &* stride, as: Row.self)
            to.storeBytes(of: c4, toByteOffset: 4 &* stride, as: Row.self)
            to.storeBytes(of: c5, toByteOffset: 5 &* stride, as: Row.self)
            to.storeBytes(of: c6, toByteOffset: 6 &* stride, as: Row.self)
            to.storeBytes(of: c7, toByteOffset: 7 &* stride, as: Row.self)
        }
    }

    @inline(__always)
    static func copyReversed(from: UnsafeRawPointer, to: UnsafeMutableRawPointer) {
        let r = from.loadUnaligned(as: Row.self)
        to.storeBytes(of: Row(r[7], r[6], r[5], r[4], r[3], r[2], r[1], r[0]), as: Row.self)
    }
}

// Interleaving two 16-byte vectors by 16-, 32- or 64-bit lanes, low halves or high halves: NEON's
// `zip1`/`zip2`, SSE2's `punpckl`/`punpckh`. Each is written for its own lane width on the
// vector's bits (a cast between the rounds), so LLVM lowers each to one instruction instead of
// merging the rounds into shuffles SSE cannot do at once.
@inline(__always)
func zip16Low(_ a: SIMD8<UInt16>, _ b: SIMD8<UInt16>) -> SIMD8<UInt16> { SIMD8(a[0], b[0], a[1], b[1], a[2], b[2], a[3], b[3]) }
@inline(__always)
func zip16High(_ a: SIMD8<UInt16>, _ b: SIMD8<UInt16>) -> SIMD8<UInt16> { SIMD8(a[4], b[4], a[5], b[5], a[6], b[6], a[7], b[7]) }
@inline(__always)
func zip32Low<V: SIMD>(_ a: V, _ b: V) -> V {
    let a = unsafeBitCast(a, to: SIMD4<UInt32>.self), b = unsafeBitCast(b, to: SIMD4<UInt32>.self)
    return unsafeBitCast(SIMD4(a[0], b[0], a[1], b[1]), to: V.self)
}
@inline(__always)
func zip32High<V: SIMD>(_ a: V, _ b: V) -> V {
    let a = unsafeBitCast(a, to: SIMD4<UInt32>.self), b = unsafeBitCast(b, to: SIMD4<UInt32>.self)
    return unsafeBitCast(SIMD4(a[2], b[2], a[3], b[3]), to: V.self)
}
@inline(__always)
func zip64Low<V: SIMD>(_ a: V, _ b: V) -> V {
    let a = unsafeBitCast(a, to: SIMD2<UInt64>.self), b = unsafeBitCast(b, to: SIMD2<UInt64>.self)
    return unsafeBitCast(SIMD2(a[0], b[0]), to: V.self)
}
@inline(__always)
func zip64High<V: SIMD>(_ a: V, _ b: V) -> V {
    let a = unsafeBitCast(a, to: SIMD2<UInt64>.self), b = unsafeBitCast(b, to: SIMD2<UInt64>.self)
    return unsafeBitCast(SIMD2(a[1], b[1]), to: V.self)
}
