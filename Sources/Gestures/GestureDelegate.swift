import KioskCore

/// The questions a recognizer's delegate answers, as UIGestureRecognizerDelegate.
/// Every method has UIKit's default answer.
public protocol GestureDelegate: AnyObject {
    /// False makes the recognizer fail instead of beginning.
    func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool
    /// False hides the touch from the recognizer for its whole life.
    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldReceive touch: TouchRecord) -> Bool
    /// A yes from either recognizer's delegate lets both recognize at once.
    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer) -> Bool
    /// Yes: `recognizer` waits for `other` to fail. Asked once per attempt.
    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldRequireFailureOf other: GestureRecognizer) -> Bool
    /// Yes: `other` waits for `recognizer` to fail. Asked once per attempt.
    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldBeRequiredToFailBy other: GestureRecognizer) -> Bool
}

extension GestureDelegate {
    public func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool { true }
    public func gestureRecognizer(_ recognizer: GestureRecognizer, shouldReceive touch: TouchRecord) -> Bool { true }
    public func gestureRecognizer(_ recognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer) -> Bool { false }
    public func gestureRecognizer(_ recognizer: GestureRecognizer, shouldRequireFailureOf other: GestureRecognizer) -> Bool { false }
    public func gestureRecognizer(_ recognizer: GestureRecognizer, shouldBeRequiredToFailBy other: GestureRecognizer) -> Bool { false }
}

/// What the engine asks of the view tree it serves.
public protocol GestureEngineHost: AnyObject {
    /// Fills `path` with the views under `point`: the hit view first, then each ancestor up to the root.
    func hitPath(at point: Point, into path: inout [ViewID])
    /// The standard gestures the hit view keeps from recognizers on its ancestors for a touch that
    /// lands at `point` (UIView's gestureRecognizerShouldBegin as a control answers it), decided as
    /// the touch lands. Asked once per touch; the engine keeps the answer with the touch.
    func standardGestures(of view: ViewID, touchAt point: Point) -> StandardGestures
}
