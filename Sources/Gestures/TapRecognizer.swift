import Geometry

/// Recognizes one or more taps with a number of fingers, as UITapGestureRecognizer. Discrete.
public final class TapRecognizer: GestureRecognizer {
    public var options: TapOptions
    /// Taps completed in this attempt.
    public private(set) var tapsCounted = 0
    private var touchesInThisTap = 0
    private var firstTapLocation: Point?

    public init(name: String = "tap", view: ViewID, viewName: String, options: TapOptions = TapOptions()) {
        self.options = options
        super.init(name: name, view: view, viewName: viewName)
    }

    override public var kindName: String { "tap" }

    override func update(_ touches: TouchTable, now: Instant) {
        if anyTouch(touches, in: .cancelled) { return requestTransition(.fail(.touchCancelled)) }
        if anyTouch(touches, in: .began) {
            deadline = nil
            if touchesInThisTap == 0, tapsCounted > 0, let first = firstTapLocation {
                let d = millimetres(centroid(touches).distance(to: first))
                if d > options.multiTapDistanceMillimetres {
                    return requestTransition(.fail(.tapTooFar(millimetres: d, allowed: options.multiTapDistanceMillimetres)))
                }
            }
        }
        touchesInThisTap = max(touchesInThisTap, touchSlots.count)
        if touchesInThisTap > options.touchesRequired {
            return requestTransition(.fail(.tooManyTouches(count: touchesInThisTap, required: options.touchesRequired)))
        }
        let moved = largestMovement(touches)
        if moved > options.allowableMovementMillimetres {
            return requestTransition(.fail(.moved(millimetres: moved, allowed: options.allowableMovementMillimetres)))
        }
        location = centroid(touches)
        guard touchesDown(touches) == 0 else { return }
        if touchesInThisTap != options.touchesRequired {
            return requestTransition(.fail(.wrongTouchCount(count: touchesInThisTap, required: options.touchesRequired)))
        }
        tapsCounted += 1
        touchesInThisTap = 0
        if firstTapLocation == nil { firstTapLocation = location }
        if tapsCounted >= options.tapsRequired {
            requestTransition(.recognize)
        } else {
            deadline = now.adding(seconds: options.multiTapIntervalSeconds)
        }
    }

    override func timerFired(now: Instant) {
        requestTransition(.fail(.tapWindowExpired(
            taps: tapsCounted, required: options.tapsRequired, windowSeconds: options.multiTapIntervalSeconds)))
    }

    override func resetLogic() {
        tapsCounted = 0
        touchesInThisTap = 0
        firstTapLocation = nil
    }

    override func fill(_ event: inout GestureEvent) {
        event.location = location
        event.taps = tapsCounted
    }
}

/// Recognizes fingers held still for a while, as UILongPressGestureRecognizer. Continuous: it
/// begins when the press is long enough, changes as the fingers move, and ends when they lift.
public final class LongPressRecognizer: GestureRecognizer {
    public var options: LongPressOptions
    private var tapsDone = 0
    private var pressStart: Instant?

    public init(name: String = "long_press", view: ViewID, viewName: String, options: LongPressOptions = LongPressOptions()) {
        self.options = options
        super.init(name: name, view: view, viewName: viewName)
    }

    override public var kindName: String { "long_press" }
    override public var isContinuous: Bool { true }

    override func update(_ touches: TouchTable, now: Instant) {
        if anyTouch(touches, in: .cancelled) { return requestTransition(.cancel(.touchCancelled)) }
        if state.isActive {
            location = centroid(touches)
            if touchesDown(touches) < touchSlots.count || touchesDown(touches) == 0 {
                return requestTransition(.end)
            }
            return requestTransition(.change)
        }
        if touchSlots.count > options.touchesRequired {
            return requestTransition(.fail(.tooManyTouches(count: touchSlots.count, required: options.touchesRequired)))
        }
        let moved = largestMovement(touches)
        if moved > options.allowableMovementMillimetres {
            return requestTransition(.fail(.moved(millimetres: moved, allowed: options.allowableMovementMillimetres)))
        }
        location = centroid(touches)
        let down = touchesDown(touches)
        if tapsDone < options.tapsRequired {
            // The taps before the press: each lift counts one and opens the window for the next.
            deadline = down == 0 ? now.adding(seconds: options.multiTapIntervalSeconds) : nil
            if down == 0 { tapsDone += 1 }
            return
        }
        if down < touchSlots.count, let start = pressStart {
            return requestTransition(.fail(.liftedEarly(
                heldSeconds: now.seconds(since: start), required: options.minimumPressDurationSeconds)))
        }
        if down == 0 {
            return requestTransition(.fail(.liftedEarly(heldSeconds: 0, required: options.minimumPressDurationSeconds)))
        }
        if down == options.touchesRequired, pressStart == nil {
            pressStart = now
            deadline = now.adding(seconds: options.minimumPressDurationSeconds)
        }
    }

    override func timerFired(now: Instant) {
        if pressStart == nil {
            return requestTransition(.fail(.tapWindowExpired(
                taps: tapsDone, required: options.tapsRequired, windowSeconds: options.multiTapIntervalSeconds)))
        }
        requestTransition(.begin)
    }

    override func resetLogic() {
        tapsDone = 0
        pressStart = nil
    }
}
