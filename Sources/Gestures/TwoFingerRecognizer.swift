import KioskCore

/// The base of the recognizers that follow two fingers, pinch and rotation: it takes two touches,
/// measures them with a `TwoFingerTracker`, and begins once the measured value passes the
/// subclass's hysteresis. Continuous.
public class TwoFingerRecognizer: GestureRecognizer {
    var fingers = TwoFingerTracker()
    var tracker = VelocityTracker()
    private var everHadTwo = false

    /// The value the velocity is tracked for: the scale or the rotation.
    var measuredValue: Double { 0 }

    /// True when the fingers have changed enough for the gesture to begin.
    var passedHysteresis: Bool { false }

    /// Why it fails when the fingers lift before it began, after two were down.
    var liftedBeforeStartReason: FailureReason { .liftedBeforeStart(movedMillimetres: 0, required: 0) }

    override func acceptsNewTouch() -> Bool { touchSlots.count < 2 }

    override func update(_ touches: TouchTable, now: Instant) {
        if anyTouch(touches, in: .cancelled) { return requestTransition(.cancel(.touchCancelled)) }
        location = centroid(touches)
        let wasWaiting = fingers.needsBaseline
        let two = fingers.measure(touchSlots, touches)
        if state.isActive {
            guard two else { return requestTransition(.end) }
            tracker.add(measuredValue, at: now)
            return requestTransition(.change)
        }
        guard two else {
            if touchesDown(touches) == 0 {
                return requestTransition(everHadTwo
                    ? .fail(liftedBeforeStartReason)
                    : .fail(.wrongTouchCount(count: touchSlots.count, required: 2)))
            }
            return
        }
        everHadTwo = true
        if wasWaiting { tracker.reset() }
        tracker.add(measuredValue, at: now)
        if passedHysteresis {
            requestTransition(.begin)
        }
    }

    override func resetLogic() {
        fingers = TwoFingerTracker()
        tracker.reset()
        everHadTwo = false
    }
}

/// The two fingers a pinch or a rotation follows: the first two it was given.
struct TwoFingerTracker {
    var needsBaseline = true
    var initialSpan = 0.0
    var span = 0.0
    var lastAngle = 0.0
    var rotation = 0.0

    /// Measures the first two tracked touches; false when fewer than two are down.
    mutating func measure(_ slots: [Int], _ touches: TouchTable) -> Bool {
        guard slots.count >= 2, !touches[slots[0]].phase.isFinal, !touches[slots[1]].phase.isFinal else {
            needsBaseline = true
            return false
        }
        let v = touches[slots[1]].location - touches[slots[0]].location
        span = v.length
        let angle = _atan2(v.y, v.x)
        if needsBaseline {
            needsBaseline = false
            initialSpan = max(span, 1)
            lastAngle = angle
            rotation = 0
        } else {
            rotation += normalizedAngle(angle - lastAngle)
            lastAngle = angle
        }
        return true
    }

    var scale: Double { span / initialSpan }
}
