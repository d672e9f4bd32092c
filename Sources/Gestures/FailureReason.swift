import KioskCore

/// Why a recognizer failed or was cancelled, kept as data so recording it costs nothing and
/// turned into words only when the decision trace is printed.
public enum FailureReason: Hashable, Sendable {
    /// The finger moved farther than the gesture allows.
    case moved(millimetres: Double, allowed: Double)
    /// More fingers came down than the gesture takes.
    case tooManyTouches(count: Int, required: Int)
    /// The fingers lifted with a different count than the gesture needs.
    case wrongTouchCount(count: Int, required: Int)
    /// The fingers lifted before the press lasted long enough.
    case liftedEarly(heldSeconds: Double, required: Double)
    /// The fingers lifted before the gesture started.
    case liftedBeforeStart(movedMillimetres: Double, required: Double)
    /// The fingers lifted before they turned far enough for a rotation.
    case liftedBeforeTurning(radians: Double, required: Double)
    /// The next tap of a multi-tap did not come in time.
    case tapWindowExpired(taps: Int, required: Int, windowSeconds: Double)
    /// The next tap of a multi-tap landed too far from the first.
    case tapTooFar(millimetres: Double, allowed: Double)
    /// A swipe went in a direction it does not take.
    case wrongDirection(degrees: Double, allowedDegrees: Double, directions: SwipeDirections)
    /// A swipe was too slow.
    case tooSlow(millimetresPerSecond: Double, required: Double)
    /// A swipe did not cover its distance in time.
    case timedOut(seconds: Double)
    /// One of its touches was cancelled (device gone, or the host cancelled it).
    case touchCancelled
    /// Another recognizer on the same touches began or recognized, and neither allowed both.
    case excluded(by: RecognizerID)
    /// A recognizer it waits for (a failure requirement) succeeded.
    case requirementSucceeded(RecognizerID)
    /// Its delegate's gestureRecognizerShouldBegin said no.
    case delegateRefusedBegin
    /// The touched control keeps this gesture for itself (UIControl's standard gestures).
    case claimedByControl(view: ViewID, gesture: StaticString)

    public static func == (a: FailureReason, b: FailureReason) -> Bool { a.hashKey == b.hashKey }
    public func hash(into hasher: inout Hasher) { hasher.combine(hashKey) }

    // StaticString is neither Hashable nor Equatable; compare through its text.
    private var hashKey: String {
        if case .claimedByControl(let view, let gesture) = self { return "claimed \(view.rawValue) \(gesture)" }
        return String(describing: self)
    }
}
