import Gestures
import KioskCore

extension KioskScene: GestureEngineHost {
    /// The front-most view under `point`: controls before squares, then squares by z-order.
    public func hitTest(_ point: Point) -> ViewID? {
        guard views[0].baseFrame.contains(point) else { return nil }
        var current = ViewID(0)
        while let child = frontChild(of: current, at: point) { current = child }
        return current
    }

    public func hitPath(at point: Point, into path: inout [ViewID]) {
        guard var v = hitTest(point) else { return }
        path.append(v)
        while let p = views[v.rawValue].parent {
            path.append(p)
            v = p
        }
    }

    private func frontChild(of parent: ViewID, at point: Point) -> ViewID? {
        var best: ViewID?
        var bestKey = (layer: -1, z: Int.min)
        for c in views[parent.rawValue].children where contains(c, point) {
            // Squares by their z-order; controls above them, in declaration order.
            let key = if let s = views[c.rawValue].square { (layer: 0, z: s.z) } else { (layer: 1, z: c.rawValue) }
            if key.layer > bestKey.layer || (key.layer == bestKey.layer && key.z > bestKey.z) {
                best = c
                bestKey = key
            }
        }
        return best
    }

    /// Exact containment: a square is tested in its own rotated, scaled coordinates.
    public func contains(_ id: ViewID, _ point: Point) -> Bool {
        let v = views[id.rawValue]
        guard let s = v.square else { return v.baseFrame.contains(point) }
        let factor = s.scale * (s.isLifted ? definition.liftScale : 1)
        let local = (point - s.center).rotated(by: -s.rotation) / factor
        return abs(local.x) <= s.side / 2 && abs(local.y) <= s.side / 2
    }

    /// UIControl's standard gestures, kept from recognizers on the control's ancestors, for a touch
    /// that lands at `point` now: a tap on a button or switch; a movement along the track when the
    /// touch lands on the knob of a switch or slider that is free to follow it.
    public func standardGestures(of view: ViewID, touchAt point: Point) -> StandardGestures {
        let v = views[view.rawValue]
        let onFreeKnob = tracking[view.rawValue] == nil && v.knobContains(point)
        switch v.kind {
        case .button:
            return StandardGestures(oneFingerTap: "one-finger tap")
        case .toggle:
            return StandardGestures(oneFingerTap: "one-finger tap",
                                    oneFingerMovementAlongX: onFreeKnob ? "one-finger pan along the switch on its knob" : nil)
        case .slider:
            return StandardGestures(oneFingerMovementAlongX: onFreeKnob ? "one-finger swipe along the slider on its knob" : nil)
        case .canvas, .square:
            return StandardGestures()
        }
    }
}

extension KioskScene: GestureDelegate {
    public func gestureRecognizer(_ recognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer) -> Bool {
        gestures[recognizer.id.rawValue].simultaneous.contains(other.id)
    }

    public func gestureRecognizer(_ recognizer: GestureRecognizer, shouldRequireFailureOf other: GestureRecognizer) -> Bool {
        gestures[recognizer.id.rawValue].requiresFailureOf.contains(other.id)
    }

    public func gestureRecognizer(_ recognizer: GestureRecognizer, shouldBeRequiredToFailBy other: GestureRecognizer) -> Bool {
        gestures[recognizer.id.rawValue].requiredToFailBy.contains(other.id)
    }
}
