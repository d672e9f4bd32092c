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
        for y in dest.y..<(dest.y + dest.height) {
            let row = target.bytes + y * target.stride
            for x in dest.x..<(dest.x + dest.width) {
                let s = rotation.shadowPixel(panelX: x, panelY: y, shadowWidth: shadow.width, shadowHeight: shadow.height)
                let from = shadow.bytes + s.y * shadow.stride + s.x * bpp
                if bpp == 4 {
                    row.storeBytes(of: from.load(as: UInt32.self), toByteOffset: x * 4, as: UInt32.self)
                } else {
                    row.storeBytes(of: from.load(as: UInt16.self), toByteOffset: x * 2, as: UInt16.self)
                }
            }
        }
    }
}
