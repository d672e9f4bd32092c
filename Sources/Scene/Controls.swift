import Gestures
import KioskCore

/// A control's hold on one touch, from touch-down to lift or cancel, as UIControl tracks one.
struct ControlTracking {
    var touch: TouchID
    /// The finger's x minus the knob's center at touch-down; NaN when a switch's touch came down off its knob.
    var knobOffset = 0.0
    /// At touch-down: the slider's value, or the x of the finger on a switch.
    var startValue = 0.0
    /// The switch's knob has been dragged past the pan hysteresis.
    var moved = false

    /// Whether the switch's or slider's touch came down on its knob.
    var startedOnKnob: Bool { !knobOffset.isNaN }
}

/// The button, the slider and the switch follow the touches no recognizer took from them, as UIControl does.
extension KioskScene {
    func trackControls(_ touch: Touch, at time: Instant) {
        switch touch.phase {
        case .began:
            // The engine says which view the touch began on, unless a recognizer took it at once.
            guard let v = viewTouched(touch.id), tracking[v.rawValue] == nil else { return }
            beginTracking(v, touch, at: time)
        case .moved, .stationary:
            if let v = control(tracking: touch.id) { moveTracking(v, touch, at: time) }
        case .ended:
            if let v = control(tracking: touch.id) { endTracking(v, touch, at: time) }
        case .cancelled:
            cancelTracking(touch.id, at: time)
        }
    }

    /// The view a touch began on in the engine's last frame, from its outputs.
    private func viewTouched(_ touch: TouchID) -> ViewID? {
        for case .touchBegan(let id, let view, _) in engine.outputs where id == touch { return view }
        return nil
    }

    /// Whether a finger holds the control `id` now: from its touch-down on the control to its
    /// lift or cancel.
    public func isHeld(_ id: ViewID) -> Bool { id.rawValue < tracking.count && tracking[id.rawValue] != nil }

    private func control(tracking touch: TouchID) -> ViewID? {
        for i in tracking.indices where tracking[i]?.touch == touch { return ViewID(i) }
        return nil
    }

    func emit(_ v: ViewID, _ event: ControlEvent, at time: Instant) {
        if recordsEvents { events.append(.control(time: time, view: views[v.rawValue].name, event: event)) }
    }

    private func beginTracking(_ v: ViewID, _ touch: Touch, at time: Instant) {
        let i = v.rawValue
        let p = touch.location
        var t = ControlTracking(touch: touch.id)
        switch views[i].content {
        case .button:
            views[i].withButton { $0.isHighlighted = true }
        case .slider(let slider):
            // UISlider moves only when the finger lands on its thumb.
            guard views[i].knobContains(p) else { return }
            t.knobOffset = p.x - views[i].knobCenter().x
            t.startValue = slider.value
        case .toggle:
            t.knobOffset = views[i].knobContains(p) ? p.x - views[i].knobCenter().x : .nan
            t.startValue = p.x
        case .canvas, .square:
            return
        }
        tracking[i] = t
        emit(v, .touchDown, at: time)
    }

    /// Where the knob's center lands for a finger at `x`, as a fraction of the track.
    private func travel(_ i: Int, x: Double, knobOffset: Double) -> Double {
        let f = views[i].baseFrame, r = views[i].knobRadius
        return min(1, max(0, (x - knobOffset - f.minX - r) / max(1, f.width - 2 * r)))
    }

    private func isInside(_ i: Int, _ p: Point) -> Bool {
        views[i].baseFrame.insetBy(-views[i].trackingMarginPixels).contains(p)
    }

    private func moveTracking(_ v: ViewID, _ touch: Touch, at time: Instant) {
        let i = v.rawValue
        guard var t = tracking[i] else { return }
        switch views[i].content {
        case .button:
            let inside = isInside(i, touch.location)
            views[i].withButton { $0.isHighlighted = inside }
        case .slider(let slider):
            let value = travel(i, x: touch.location.x, knobOffset: t.knobOffset)
            if value != slider.value {
                views[i].withSlider { $0.value = value }
                emit(v, .valueChanged(value), at: time)
            }
        case .toggle:
            guard t.startedOnKnob else { return }
            if !t.moved, engine.metrics.millimetres(pixels: abs(touch.location.x - t.startValue)) >= GestureConstants.panHysteresisMillimetres {
                t.moved = true
                tracking[i] = t
            }
            if t.moved {
                let along = travel(i, x: touch.location.x, knobOffset: t.knobOffset)
                views[i].withToggle { $0.knobTravel = along }
            }
        case .canvas, .square:
            break
        }
    }

    private func endTracking(_ v: ViewID, _ touch: Touch, at time: Instant) {
        let i = v.rawValue
        guard let t = tracking[i] else { return }
        tracking[i] = nil
        let inside = isInside(i, touch.location)
        switch views[i].content {
        case .button:
            views[i].withButton {
                $0.isHighlighted = false
                if inside { $0.taps += 1 }
            }
            if inside {
                emit(v, .touchUpInside, at: time)
                emit(v, .primaryActionTriggered(taps: views[i].button?.taps ?? 0), at: time)
            } else {
                emit(v, .touchUpOutside, at: time)
            }
        case .slider:
            emit(v, inside ? .touchUpInside : .touchUpOutside, at: time)
        case .toggle(let toggle):
            let on = t.moved ? (toggle.knobTravel ?? 0) >= 0.5 : (inside ? !toggle.isOn : toggle.isOn)
            // The knob slides from where it is drawn (mid-slide, if tapped again) to its side.
            let from = Self.travel(of: toggle, at: time)
            views[i].withToggle {
                if from != (on ? 1 : 0) { $0.slide = KnobSlide(start: time, from: from) }
                $0.knobTravel = nil
            }
            emit(v, inside ? .touchUpInside : .touchUpOutside, at: time)
            if on != toggle.isOn {
                views[i].withToggle { $0.isOn = on }
                emit(v, .toggled(on), at: time)
            }
        case .canvas, .square:
            break
        }
    }

    /// The touch is gone or a recognizer took it: the control stops and puts back what the touch changed.
    func cancelTracking(_ touch: TouchID, at time: Instant) {
        guard let v = control(tracking: touch), let t = tracking[v.rawValue] else { return }
        let i = v.rawValue
        tracking[i] = nil
        switch views[i].content {
        case .button:
            views[i].withButton { $0.isHighlighted = false }
        case .slider(let slider):
            if slider.value != t.startValue {
                views[i].withSlider { $0.value = t.startValue }
                emit(v, .valueChanged(t.startValue), at: time)
            }
        case .toggle:
            views[i].withToggle { $0.knobTravel = nil }
        case .canvas, .square:
            break
        }
        emit(v, .touchCancel, at: time)
    }
}
