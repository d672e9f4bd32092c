import KioskCore

/// Recognizes a quick flick in one of its directions, as UISwipeGestureRecognizer. Discrete.
///
/// It needs distance and speed: the fingers must travel `minimumDistanceMillimetres` along an
/// allowed direction (within `maximumAngleDegrees`), at `minimumSpeedMillimetresPerSecond` or more,
/// within `maximumDurationSeconds` of touch-down. It fails as soon as the travel is clearly too
/// slow or off direction, so a recognizer waiting for it (a pan) is not held longer than needed.
public final class SwipeRecognizer: GestureRecognizer {
    public var options: SwipeOptions
    public private(set) var recognizedDirection: SwipeDirections = []
    private var translation = Point.zero
    private var tracker = VelocityTracker()
    private var startTime: Instant?

    public init(name: String = RecognizerKind.swipe.rawValue, view: ViewID, viewName: String, options: SwipeOptions = SwipeOptions()) {
        self.options = options
        super.init(kind: .swipe, name: name, view: view, viewName: viewName)
    }

    /// Below this travel, direction and speed are not judged: it is finger jitter.
    private var slopMillimetres: Double { GestureConstants.panHysteresisMillimetres }

    override func update(_ touches: TouchTable, now: Instant) {
        if anyTouch(touches, in: .cancelled) { return requestTransition(.fail(.touchCancelled)) }
        if touchSlots.count > options.touchesRequired {
            return requestTransition(.fail(.tooManyTouches(count: touchSlots.count, required: options.touchesRequired)))
        }
        if startTime == nil {
            startTime = now
            deadline = now.adding(seconds: options.maximumDurationSeconds)
            tracker.add(Point.zero, at: now)
        }
        translation += centroidStep(touches)
        tracker.add(translation, at: now)
        location = centroid(touches)
        let travelled = millimetres(translation.length)
        if touchesDown(touches) < touchSlots.count {
            return requestTransition(.fail(.liftedBeforeStart(movedMillimetres: travelled, required: options.minimumDistanceMillimetres)))
        }
        guard touchSlots.count == options.touchesRequired, travelled >= slopMillimetres else { return }

        // The allowed direction nearest to the travel.
        let travelAngle = _atan2(translation.y, translation.x)
        var best: SwipeDirections = []
        var bestOff = Double.infinity
        for (_, direction) in SwipeDirections.named where options.directions.contains(direction) {
            let off = abs(normalizedAngle(travelAngle - Self.angle(of: direction)))
            if off < bestOff {
                bestOff = off
                best = direction
            }
        }
        let offDegrees = bestOff * 180 / Double.pi
        if offDegrees > options.maximumAngleDegrees {
            return requestTransition(.fail(.wrongDirection(
                degrees: travelAngle * 180 / Double.pi, allowedDegrees: options.maximumAngleDegrees, directions: options.directions)))
        }
        let unit = Point(x: _cos(Self.angle(of: best)), y: _sin(Self.angle(of: best)))
        let along = millimetres(translation.x * unit.x + translation.y * unit.y)
        // With three samples in the window the fitted velocity is trustworthy enough to fail on;
        // with fewer, fall back to the mean speed since touch-down.
        let v = tracker.velocity
        let fitted = millimetres(v.x * unit.x + v.y * unit.y)
        let elapsed = max(now.seconds(since: startTime ?? now), 1e-3)
        let speed = tracker.samplesInWindow >= 3 ? fitted : along / elapsed
        if speed < options.minimumSpeedMillimetresPerSecond {
            if tracker.samplesInWindow >= 3 || along >= options.minimumDistanceMillimetres {
                return requestTransition(.fail(.tooSlow(
                    millimetresPerSecond: speed, required: options.minimumSpeedMillimetresPerSecond)))
            }
            return
        }
        if along >= options.minimumDistanceMillimetres {
            recognizedDirection = best
            deadline = nil
            requestTransition(.recognize)
        }
    }

    override func timerFired(now: Instant) {
        requestTransition(.fail(.timedOut(seconds: options.maximumDurationSeconds)))
    }

    override func resetLogic() {
        translation = .zero
        tracker.reset()
        startTime = nil
        recognizedDirection = []
    }

    override func fill(_ event: inout GestureEvent) {
        event.location = location
        event.direction = recognizedDirection
        event.translation = translation
        event.velocity = tracker.velocity
    }

    /// The screen angle of a direction: right 0, down pi/2 (y points down).
    static func angle(of direction: SwipeDirections) -> Double {
        switch direction {
        case .left: Double.pi
        case .up: -Double.pi / 2
        case .down: Double.pi / 2
        default: 0
        }
    }
}
