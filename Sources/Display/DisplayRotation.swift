import KioskCore

/// How the shadow buffer is turned on its way to the panel, clockwise, as the panel is mounted.
///
/// 90° takes shadow pixel (x, y) to panel pixel (h − 1 − y, x), where h is the shadow's height.
/// Touches come from glass glued to the panel, in the panel's own coordinates, so they must be
/// turned back the other way: `matchingTouchRotation`.
public enum DisplayRotation: Int, Sendable, CaseIterable, CustomStringConvertible {
    case upright = 0
    case clockwise90 = 90
    case upsideDown = 180
    case clockwise270 = 270

    /// The rotation of `degrees` (0, 90, 180 or 270), or nil for any other angle.
    public init?(degrees: Int) { self.init(rawValue: degrees) }

    public var degrees: Int { rawValue }
    public var description: String { "\(rawValue)°" }

    /// The touch rotation, in libinput's sense (90° takes normalised (x, y) to (1 − y, x)), that
    /// brings a touch on the panel back to the shadow pixel drawn under it: the inverse turn.
    public var matchingTouchRotation: Int { (360 - rawValue) % 360 }

    /// True when the panel's width is the shadow's height.
    public var swapsAxes: Bool { self == .clockwise90 || self == .clockwise270 }

    /// The panel size that shows a shadow of `width`×`height` whole.
    public func panelSize(width: Int, height: Int) -> (width: Int, height: Int) {
        swapsAxes ? (height, width) : (width, height)
    }

    /// Where the shadow's pixel rectangle `r` lands on the panel, for a shadow of `width`×`height`.
    public func panelRect(_ r: PixelRect, shadowWidth width: Int, shadowHeight height: Int) -> PixelRect {
        switch self {
        case .upright: r
        case .clockwise90: PixelRect(x: height - r.y - r.height, y: r.x, width: r.height, height: r.width)
        case .upsideDown: PixelRect(x: width - r.x - r.width, y: height - r.y - r.height, width: r.width, height: r.height)
        case .clockwise270: PixelRect(x: r.y, y: width - r.x - r.width, width: r.height, height: r.width)
        }
    }

    /// The shadow pixel that panel pixel (`x`, `y`) shows.
    public func shadowPixel(panelX x: Int, panelY y: Int, shadowWidth width: Int, shadowHeight height: Int) -> (x: Int, y: Int) {
        switch self {
        case .upright: (x, y)
        case .clockwise90: (y, height - 1 - x)
        case .upsideDown: (width - 1 - x, height - 1 - y)
        case .clockwise270: (width - 1 - y, x)
        }
    }
}

/// A rectangle of whole pixels.
public struct PixelRect: Hashable, Sendable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The pixels `r` touches, cut to `bounds`; nil when none.
    public init?(covering r: Rect, within bounds: PixelRect) {
        let x0 = max(bounds.x, Int(r.minX.rounded(.down))), y0 = max(bounds.y, Int(r.minY.rounded(.down)))
        let x1 = min(bounds.x + bounds.width, Int(r.maxX.rounded(.up))), y1 = min(bounds.y + bounds.height, Int(r.maxY.rounded(.up)))
        guard x1 > x0, y1 > y0 else { return nil }
        self.init(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The part of this rectangle inside `other`; nil when they do not overlap.
    public func intersection(_ other: PixelRect) -> PixelRect? {
        let x0 = max(x, other.x), y0 = max(y, other.y)
        let x1 = min(x + width, other.x + other.width), y1 = min(y + height, other.y + other.height)
        guard x1 > x0, y1 > y0 else { return nil }
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}
