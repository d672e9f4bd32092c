import KioskCore

/// The standard gestures a control keeps from the recognizers on its ancestors, as UIControl's
/// `gestureRecognizerShouldBegin` keeps them; each is named for the decision trace.
///
/// The host says it once, when a touch lands on the control (the knob is where it is then), and the
/// engine keeps it with the touch, so the answer is current whenever a recognizer asks to begin.
public struct StandardGestures: Sendable {
    /// A one-finger, one-tap tap (a button's or a switch's).
    public var oneFingerTap: StaticString?
    /// A one-finger pan or swipe that runs along the x axis (a knob dragged along its track). Kept
    /// only while the control has the touch: a recognizer that cancels the touch in view takes it back.
    public var oneFingerMovementAlongX: StaticString?

    public init(oneFingerTap: StaticString? = nil, oneFingerMovementAlongX: StaticString? = nil) {
        self.oneFingerTap = oneFingerTap
        self.oneFingerMovementAlongX = oneFingerMovementAlongX
    }

    /// The gesture of `recognizer` that the control keeps for itself, if any, for this touch.
    func claimed(by recognizer: GestureRecognizer, touch: TouchRecord) -> StaticString? {
        if let name = oneFingerTap, let tap = recognizer as? TapRecognizer,
           tap.options.tapsRequired == 1, tap.options.touchesRequired == 1 {
            return name
        }
        if let name = oneFingerMovementAlongX, !touch.cancelledInView,
           recognizer is PanRecognizer || recognizer is SwipeRecognizer, recognizer.numberOfTouches == 1 {
            let travel = touch.location - touch.startLocation
            if abs(travel.x) >= abs(travel.y) { return name }
        }
        return nil
    }
}
