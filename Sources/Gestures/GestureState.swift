/// A recognizer's state, as UIGestureRecognizer.State.
///
/// Discrete gestures go possible → recognized; continuous ones possible → began → changed… →
/// ended or cancelled; either may go possible → failed. A recognizer returns to possible (reset)
/// once it has finished and none of its touches is down any more.
public enum GestureState: UInt8, Hashable, Sendable, CustomStringConvertible {
    case possible, began, changed, ended, cancelled, failed, recognized

    /// Began or changed: a continuous gesture under way.
    public var isActive: Bool { self == .began || self == .changed }

    /// Ended, cancelled, failed or recognized: nothing more happens until reset.
    public var isFinished: Bool { self == .ended || self == .cancelled || self == .failed || self == .recognized }

    /// Began, changed, ended or recognized: the gesture happened, so those that wait for it to fail fail.
    public var hasSucceeded: Bool { isActive || self == .ended || self == .recognized }

    public var description: String {
        switch self {
        case .possible: "possible"
        case .began: "began"
        case .changed: "changed"
        case .ended: "ended"
        case .cancelled: "cancelled"
        case .failed: "failed"
        case .recognized: "recognized"
        }
    }
}
