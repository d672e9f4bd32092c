import Gestures
import KioskCore

/// The button, the slider and the switch follow the touches no recognizer took from them, as UIControl does.
extension KioskScene {
    func trackControls(_ touch: Touch, at time: Instant) {
        switch touch.phase {
        case .began:
            guard let slot = engine.touches.slot(of: touch.id) else { return }
            let record = engine.touches[slot]
            let v = record.hitView
            guard !record.cancelledInView, v.rawValue >= 0, tracking[v.rawValue] == nil else { return }
            beginTracking(v, touch, at: time)
        case .moved, .stationary:
            if let v = control(tracking: touch.id) { moveTracking(v, touch, at: time) }
        case .ended:
            if let v = control(tracking: touch.id) { endTracking(v, touch, at: time) }
        case .cancelled:
            cancelTracking(touch.id, at: time)
        }
    }

    private func control(tracking touch: TouchID) -> ViewID? {
        for i in tracking.indices where tracking[i] == touch { return ViewID(i) }
        return nil
    }

    /// Whether the switch's or slider's tracked touch came down on its knob.
    func startedOnKnob(_ v: ViewID) -> Bool { !trackingOffset[v.rawValue].isNaN }

    func emit(_ v: ViewID, _ event: ControlEvent, at time: Instant) {
        if recordsEvents { events.append(.control(time: time, view: views[v.rawValue].name, event: event)) }
    }

    private func beginTracking(_ v: ViewID, _ touch: Touch, at time: Instant) {
        let i = v.rawValue
        let p = touch.location
        switch views[i].kind {
        case .button:
            views[i].isHighlighted = true
        case .slider:
            // UISlider moves only when the finger lands on its thumb.
            guard views[i].knobContains(p) else { return }
            trackingOffset[i] = p.x - views[i].knobCenter().x
            trackingStartValue[i] = views[i].value
        case .toggle:
            trackingOffset[i] = views[i].knobContains(p) ? p.x - views[i].knobCenter().x : .nan
            trackingStartValue[i] = p.x
        case .canvas, .square:
            return
        }
        tracking[i] = touch.id
        trackingMoved[i] = false
        emit(v, .touchDown, at: time)
    }

    /// Where the knob's center lands for a finger at `x`, as a fraction of the track.
    private func travel(_ i: Int, x: Double) -> Double {
        let f = views[i].baseFrame, r = views[i].knobRadius
        return min(1, max(0, (x - trackingOffset[i] - f.minX - r) / max(1, f.width - 2 * r)))
    }

    private func isInside(_ i: Int, _ p: Point) -> Bool {
        views[i].baseFrame.insetBy(-views[i].trackingMarginPixels).contains(p)
    }

    private func moveTracking(_ v: ViewID, _ touch: Touch, at time: Instant) {
        let i = v.rawValue
        switch views[i].kind {
        case .button:
            views[i].isHighlighted = isInside(i, touch.location)
        case .slider:
            let value = travel(i, x: touch.location.x)
            if value != views[i].value {
                views[i].value = value
                emit(v, .valueChanged(value), at: time)
            }
        case .toggle:
            guard startedOnKnob(v) else { return }
            if !trackingMoved[i], engine.metrics.millimetres(pixels: abs(touch.location.x - trackingStartValue[i])) >= GestureConstants.panHysteresisMillimetres {
                trackingMoved[i] = true
            }
            if trackingMoved[i] { views[i].knobTravel = travel(i, x: touch.location.x) }
        case .canvas, .square:
            break
        }
    }

    private func endTracking(_ v: ViewID, _ touch: Touch, at time: Instant) {
        let i = v.rawValue
        tracking[i] = nil
        let inside = isInside(i, touch.location)
        switch views[i].kind {
        case .button:
            views[i].isHighlighted = false
            if inside {
                views[i].taps += 1
                emit(v, .touchUpInside, at: time)
                emit(v, .primaryActionTriggered(taps: views[i].taps), at: time)
            } else {
                emit(v, .touchUpOutside, at: time)
            }
        case .slider:
            emit(v, inside ? .touchUpInside : .touchUpOutside, at: time)
        case .toggle:
            let on: Bool
            if trackingMoved[i] {
                on = (views[i].knobTravel ?? 0) >= 0.5
            } else {
                on = inside ? !views[i].isOn : views[i].isOn
            }
            // The knob slides from where it is drawn (mid-slide, if tapped again) to its side.
            let from = toggleTravel(of: v, at: time)
            if from != (on ? 1 : 0) {
                views[i].toggleFrom = from
                views[i].toggleStart = time
            }
            views[i].knobTravel = nil
            emit(v, inside ? .touchUpInside : .touchUpOutside, at: time)
            if on != views[i].isOn {
                views[i].isOn = on
                emit(v, .toggled(on), at: time)
            }
        case .canvas, .square:
            break
        }
    }

    /// The touch is gone or a recognizer took it: the control stops and puts back what the touch changed.
    func cancelTracking(_ touch: TouchID, at time: Instant) {
        guard let v = control(tracking: touch) else { return }
        let i = v.rawValue
        tracking[i] = nil
        switch views[i].kind {
        case .button:
            views[i].isHighlighted = false
        case .slider:
            if views[i].value != trackingStartValue[i] {
                views[i].value = trackingStartValue[i]
                emit(v, .valueChanged(views[i].value), at: time)
            }
        case .toggle:
            views[i].knobTravel = nil
        case .canvas, .square:
            break
        }
        emit(v, .touchCancel, at: time)
    }
}
