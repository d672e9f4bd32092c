import KioskCore

/// Buffer age: what each of a display's buffers lacks, the damage of every frame since it was last written.
///
/// With two buffers the back buffer shows the frame before last, so it needs this frame's damage
/// and the previous frame's. A buffer never written needs the whole screen.
public struct BufferDamage: Sendable {
    public let screen: Rect
    /// Per buffer, the damage it lacks, merged; storage kept from frame to frame.
    private var pending: [[Rect]]

    public init(bufferCount: Int, screen: Rect) {
        self.screen = screen
        var whole = [screen]
        whole.reserveCapacity(64)
        pending = Array(repeating: whole, count: bufferCount)
    }

    /// Records a frame's damage and returns what buffer `index` needs written to show that frame.
    public mutating func damage(forBuffer index: Int, frame: [Rect]) -> [Rect] {
        var needed: [Rect] = []
        damage(forBuffer: index, frame: frame, into: &needed)
        return needed
    }

    /// As `damage(forBuffer:frame:)`, into storage the caller keeps: once warm, nothing is allocated.
    public mutating func damage(forBuffer index: Int, frame: [Rect], into needed: inout [Rect]) {
        for i in pending.indices {
            for r in frame { Self.add(r, to: &pending[i]) }
        }
        needed.removeAll(keepingCapacity: true)
        needed.append(contentsOf: pending[index])
        pending[index].removeAll(keepingCapacity: true)
    }

    /// Forgets what the buffers hold: each is written whole next time.
    public mutating func invalidate() {
        for i in pending.indices {
            pending[i].removeAll(keepingCapacity: true)
            pending[i].append(screen)
        }
    }

    /// Adds `r` unless a kept rectangle holds it whole, dropping those it holds whole.
    static func add(_ r: Rect, to kept: inout [Rect]) {
        guard r.width > 0, r.height > 0, !kept.contains(where: { $0.holds(r) }) else { return }
        kept.removeAll { r.holds($0) }
        kept.append(r)
    }

    /// `rects` without duplicates and without rectangles another one holds whole.
    static func merged(_ rects: [Rect]) -> [Rect] {
        var kept: [Rect] = []
        for r in rects { add(r, to: &kept) }
        return kept
    }
}

extension Rect {
    fileprivate func holds(_ other: Rect) -> Bool {
        other.minX >= minX && other.minY >= minY && other.maxX <= maxX && other.maxY <= maxY
    }
}
