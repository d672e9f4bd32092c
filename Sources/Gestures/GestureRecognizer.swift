import KioskCore

/// What a recognizer's logic asks the coordinator to do; the coordinator decides.
enum TransitionRequest: Equatable {
    case begin
    /// Began and ended in one frame: the fingers passed the threshold and lifted together.
    case beginAndEnd
    case recognize
    case change
    case end
    case cancel(FailureReason)
    case fail(FailureReason)
}

/// A gesture recognizer: a state machine fed with touches and time, as UIGestureRecognizer.
///
/// Recognizers are objects, not values, because the coordinator needs their identity (failure
/// requirements and delegates refer to them) and mutates them in place on every frame, which a
/// value kept in an array would copy. Their logic still follows the event-in, request-out shape:
/// `update` and `timerFired` only record a `TransitionRequest` (and set `deadline`), never call out.
/// What the coordinator keeps about each attempt (held, requirements asked...) is the engine's
/// (`ArenaMember`), not the recognizer's.
public class GestureRecognizer {
    /// What kind of recognizer it is.
    public let kind: RecognizerKind
    /// The name within its view, e.g. `pan`.
    public let name: String
    /// The name of the view it is attached to, e.g. `yellow`.
    public let viewName: String
    /// The view it is attached to.
    public let view: ViewID
    public internal(set) var id = RecognizerID(-1)
    public internal(set) var state = GestureState.possible
    /// A disabled recognizer receives no new touches.
    public var isEnabled = true
    /// When it begins or recognizes, the hit view is told its touches are cancelled (UIKit's default: true).
    public var cancelsTouchesInView = true
    public weak var delegate: (any GestureDelegate)?

    /// The centroid of its touches when it last looked, screen pixels.
    public internal(set) var location = Point.zero

    var metrics = PanelMetrics.raspberryPi7Inch
    /// Slots (in the engine's touch table) of the touches it tracks, in arrival order.
    var touchSlots: [Int] = []
    var request: TransitionRequest?
    /// When `timerFired` is due.
    var deadline: Instant?

    init(kind: RecognizerKind, name: String, view: ViewID, viewName: String) {
        self.kind = kind
        self.name = name
        self.view = view
        self.viewName = viewName
        touchSlots.reserveCapacity(16)
    }

    /// `name@view`, as the decision trace writes it.
    public var qualifiedName: String { "\(name)@\(viewName)" }

    /// Continuous gestures begin, change and end; discrete ones recognize once.
    public var isContinuous: Bool { kind.isContinuous }

    /// How many touches it tracks now.
    public var numberOfTouches: Int { touchSlots.count }

    // MARK: Logic hooks, overridden by each recognizer

    /// Called once per frame in which one of its touches began, moved, ended or was cancelled.
    func update(_ touches: TouchTable, now: Instant) {}

    /// Called when `deadline` is reached.
    func timerFired(now: Instant) {}

    /// Whether it takes one more touch (UIKit's `ignore(_:for:)` when it does not).
    func acceptsNewTouch() -> Bool { true }

    /// Back to the start of an attempt: the logic's own values.
    func resetLogic() {}

    /// Copies its current values into an event.
    func fill(_ event: inout GestureEvent) { event.location = location }

    /// Back to possible with nothing asked and no timer, ready for the next attempt.
    func reset() {
        state = .possible
        request = nil
        deadline = nil
        resetLogic()
    }

    // MARK: Helpers for the logic

    func requestTransition(_ r: TransitionRequest) {
        // A failure asked for earlier in the same frame wins over anything asked later.
        if case .fail = request { return }
        if case .cancel = request { return }
        request = r
    }

    func millimetres(_ pixels: Double) -> Double { metrics.millimetres(pixels: pixels) }
    func pixels(_ millimetres: Double) -> Double { metrics.pixels(millimetres: millimetres) }

    /// The centroid of the tracked touches that are still down, or of all tracked ones when none is.
    func centroid(_ touches: TouchTable) -> Point {
        var sum = Point.zero, n = 0.0
        for s in touchSlots where !touches[s].phase.isFinal {
            sum += touches[s].location
            n += 1
        }
        if n == 0 {
            for s in touchSlots {
                sum += touches[s].location
                n += 1
            }
        }
        return n > 0 ? sum / n : location
    }

    /// Tracked touches still down.
    func touchesDown(_ touches: TouchTable) -> Int {
        var n = 0
        for s in touchSlots where !touches[s].phase.isFinal { n += 1 }
        return n
    }

    func anyTouch(_ touches: TouchTable, in phase: TouchPhase) -> Bool {
        for s in touchSlots where touches[s].phase == phase { return true }
        return false
    }

    /// The largest distance any tracked touch has moved from where it came down, in millimetres.
    func largestMovement(_ touches: TouchTable) -> Double {
        var m = 0.0
        for s in touchSlots { m = max(m, touches[s].distanceFromStart) }
        return millimetres(m)
    }

    /// The mean movement since the last frame of the tracked touches that did not just begin:
    /// summed frame by frame, it is a translation that stays continuous when fingers come and go.
    func centroidStep(_ touches: TouchTable) -> Point {
        var sum = Point.zero, n = 0.0
        for s in touchSlots where touches[s].phase != .began {
            sum += touches[s].location - touches[s].previousLocation
            n += 1
        }
        return n > 0 ? sum / n : .zero
    }
}
