import KioskCore

/// Recognizes one or more taps with a number of fingers, as UITapGestureRecognizer. Discrete.
public final class TapRecognizer: GestureRecognizer {
    public var options: TapOptions
    /// Taps completed in this attempt.
    public private(set) var tapsCounted = 0
    private var touchesInThisTap = 0
    private var firstTapLocation: Point?

    public init(name: String = RecognizerKind.tap.rawValue, view: ViewID, viewName: String, options: TapOptions = TapOptions()) {
        self.options = options
        super.init(kind: .tap, name: name, view: view, viewName: viewName)
    }

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
