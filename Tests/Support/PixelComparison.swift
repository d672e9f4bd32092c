import KioskCore

/// Where two buffers first differ, and how.
public func firstDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> String {
    for y in 0..<a.height {
        for x in 0..<a.width where a.rgb(x: x, y: y) != b.rgb(x: x, y: y) {
            return "(\(x), \(y)): \(a.rgb(x: x, y: y)) vs \(b.rgb(x: x, y: y))"
        }
    }
    return "none"
}
