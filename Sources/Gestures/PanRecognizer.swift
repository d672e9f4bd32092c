import KioskCore

/// Recognizes fingers dragging, as UIPanGestureRecognizer. Continuous.
///
/// `translation` is the fingers' travel since they came down, including the hysteresis, so an
/// object moved by it stays under the finger; it stays continuous when fingers are added or lifted.
public final class PanRecognizer: GestureRecognizer {
    public var options: PanOptions
    public private(set) var translation = Point.zero
    private var tracker = VelocityTracker()

    public init(name: String = RecognizerKind.pan.rawValue, view: ViewID, viewName: String, options: PanOptions = PanOptions()) {
        self.options = options
        super.init(kind: .pan, name: name, view: view, viewName: viewName)
    }

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
