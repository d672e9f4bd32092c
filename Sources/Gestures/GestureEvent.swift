import KioskCore

/// A recognizer's state change with its values at that moment. A plain value: emitting one never allocates.
public struct GestureEvent: Sendable, Equatable {
    public var time: Instant
    public var recognizer: RecognizerID
    public var state: GestureState
    /// The centroid of the recognizer's touches, screen pixels.
    public var location: Point
    /// Pan: the fingers' travel since touch-down; keeps the object under the finger.
    public var translation: Point
    /// Pan: pixels per second.
    public var velocity: Point
    /// Pinch: the distance between the fingers over what it was at the start.
    public var scale: Double
    /// Rotation: radians since the start, clockwise positive on the screen.
    public var rotation: Double
    /// Pinch: scale per second; rotation: radians per second.
    public var scalarVelocity: Double
    /// Swipe: the direction recognized.
    public var direction: SwipeDirections
    /// Tap: taps counted.
    public var taps: Int

    public init(time: Instant, recognizer: RecognizerID, state: GestureState) {
        self.time = time
        self.recognizer = recognizer
        self.state = state
        location = .zero
        translation = .zero
        velocity = .zero
        scale = 1
        rotation = 0
        scalarVelocity = 0
        direction = []
        taps = 0
    }
}

/// What the engine tells its host after a frame or a timer.
public enum EngineOutput: Sendable, Equatable {
    /// A recognizer changed state.
    case gesture(GestureEvent)
    /// A touch began on `view` (its hit view) and no recognizer cancelled it there in this frame:
    /// the view may track it. After the frame's gesture events.
    case touchBegan(TouchID, view: ViewID, time: Instant)
    /// A recognizer that cancels touches in view began or recognized with this touch: the hit
    /// view must stop tracking it (a control stops, and does not fire).
    case touchCancelledInView(TouchID, view: ViewID, time: Instant)
}
