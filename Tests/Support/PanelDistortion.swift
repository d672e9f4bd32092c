import KioskCore
import Testing

/// Issue 15's four distortions of a touch panel, as a map from normalised screen positions to the
/// normalised positions the panel reports: what a calibration must undo.
public enum PanelDistortion: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case scaledAndOffset, axesSwapped, turned90, mirrored
    public var testDescription: String { rawValue }

    /// Where the panel reports a touch on screen point `p` of an 800x480 screen, normalised.
    public func raw(_ p: Point) -> Point {
        let (x, y) = (p.x / 800, p.y / 480)
        switch self {
        case .scaledAndOffset: return Point(x: 0.06 + 0.85 * x, y: 0.1 + 0.78 * y)
        case .axesSwapped: return Point(x: 0.05 + 0.9 * y, y: 0.08 + 0.86 * x)
        case .turned90: return Point(x: 0.04 + 0.9 * y, y: 0.97 - 0.92 * x)
        case .mirrored: return Point(x: 0.95 - 0.9 * x, y: 0.05 + 0.9 * y)
        }
    }
}
