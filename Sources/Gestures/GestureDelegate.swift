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
    /// UIView's gestureRecognizerShouldBegin as a hit view answers it for a recognizer attached to
    /// one of its ancestors: a control names the standard gesture it keeps for itself, or returns nil.
    func hitView(_ view: ViewID, claimsGestureOf recognizer: GestureRecognizer, touch: TouchRecord) -> StaticString?
}
