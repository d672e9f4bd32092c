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
            let key = (layer: views[c.rawValue].kind == .square ? 0 : 1, z: views[c.rawValue].z)
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
        guard v.kind == .square else { return v.baseFrame.contains(point) }
        let factor = v.scale * (v.lifted ? definition.liftScale : 1)
        let local = (point - v.center).rotated(by: -v.rotation) / factor
        return abs(local.x) <= v.side / 2 && abs(local.y) <= v.side / 2
    }

    /// UIControl's standard gestures, kept from recognizers on the control's ancestors.
    public func hitView(_ view: ViewID, claimsGestureOf recognizer: GestureRecognizer, touch: TouchRecord) -> StaticString? {
        let v = views[view.rawValue]
        let isSingleTap = (recognizer as? TapRecognizer).map { $0.options.tapsRequired == 1 && $0.options.touchesRequired == 1 } ?? false
        let isOneFingerMovement = (recognizer is PanRecognizer || recognizer is SwipeRecognizer) && recognizer.numberOfTouches == 1
        let travel = touch.location - touch.startLocation
        // The knob is tracking this very touch, so it started there; the travel runs along the track.
        let alongKnob = tracking[view.rawValue] == touch.id && startedOnKnob(view) && abs(travel.x) >= abs(travel.y)
        switch v.kind {
        case .button:
            return isSingleTap ? "one-finger tap" : nil
        case .toggle:
            if isSingleTap { return "one-finger tap" }
            return isOneFingerMovement && alongKnob ? "one-finger pan along the switch on its knob" : nil
        case .slider:
            return isOneFingerMovement && alongKnob ? "one-finger swipe along the slider on its knob" : nil
        case .canvas, .square:
            return nil
        }
    }
}

extension KioskScene: GestureDelegate {
    public func gestureRecognizer(_ recognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer) -> Bool {
        simultaneous[recognizer.id.rawValue].contains(other.id)
    }

    public func gestureRecognizer(_ recognizer: GestureRecognizer, shouldRequireFailureOf other: GestureRecognizer) -> Bool {
        requiresFailureOf[recognizer.id.rawValue].contains(other.id)
    }

    public func gestureRecognizer(_ recognizer: GestureRecognizer, shouldBeRequiredToFailBy other: GestureRecognizer) -> Bool {
        requiredToFailBy[recognizer.id.rawValue].contains(other.id)
    }
}
