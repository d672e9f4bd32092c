import Geometry

/// Buffer age: what each of a display's buffers lacks, the damage of every frame since it was last written.
///
/// With two buffers the back buffer shows the frame before last, so it needs this frame's damage
/// and the previous frame's. A buffer never written needs the whole screen.
public struct BufferDamage: Sendable {
    public let screen: Rect
    private var pending: [[Rect]]

    public init(bufferCount: Int, screen: Rect) {
        self.screen = screen
        pending = Array(repeating: [screen], count: bufferCount)
    }

    /// Records a frame's damage and returns what buffer `index` needs written to show that frame.
    public mutating func damage(forBuffer index: Int, frame: [Rect]) -> [Rect] {
        for i in pending.indices { pending[i] = Self.merged(pending[i] + frame) }
        defer { pending[index] = [] }
        return pending[index]
    }

    /// Forgets what the buffers hold: each is written whole next time.
    public mutating func invalidate() {
        pending = Array(repeating: [screen], count: pending.count)
    }

    /// `rects` without duplicates and without rectangles another one holds whole.
    static func merged(_ rects: [Rect]) -> [Rect] {
        var kept: [Rect] = []
        for r in rects where r.width > 0 && r.height > 0 {
            if kept.contains(where: { $0.holds(r) }) { continue }
            kept.removeAll { r.holds($0) }
            kept.append(r)
        }
        return kept
    }
}

extension Rect {
    fileprivate func holds(_ other: Rect) -> Bool {
        other.minX >= minX && other.minY >= minY && other.maxX <= maxX && other.maxY <= maxY
    }
}
