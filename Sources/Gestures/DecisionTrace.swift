import KioskCore

/// Which side of the delegate said a recognizer waits for another.
public enum RequirementPlacement: Sendable, Hashable {
    case requireToFail
    case shouldRequireFailureOf
    case shouldBeRequiredToFailBy
}

/// One decision of the coordinator, kept as data; words are made only when it is printed.
public struct Decision: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case began
        case recognized
        case ended
        case cancelled(FailureReason)
        case failed(FailureReason)
        /// Would begin, but waits for this recognizer to fail.
        case held(waitingFor: RecognizerID)
        /// Was held and goes on, because the recognizer it waited for failed.
        case wentOn(after: RecognizerID)
        /// Begins alongside another on the same touches, because the delegate of `allowedBy` (either side's) said yes.
        case simultaneous(with: RecognizerID, allowedBy: RecognizerID)
        /// For this attempt, waits for another to fail, as a delegate said.
        case requiresFailure(of: RecognizerID, placement: RequirementPlacement)
        /// The delegate's shouldReceive said no to this touch.
        case notReceived(TouchID)
        /// The recognizer ignores this touch (it has all the fingers it takes).
        case ignored(TouchID)
        /// Waiting would deadlock: the other already waits for this one.
        case cycleBroken(with: RecognizerID)
        /// More fingers than touch slots; this one is dropped.
        case touchDropped(TouchID, capacity: Int)
    }

    public var time: Instant
    /// The recognizer the decision is about; -1 for decisions about touches alone.
    public var recognizer: RecognizerID
    public var kind: Kind
    /// The state, at that moment, of the other recognizer the decision names (held for, excluded by…).
    public var otherState: GestureState?
}

/// Records every transition of the engine with its reason. When off, recording is one branch.
public final class DecisionTrace {
    public var isEnabled: Bool
    public private(set) var decisions: [Decision] = []

    public init(enabled: Bool = false) { isEnabled = enabled }

    @inline(__always)
    func record(_ time: Instant, _ recognizer: RecognizerID, _ kind: Decision.Kind, other: GestureState? = nil) {
        guard isEnabled else { return }
        decisions.append(Decision(time: time, recognizer: recognizer, kind: kind, otherState: other))
    }

    public func removeAll() { decisions.removeAll() }
}
