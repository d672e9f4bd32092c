import KioskCore

/// Touches asked for from outside (adb's `input tap` and `input swipe`), played as one finger's
/// frames on the loop's clock: one gesture after another, each frame at its own time.
///
/// Bounded: at most `capacity` gestures wait; more are refused, never queued without end.
struct SyntheticTouches {
    /// One frame of the finger: when (seconds after the gesture starts), what, where.
    struct Step: Equatable {
        var offset: Double
        var phase: TouchPhase
        var location: Point
    }

    struct Gesture: Equatable {
        var steps: [Step]
        var source: ChangeSource
        /// When it was asked for: it starts then, or when the one before it has lifted.
        var requested: Instant
    }

    static let capacity = 16
    /// Frames a second while a swipe moves, about what a touch controller reports.
    static let framesPerSecond = 60.0
    /// How long a tap's finger stays down.
    static let tapSeconds = 0.05
    /// The longest swipe taken.
    static let maximumSwipeSeconds = 10.0
    /// Synthetic touches are numbered far above the panel's, so the two never meet in the engine.
    static let firstTouchID = 1 << 48

    private(set) var queue: [Gesture] = []
    /// When the gesture at the head started, once its first frame is out.
    private var start: Instant?
    private var nextStep = 0
    private var touch = TouchID(firstTouchID)
    private var lastEnd: Instant?

    /// True while the synthetic finger is on the glass.
    var isDown: Bool { start != nil }

    /// A tap at `p`: down, then up `tapSeconds` later.
    static func tap(at p: Point, source: ChangeSource, now: Instant) -> Gesture {
        Gesture(steps: [Step(offset: 0, phase: .began, location: p), Step(offset: tapSeconds, phase: .ended, location: p)],
                source: source, requested: now)
    }

    /// A straight swipe from `a` to `b` over `seconds`, a frame every 1/60 s, lifted at `b`.
    static func swipe(from a: Point, to b: Point, seconds: Double, source: ChangeSource, now: Instant) -> Gesture {
        let frames = max(1, Int((seconds * framesPerSecond).rounded()))
        var steps = [Step(offset: 0, phase: .began, location: a)]
        for k in 1...frames {
            let f = Double(k) / Double(frames)
            steps.append(Step(offset: seconds * f, phase: .moved, location: Point(x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f)))
        }
        steps.append(Step(offset: seconds + 1 / framesPerSecond, phase: .ended, location: b))
        return Gesture(steps: steps, source: source, requested: now)
    }

    /// Queues `gesture`; false when `capacity` gestures already wait.
    mutating func enqueue(_ gesture: Gesture) -> Bool {
        guard queue.count < Self.capacity else { return false }
        queue.append(gesture)
        return true
    }

    /// When the next frame is due; nil when nothing waits.
    var nextDeadline: Instant? {
        guard let head = queue.first else { return nil }
        let begins = start ?? startTime(of: head)
        return begins.adding(seconds: head.steps[nextStep].offset)
    }

    private func startTime(of g: Gesture) -> Instant {
        // A frame apart from the lift before it: two taps asked for at once are two taps.
        guard let lastEnd else { return g.requested }
        return max(g.requested, lastEnd.adding(seconds: 1 / Self.framesPerSecond))
    }

    /// The next frame due by `now`, and who asked for it; nil when none is due.
    mutating func nextFrame(dueBy now: Instant) -> (frame: TouchFrame, source: ChangeSource)? {
        guard let due = nextDeadline, due <= now, let head = queue.first else { return nil }
        if start == nil {
            start = startTime(of: head)
            touch = TouchID(touch.rawValue + 1)
        }
        let step = head.steps[nextStep]
        let frame = TouchFrame(time: due, touches: [Touch(id: touch, phase: step.phase, location: step.location)])
        nextStep += 1
        if nextStep == head.steps.count {
            queue.removeFirst()
            start = nil
            nextStep = 0
            lastEnd = due
        }
        return (frame, head.source)
    }
}
