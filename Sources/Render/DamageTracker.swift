import KioskCore
import Scene

/// Which rectangles of the screen changed since the last frame it saw.
///
/// It keeps what each view looked like when last drawn; a view whose look changed damages both
/// where it was and where it is now, each grown to whole pixels and to every view it touches.
/// A theme change damages the whole screen.
public struct DamageTracker {
    public let screen: Rect
    // What each view looked like when last drawn, and this frame's looks: two buffers, swapped.
    private var previous: [ViewLook] = []
    private var current: [ViewLook] = []
    private var hasPrevious = false
    private var previousTheme = -1
    private var whole: [Rect] = []

    public init(width: Int, height: Int) {
        screen = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
    }

    /// The damage of the frame showing `scene` at `now`, remembered as drawn; empty when nothing changed.
    public mutating func damage(for scene: KioskScene, at now: Instant) -> [Rect] {
        var rects: [Rect] = []
        damage(for: scene, at: now, into: &rects)
        return rects
    }

    /// As `damage(for:at:)`, into storage the caller keeps: once warmed up, nothing is allocated.
    public mutating func damage(for scene: KioskScene, at now: Instant, into rects: inout [Rect]) {
        rects.removeAll(keepingCapacity: true)
        ViewLook.all(scene, at: now, into: &current)
        defer {
            swap(&previous, &current)
            hasPrevious = true
            previousTheme = scene.views[0].themeIndex
        }
        guard hasPrevious, previous.count == current.count, previousTheme == scene.views[0].themeIndex else {
            rects.append(screen)
            return
        }
        for i in current.indices where previous[i] != current[i] {
            if let r = aligned(previous[i].bounds) { rects.append(r) }
            if let r = aligned(current[i].bounds) { rects.append(r) }
        }
        guard !rects.isEmpty else { return }
        // A shape cut by a damage edge comes out a level off along the cut (cairo clips the path
        // first), so damage grows to hold every view it touches whole.
        whole.removeAll(keepingCapacity: true)
        for look in current.dropFirst() { if let r = aligned(look.bounds) { whole.append(r) } }
        for k in rects.indices {
            var grew = true
            while grew {
                grew = false
                for b in whole where rects[k].intersects(b) && rects[k].union(b) != rects[k] {
                    rects[k] = rects[k].union(b)
                    grew = true
                }
            }
        }
        // Overlapping rectangles become one, so no pixel is drawn twice: a moving square's old and
        // new places are mostly the same pixels. In place, without allocating.
        var merged = true
        while merged {
            merged = false
            var i = 0
            while i < rects.count {
                var j = i + 1
                while j < rects.count {
                    if rects[i].intersects(rects[j]) {
                        rects[i] = rects[i].union(rects[j])
                        rects.remove(at: j)
                        merged = true
                    } else {
                        j += 1
                    }
                }
                i += 1
            }
        }
    }

    /// Forgets the last frame: the next one is damaged whole.
    public mutating func invalidate() { hasPrevious = false }

    /// `r` grown to whole pixels and cut to the screen; nil when off screen.
    private func aligned(_ r: Rect) -> Rect? {
        let x0 = max(screen.minX, (r.minX - 1).rounded(.down)), y0 = max(screen.minY, (r.minY - 1).rounded(.down))
        let x1 = min(screen.maxX, (r.maxX + 1).rounded(.up)), y1 = min(screen.maxY, (r.maxY + 1).rounded(.up))
        guard x1 > x0, y1 > y0 else { return nil }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
