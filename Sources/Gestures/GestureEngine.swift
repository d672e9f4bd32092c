import KioskCore

/// A mistake in the gesture graph, found when it is set up.
public enum GestureSetupError: Error, Equatable, CustomStringConvertible {
    case tooManyRecognizers(limit: Int)
    /// `require(toFail:)` would make recognizers wait for each other in a circle; the names spell it out.
    case requirementCycle([String])

    public var description: String {
        switch self {
        case .tooManyRecognizers(let limit): "more than \(limit) recognizers in one engine"
        case .requirementCycle(let names): "failure requirements form a cycle: " + names.joined(separator: " → ")
        }
    }
}

/// The coordinator: delivers touches to recognizers and arbitrates between them as UIKit does.
///
/// - Touches reach the recognizers of the hit view and of all its ancestors (`GestureEngineHost.hitPath`).
/// - One gesture per touch: when a recognizer begins or recognizes, every other recognizer that
///   shares one of its touches fails, unless either side's delegate allows both at once.
///   Recognizers with no touch in common never block each other.
/// - Failure requirements (`require(_:toFail:)`, and the delegates' `shouldRequireFailureOf` /
///   `shouldBeRequiredToFailBy`, asked once per attempt): a recognizer that would begin while one it
///   waits for is still possible is held; it goes on when that one fails (by a timer too) and fails
///   when that one succeeds.
/// - When recognizers of a view and of its ancestor would begin in the same frame, the one nearer
///   the hit view goes first.
/// - Time is a parameter: `process` takes a frame with its timestamp and `advance(to:)` fires
///   timers; `nextDeadline` says when the next timer is due. Nothing here reads a clock.
///
/// After each `process` or `advance(to:)`, `outputs` holds what happened, in order, with the touches
/// that began and on which view: the host learns of touches from the outputs, never from `touches`.
/// The steady state (fingers moving) allocates nothing: storage is reserved up front.
public final class GestureEngine {
    public let metrics: PanelMetrics
    public private(set) var recognizers: [GestureRecognizer] = []
    /// The fingers down, the engine's own: its host learns of touches from `outputs` and the frames.
    var touches: TouchTable
    public weak var host: (any GestureEngineHost)?
    public let trace: DecisionTrace
    /// What the last `process` or `advance(to:)` produced.
    public internal(set) var outputs: [EngineOutput] = []
    /// Touches dropped because every slot was in use.
    public private(set) var droppedTouchCount = 0
    /// Moves or lifts of touches the engine never saw begin.
    public private(set) var unknownTouchCount = 0

    /// The coordinator's bookkeeping for each recognizer, indexed by its id.
    var members: [ArenaMember] = []
    /// Recognizers with a touch that changed in this frame: their `update` is due.
    private var dirty = RecognizerMask()
    private var recognizersByView: [[RecognizerID]] = []
    private var path: [ViewID] = []
    /// Recognizers that asked for a transition in this round, in the order they are carried out.
    var requesters: [RecognizerID] = []
    private var finalSlots: [Int] = []
    /// Slots of the touches that began in this frame, for the `.touchBegan` outputs.
    private var beganSlots: [Int] = []

    public init(metrics: PanelMetrics = .raspberryPi7Inch, touchCapacity: Int = 20, trace: DecisionTrace = DecisionTrace()) {
        self.metrics = metrics
        self.trace = trace
        touches = TouchTable(capacity: touchCapacity)
        outputs.reserveCapacity(256)
        path.reserveCapacity(32)
        requesters.reserveCapacity(RecognizerMask.capacity)
        members.reserveCapacity(RecognizerMask.capacity)
        finalSlots.reserveCapacity(touchCapacity)
        beganSlots.reserveCapacity(touchCapacity)
    }

    // MARK: Setup

    /// Attaches a recognizer to its view; its order of addition breaks ties in arbitration.
    @discardableResult
    public func add(_ recognizer: GestureRecognizer) throws(GestureSetupError) -> RecognizerID {
        guard recognizers.count < RecognizerMask.capacity else {
            throw .tooManyRecognizers(limit: RecognizerMask.capacity)
        }
        recognizer.id = RecognizerID(recognizers.count)
        recognizer.metrics = metrics
        recognizers.append(recognizer)
        members.append(ArenaMember())
        let v = recognizer.view.rawValue
        if v >= recognizersByView.count {
            recognizersByView.append(contentsOf: Array(repeating: [], count: v + 1 - recognizersByView.count))
        }
        recognizersByView[v].append(recognizer.id)
        return recognizer.id
    }

    /// `recognizer` waits for `other` to fail before it begins (UIKit's `require(toFail:)`).
    /// Throws when this would close a cycle of requirements.
    public func require(_ recognizer: GestureRecognizer, toFail other: GestureRecognizer) throws(GestureSetupError) {
        if let cycle = staticPath(from: other.id, to: recognizer.id) {
            throw .requirementCycle(([recognizer.id] + cycle).map { recognizers[$0.rawValue].qualifiedName })
        }
        members[recognizer.id.rawValue].staticRequirements.insert(other.id)
    }

    /// A path of static requirements from `start` to `goal`, if there is one.
    private func staticPath(from start: RecognizerID, to goal: RecognizerID) -> [RecognizerID]? {
        if start == goal { return [start] }
        var seen = RecognizerMask()
        func visit(_ id: RecognizerID) -> [RecognizerID]? {
            if id == goal { return [id] }
            if seen.contains(id) { return nil }
            seen.insert(id)
            for next in members[id.rawValue].staticRequirements {
                if let rest = visit(next) { return [id] + rest }
            }
            return nil
        }
        return visit(start)
    }

    public func recognizer(_ id: RecognizerID) -> GestureRecognizer { recognizers[id.rawValue] }

    /// The earliest timer due: a long press, a multi-tap window, a swipe's time limit.
    public var nextDeadline: Instant? {
        var best: Instant?
        for r in recognizers {
            if let d = r.deadline, best.map({ d < $0 }) ?? true { best = d }
        }
        return best
    }

    // MARK: Running

    /// Fires the timers due up to `now`, each at its own time.
    public func advance(to now: Instant) {
        outputs.removeAll(keepingCapacity: true)
        runTimers(through: now)
    }

    /// Fires the timers due before the frame, then delivers the frame's touches and arbitrates.
    public func process(_ frame: TouchFrame) {
        outputs.removeAll(keepingCapacity: true)
        runTimers(through: frame.time)
        let now = frame.time
        for i in 0..<touches.capacity where touches[i].inUse {
            touches[i].phase = .stationary
            touches[i].previousLocation = touches[i].location
        }
        for touch in frame.touches {
            if touch.phase == .began {
                begin(touch, now: now)
                continue
            }
            guard let slot = touches.slot(of: touch.id) else {
                unknownTouchCount += 1
                continue
            }
            touches[slot].location = touch.location
            touches[slot].phase = touch.phase
            if touch.phase.isFinal { finalSlots.append(slot) }
            if touch.phase != .stationary || touches[slot].location != touches[slot].previousLocation {
                dirty = dirty.union(touches[slot].receivers)
            }
        }
        for id in dirty {
            let r = recognizers[id.rawValue]
            guard !r.state.isFinished else { continue }
            r.update(touches, now: now)
            if r.request != nil { requesters.append(id) }
        }
        dirty.removeAll()
        resolve(now: now)
        for slot in beganSlots where touches[slot].hitView.rawValue >= 0 && !touches[slot].cancelledInView {
            outputs.append(.touchBegan(touches[slot].id, view: touches[slot].hitView, time: now))
        }
        beganSlots.removeAll(keepingCapacity: true)
        for slot in finalSlots {
            for id in touches[slot].receivers {
                let r = recognizers[id.rawValue]
                if let k = r.touchSlots.firstIndex(of: slot) { r.touchSlots.remove(at: k) }
            }
            touches.free(slot)
        }
        finalSlots.removeAll(keepingCapacity: true)
        resetFinished()
    }

    /// Cancels every touch, as when the input device goes away: continuous gestures are
    /// cancelled and the others fail. Hit views are not told (no recognizer begins on a
    /// cancelled touch): the host stops its controls' tracking itself.
    public func cancelAllTouches(at now: Instant) {
        var frame = TouchFrame(time: now)
        for i in 0..<touches.capacity where touches[i].inUse {
            frame.touches.append(Touch(id: touches[i].id, phase: .cancelled, location: touches[i].location))
        }
        process(frame)
    }

    // MARK: Delivery

    private func begin(_ touch: Touch, now: Instant) {
        guard let slot = touches.allocate() else {
            droppedTouchCount += 1
            trace.record(now, RecognizerID(-1), .touchDropped(touch.id, capacity: touches.capacity))
            return
        }
        var record = touches[slot]
        record.id = touch.id
        record.phase = .began
        record.location = touch.location
        record.previousLocation = touch.location
        record.startLocation = touch.location
        record.startTime = now
        path.removeAll(keepingCapacity: true)
        host?.hitPath(at: touch.location, into: &path)
        record.hitView = path.first ?? ViewID(-1)
        if let hit = path.first, let host { record.standardGestures = host.standardGestures(of: hit, touchAt: touch.location) }
        beganSlots.append(slot)
        for (depth, view) in path.enumerated() where view.rawValue >= 0 && view.rawValue < recognizersByView.count {
            for id in recognizersByView[view.rawValue] {
                let r = recognizers[id.rawValue]
                // A finished recognizer sees no new touch until it resets; a held discrete one has done its part.
                guard r.isEnabled, !r.state.isFinished, !(members[id.rawValue].attempt.isHeld && !r.isContinuous) else { continue }
                guard r.acceptsNewTouch() else {
                    trace.record(now, id, .ignored(touch.id))
                    continue
                }
                if let d = r.delegate, !d.gestureRecognizer(r, shouldReceive: record) {
                    trace.record(now, id, .notReceived(touch.id))
                    continue
                }
                if !members[id.rawValue].attempt.started {
                    members[id.rawValue].attempt.started = true
                    members[id.rawValue].attempt.depth = depth
                }
                r.touchSlots.append(slot)
                dirty.insert(id)
                record.receivers.insert(id)
            }
        }
        touches[slot] = record
        // The delegates' failure requirements, asked once per pair and attempt, when the two first share a touch.
        for a in record.receivers {
            for b in record.receivers where a != b { askRequirement(recognizers[a.rawValue], recognizers[b.rawValue], now: now) }
        }
    }

    private func askRequirement(_ a: GestureRecognizer, _ b: GestureRecognizer, now: Instant) {
        guard !members[a.id.rawValue].attempt.askedAbout.contains(b.id) else { return }
        members[a.id.rawValue].attempt.askedAbout.insert(b.id)
        if let d = a.delegate, d.gestureRecognizer(a, shouldRequireFailureOf: b) {
            members[a.id.rawValue].attempt.dynamicRequirements.insert(b.id)
            trace.record(now, a.id, .requiresFailure(of: b.id, placement: .shouldRequireFailureOf))
        } else if let d = b.delegate, d.gestureRecognizer(b, shouldBeRequiredToFailBy: a) {
            members[a.id.rawValue].attempt.dynamicRequirements.insert(b.id)
            trace.record(now, a.id, .requiresFailure(of: b.id, placement: .shouldBeRequiredToFailBy))
        }
    }
}
