import Gestures
import KioskCore

extension KioskScene {
    /// Squares are kept between these scales, so a pinch can neither lose nor swallow one.
    public static let scaleRange = 0.4...3.0

    func applyEngineOutputs() {
        for output in engine.outputs {
            switch output {
            case .gesture(let e): apply(e)
            case .touchCancelledInView(let touch, _, let time): cancelTracking(touch, at: time)
            case .touchBegan: break  // the controls take it up in `trackControls`, in the frame's order
            }
        }
    }

    private func apply(_ e: GestureEvent) {
        let i = e.recognizer.rawValue
        let g = gestures[i].description
        let view = engine.recognizer(e.recognizer).view
        if recordsEvents { events.append(.gesture(e, view: g.view, recognizer: g.name, kind: g.spec.kind)) }
        let began = e.state == .began
        let under = e.state.isActive || e.state == .ended
        switch g.action {
        case .move, .moveAll:
            if began { gestures[i].lastTranslation = .zero }
            guard under else { return }
            let delta = e.translation - gestures[i].lastTranslation
            gestures[i].lastTranslation = e.translation
            if g.action == .move {
                moveSquare(view, by: delta)
            } else {
                for s in squareOrder { moveSquare(s, by: delta) }
            }
        case .scale:
            scale(view, e, recognizer: i)
        case .rotate:
            rotate(view, e, recognizer: i)
        case .lift:
            lift(view, e, recognizer: i)
        case .bringToFront:
            if e.state == .recognized { bringToFront(view) }
        case .resetTransform:
            if e.state == .recognized {
                views[view.rawValue].withSquare {
                    $0.scale = 1
                    $0.rotation = 0
                }
            }
        case .cycleTheme:
            guard e.state == .recognized else { return }
            let count = max(1, definition.views[view.rawValue].themes.count)
            let step = e.direction == .left || e.direction == .up ? count - 1 : 1
            views[view.rawValue].withCanvas { $0.themeIndex = ($0.themeIndex + step) % count }
        case .resetScene:
            if e.state == .began || e.state == .recognized { reset() }
        case .none:
            break
        }
    }

    /// A pinch's change since its last event, about the fingers, within `scaleRange`.
    private func scale(_ view: ViewID, _ e: GestureEvent, recognizer i: Int) {
        if e.state == .began { gestures[i].lastScale = 1 }
        guard e.state.isActive || e.state == .ended, let v = views[view.rawValue].square else { return }
        let target = min(max(v.scale * e.scale / gestures[i].lastScale, Self.scaleRange.lowerBound), Self.scaleRange.upperBound)
        let factor = target / v.scale
        gestures[i].lastScale = e.scale
        views[view.rawValue].withSquare { $0.scale = target }
        // About the fingers, so the square stays under them.
        setCenter(view, e.location + (v.center - e.location) * factor)
    }

    /// A rotation's change since its last event, about the fingers.
    private func rotate(_ view: ViewID, _ e: GestureEvent, recognizer i: Int) {
        if e.state == .began { gestures[i].lastRotation = 0 }
        guard e.state.isActive || e.state == .ended else { return }
        let delta = e.rotation - gestures[i].lastRotation
        gestures[i].lastRotation = e.rotation
        guard let v = views[view.rawValue].square else { return }
        views[view.rawValue].withSquare { $0.rotation = normalizedAngle(v.rotation + delta) }
        setCenter(view, e.location + (v.center - e.location).rotated(by: delta))
    }

    /// A long press lifts the square, which follows the finger until it is dropped.
    private func lift(_ view: ViewID, _ e: GestureEvent, recognizer i: Int) {
        switch e.state {
        case .began:
            views[view.rawValue].withSquare { $0.lift = .lifted }
            bringToFront(view)
            gestures[i].lastLocation = e.location
        case .changed:
            moveSquare(view, by: e.location - gestures[i].lastLocation)
            gestures[i].lastLocation = e.location
        case .ended, .cancelled:
            views[view.rawValue].withSquare { $0.lift = .dropping(since: e.time) }
        default: break
        }
    }

    private func moveSquare(_ id: ViewID, by delta: Point) {
        guard let s = views[id.rawValue].square else { return }
        setCenter(id, s.center + delta)
    }

    /// Squares keep their centers on the canvas, so none can be pushed out of reach.
    private func setCenter(_ id: ViewID, _ p: Point) {
        let bounds = views[0].baseFrame
        views[id.rawValue].withSquare { $0.center = Point(x: min(max(p.x, bounds.minX), bounds.maxX), y: min(max(p.y, bounds.minY), bounds.maxY)) }
    }

    private func bringToFront(_ id: ViewID) {
        var top = Int.min
        for s in squareOrder { if let square = views[s.rawValue].square { top = max(top, square.z) } }
        // z-orders start unique (declaration order), so the top square is already in front.
        views[id.rawValue].withSquare { if $0.z != top { $0.z = top + 1 } }
    }
}
