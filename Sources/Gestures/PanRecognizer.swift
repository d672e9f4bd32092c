import Geometry

/// Recognizes fingers dragging, as UIPanGestureRecognizer. Continuous.
///
/// `translation` is the fingers' travel since they came down, including the hysteresis, so an
/// object moved by it stays under the finger; it stays continuous when fingers are added or lifted.
public final class PanRecognizer: GestureRecognizer {
    public var options: PanOptions
    public private(set) var translation = Point.zero
    private var tracker = VelocityTracker()

    public init(name: String = "pan", view: ViewID, viewName: String, options: PanOptions = PanOptions()) {
        self.options = options
        super.init(name: name, view: view, viewName: viewName)
    }

    override public var kindName: String { "pan" }
    override public var isContinuous: Bool { true }

    /// Pixels per second, least-squares over the last 100 ms.
    public var velocity: Point { tracker.velocity }

    override func acceptsNewTouch() -> Bool {
        // Once under way, fingers beyond the maximum are ignored rather than stopping the pan.
        !(state.isActive && touchSlots.count >= options.maximumTouches)
    }

    override func update(_ touches: TouchTable, now: Instant) {
        if anyTouch(touches, in: .cancelled) { return requestTransition(.cancel(.touchCancelled)) }
        translation += centroidStep(touches)
        tracker.add(translation, at: now)
        location = centroid(touches)
        let down = touchesDown(touches)
        if state.isActive {
            return requestTransition(down < options.minimumTouches ? .end : .change)
        }
        let moved = millimetres(translation.length)
        let countFits = down >= options.minimumTouches && down <= options.maximumTouches
        if down == 0 {
            let lifted = touchSlots.count
            if moved >= options.hysteresisMillimetres, lifted >= options.minimumTouches, lifted <= options.maximumTouches {
                return requestTransition(.beginAndEnd)
            }
            return requestTransition(.fail(.liftedBeforeStart(movedMillimetres: moved, required: options.hysteresisMillimetres)))
        }
        if countFits, moved >= options.hysteresisMillimetres {
            requestTransition(.begin)
        }
    }

    override func resetLogic() {
        translation = .zero
        tracker.reset()
    }

    override func fill(_ event: inout GestureEvent) {
        event.location = location
        event.translation = translation
        event.velocity = tracker.velocity
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

/// Recognizes two fingers moving apart or together, as UIPinchGestureRecognizer. Continuous.
public final class PinchRecognizer: GestureRecognizer {
    public var options: PinchOptions
    private var fingers = TwoFingerTracker()
    private var tracker = VelocityTracker()
    private var everHadTwo = false

    public init(name: String = "pinch", view: ViewID, viewName: String, options: PinchOptions = PinchOptions()) {
        self.options = options
        super.init(name: name, view: view, viewName: viewName)
    }

    override public var kindName: String { "pinch" }
    override public var isContinuous: Bool { true }

    /// The distance between the fingers over what it was when the second came down.
    public var scale: Double { fingers.scale }

    override func acceptsNewTouch() -> Bool { touchSlots.count < 2 }

    override func update(_ touches: TouchTable, now: Instant) {
        if anyTouch(touches, in: .cancelled) { return requestTransition(.cancel(.touchCancelled)) }
        location = centroid(touches)
        let wasWaiting = fingers.needsBaseline
        let two = fingers.measure(touchSlots, touches)
        if state.isActive {
            guard two else { return requestTransition(.end) }
            tracker.add(fingers.scale, at: now)
            return requestTransition(.change)
        }
        guard two else {
            if touchesDown(touches) == 0 {
                return requestTransition(everHadTwo
                    ? .fail(.liftedBeforeStart(movedMillimetres: millimetres(abs(fingers.span - fingers.initialSpan)), required: options.hysteresisMillimetres))
                    : .fail(.wrongTouchCount(count: touchSlots.count, required: 2)))
            }
            return
        }
        everHadTwo = true
        if wasWaiting { tracker.reset() }
        tracker.add(fingers.scale, at: now)
        if millimetres(abs(fingers.span - fingers.initialSpan)) >= options.hysteresisMillimetres {
            requestTransition(.begin)
        }
    }

    override func resetLogic() {
        fingers = TwoFingerTracker()
        tracker.reset()
        everHadTwo = false
    }

    override func fill(_ event: inout GestureEvent) {
        event.location = location
        event.scale = fingers.scale
        event.scalarVelocity = tracker.scalarVelocity
    }
}

/// Recognizes two fingers turning, as UIRotationGestureRecognizer. Continuous.
/// Radians, clockwise positive on the screen (y points down).
public final class RotationRecognizer: GestureRecognizer {
    public var options: RotationOptions
    private var fingers = TwoFingerTracker()
    private var tracker = VelocityTracker()
    private var everHadTwo = false

    public init(name: String = "rotation", view: ViewID, viewName: String, options: RotationOptions = RotationOptions()) {
        self.options = options
        super.init(name: name, view: view, viewName: viewName)
    }

    override public var kindName: String { "rotation" }
    override public var isContinuous: Bool { true }

    /// Radians turned since the second finger came down, clockwise positive.
    public var rotation: Double { fingers.rotation }

    override func acceptsNewTouch() -> Bool { touchSlots.count < 2 }

    override func update(_ touches: TouchTable, now: Instant) {
        if anyTouch(touches, in: .cancelled) { return requestTransition(.cancel(.touchCancelled)) }
        location = centroid(touches)
        let wasWaiting = fingers.needsBaseline
        let two = fingers.measure(touchSlots, touches)
        if state.isActive {
            guard two else { return requestTransition(.end) }
            tracker.add(fingers.rotation, at: now)
            return requestTransition(.change)
        }
        guard two else {
            if touchesDown(touches) == 0 {
                return requestTransition(everHadTwo
                    ? .fail(.liftedBeforeTurning(radians: fingers.rotation, required: options.hysteresisRadians))
                    : .fail(.wrongTouchCount(count: touchSlots.count, required: 2)))
            }
            return
        }
        everHadTwo = true
        if wasWaiting { tracker.reset() }
        tracker.add(fingers.rotation, at: now)
        if abs(fingers.rotation) >= options.hysteresisRadians {
            requestTransition(.begin)
        }
    }

    override func resetLogic() {
        fingers = TwoFingerTracker()
        tracker.reset()
        everHadTwo = false
    }

    override func fill(_ event: inout GestureEvent) {
        event.location = location
        event.rotation = fingers.rotation
        event.scalarVelocity = tracker.scalarVelocity
    }
}
