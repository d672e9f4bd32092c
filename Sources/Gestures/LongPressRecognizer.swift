import KioskCore

/// Recognizes fingers held still for a while, as UILongPressGestureRecognizer. Continuous: it
/// begins when the press is long enough, changes as the fingers move, and ends when they lift.
public final class LongPressRecognizer: GestureRecognizer {
    public var options: LongPressOptions
    private var tapsDone = 0
    private var pressStart: Instant?

    public init(name: String = RecognizerKind.longPress.rawValue, view: ViewID, viewName: String, options: LongPressOptions = LongPressOptions()) {
        self.options = options
        super.init(kind: .longPress, name: name, view: view, viewName: viewName)
    }

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
