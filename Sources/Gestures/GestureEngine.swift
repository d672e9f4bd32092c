import Geometry

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
/// After each `process` or `advance(to:)`, `outputs` holds what happened, in order.
/// The steady state (fingers moving) allocates nothing: storage is reserved up front.
public final class GestureEngine {
    public let metrics: PanelMetrics
    public private(set) var recognizers: [GestureRecognizer] = []
    public private(set) var touches: TouchTable
    public weak var host: (any GestureEngineHost)?
    public let trace: DecisionTrace
    /// What the last `process` or `advance(to:)` produced.
    public private(set) var outputs: [EngineOutput] = []
    /// Touches dropped because every slot was in use.
    public private(set) var droppedTouchCount = 0
    /// Moves or lifts of touches the engine never saw begin.
    public private(set) var unknownTouchCount = 0

    private var recognizersByView: [[RecognizerID]] = []
    private var path: [ViewID] = []
    private var requesters: [RecognizerID] = []
    private var finalSlots: [Int] = []

    public init(metrics: PanelMetrics = .raspberryPi7Inch, touchCapacity: Int = 20, trace: DecisionTrace = DecisionTrace()) {
        self.metrics = metrics
        self.trace = trace
        touches = TouchTable(capacity: touchCapacity)
        outputs.reserveCapacity(256)
        path.reserveCapacity(32)
        requesters.reserveCapacity(RecognizerMask.capacity)
        finalSlots.reserveCapacity(touchCapacity)
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
        recognizer.staticRequirements.insert(other.id)
    }

    /// A path of static requirements from `start` to `goal`, if there is one.
    private func staticPath(from start: RecognizerID, to goal: RecognizerID) -> [RecognizerID]? {
        if start == goal { return [start] }
        var seen = RecognizerMask()
        func visit(_ id: RecognizerID) -> [RecognizerID]? {
            if id == goal { return [id] }
            if seen.contains(id) { return nil }
            seen.insert(id)
            for next in recognizers[id.rawValue].staticRequirements {
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
                for id in touches[slot].receivers { recognizers[id.rawValue].dirty = true }
            }
        }
        for r in recognizers where r.dirty {
            r.dirty = false
            guard !r.state.isFinished else { continue }
            r.update(touches, now: now)
            if r.request != nil { requesters.append(r.id) }
        }
        resolve(now: now)
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
    /// cancelled, the others fail, and hit views are told.
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
        for (depth, view) in path.enumerated() where view.rawValue >= 0 && view.rawValue < recognizersByView.count {
            for id in recognizersByView[view.rawValue] {
                let r = recognizers[id.rawValue]
                // A finished recognizer sees no new touch until it resets; a held discrete one has done its part.
                guard r.isEnabled, !r.state.isFinished, !(r.isHeld && !r.isContinuous) else { continue }
                guard r.acceptsNewTouch() else {
                    trace.record(now, id, .ignored(touch.id))
                    continue
                }
                if let d = r.delegate, !d.gestureRecognizer(r, shouldReceive: record) {
                    trace.record(now, id, .notReceived(touch.id))
                    continue
                }
                if !r.attemptStarted {
                    r.attemptStarted = true
                    r.depth = depth
                }
                r.touchSlots.append(slot)
                r.dirty = true
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
        guard !a.askedAbout.contains(b.id) else { return }
        a.askedAbout.insert(b.id)
        if let d = a.delegate, d.gestureRecognizer(a, shouldRequireFailureOf: b) {
            a.dynamicRequirements.insert(b.id)
            trace.record(now, a.id, .requiresFailure(of: b.id, placement: .shouldRequireFailureOf))
        } else if let d = b.delegate, d.gestureRecognizer(b, shouldBeRequiredToFailBy: a) {
            a.dynamicRequirements.insert(b.id)
            trace.record(now, a.id, .requiresFailure(of: b.id, placement: .shouldBeRequiredToFailBy))
        }
    }

    // MARK: Arbitration

    private func runTimers(through limit: Instant) {
        while true {
            var due: GestureRecognizer?
            for r in recognizers {
                guard let d = r.deadline, d <= limit else { continue }
                if let best = due, let bd = best.deadline, bd <= d { continue }
                due = r
            }
            guard let r = due, let when = r.deadline else { return }
            r.deadline = nil
            r.timerFired(now: when)
            if r.request != nil { requesters.append(r.id) }
            resolve(now: when)
            resetFinished()
        }
    }

    /// Carries out the requests of this frame, nearest the hit view first, then in order of addition.
    private func resolve(now: Instant) {
        // Insertion sort: a handful of entries, and it does not allocate.
        if requesters.count > 1 {
            for i in 1..<requesters.count {
                let key = requesters[i]
                var j = i - 1
                while j >= 0, goesFirst(key, requesters[j]) {
                    requesters[j + 1] = requesters[j]
                    j -= 1
                }
                requesters[j + 1] = key
            }
        }
        var i = 0
        while i < requesters.count {
            let r = recognizers[requesters[i].rawValue]
            i += 1
            guard let request = r.request else { continue }
            r.request = nil
            switch request {
            case .fail(let reason): fail(r, reason, now: now)
            case .cancel(let reason):
                if r.state.isActive { transition(r, to: .cancelled, now: now, reason: reason) } else { fail(r, reason, now: now) }
            case .change:
                if r.state.isActive { transition(r, to: .changed, now: now) }
            case .end:
                if r.state.isActive { transition(r, to: .ended, now: now) } else if r.isHeld { r.endAfterBegin = true }
            case .begin, .recognize:
                attemptToBegin(r, now: now)
            case .beginAndEnd:
                // Released earlier in this round by a requirement that failed: it only has to end now.
                if r.state.isActive { transition(r, to: .ended, now: now); continue }
                r.endAfterBegin = true
                attemptToBegin(r, now: now)
            }
        }
        requesters.removeAll(keepingCapacity: true)
    }

    private func goesFirst(_ a: RecognizerID, _ b: RecognizerID) -> Bool {
        let ra = recognizers[a.rawValue], rb = recognizers[b.rawValue]
        return ra.depth != rb.depth ? ra.depth < rb.depth : a < b
    }

    /// The recognizers that share a touch with `r`, `r` excluded.
    private func sharing(_ r: GestureRecognizer) -> RecognizerMask {
        var m = RecognizerMask()
        for s in r.touchSlots { m = m.union(touches[s].receivers) }
        m.remove(r.id)
        return m
    }

    /// The recognizer whose delegate allows `a` and `b` at once, if either does.
    private func simultaneity(_ a: GestureRecognizer, _ b: GestureRecognizer) -> RecognizerID? {
        if let d = a.delegate, d.gestureRecognizer(a, shouldRecognizeSimultaneouslyWith: b) { return a.id }
        if let d = b.delegate, d.gestureRecognizer(b, shouldRecognizeSimultaneouslyWith: a) { return b.id }
        return nil
    }

    /// True when `from` waits, directly or through others that are held, for `to`.
    private func waits(_ from: GestureRecognizer, for to: RecognizerID, depth: Int = 0) -> Bool {
        guard depth < RecognizerMask.capacity else { return false }
        for q in from.staticRequirements.union(from.dynamicRequirements) {
            if q == to { return true }
            let rq = recognizers[q.rawValue]
            if rq.isHeld, waits(rq, for: to, depth: depth + 1) { return true }
        }
        return false
    }

    private func attemptToBegin(_ r: GestureRecognizer, now: Instant) {
        guard r.state == .possible else { return }
        // Failure requirements: hold while one is possible, fail if one succeeded.
        for q in r.staticRequirements.union(r.dynamicRequirements) {
            let rq = recognizers[q.rawValue]
            if rq.state.hasSucceeded { return fail(r, .requirementSucceeded(q), now: now) }
            // A recognizer with no attempt under way is not part of these touches: nothing to wait for.
            guard rq.state == .possible, rq.attemptStarted else { continue }
            if waits(rq, for: r.id) {
                trace.record(now, r.id, .cycleBroken(with: q))
                continue
            }
            if !r.isHeld || r.heldOn != q { trace.record(now, r.id, .held(waitingFor: q), other: rq.state) }
            r.isHeld = true
            r.heldOn = q
            return
        }
        if r.isHeld, let q = r.heldOn { trace.record(now, r.id, .wentOn(after: q), other: recognizers[q.rawValue].state) }
        r.isHeld = false
        r.heldOn = nil
        // Exclusivity with gestures already under way on the same touches.
        let others = sharing(r)
        for o in others {
            let ro = recognizers[o.rawValue]
            guard ro.state.isActive else { continue }
            guard let allowedBy = simultaneity(r, ro) else { return fail(r, .excluded(by: o), now: now) }
            trace.record(now, r.id, .simultaneous(with: o, allowedBy: allowedBy))
        }
        if let d = r.delegate, !d.gestureRecognizerShouldBegin(r) { return fail(r, .delegateRefusedBegin, now: now) }
        if let host {
            for s in r.touchSlots where touches[s].hitView != r.view {
                if let gesture = host.hitView(touches[s].hitView, claimsGestureOf: r, touch: touches[s]) {
                    return fail(r, .claimedByControl(view: touches[s].hitView, gesture: gesture), now: now)
                }
            }
        }
        transition(r, to: r.isContinuous ? .began : .recognized, now: now)
        // Those waiting for it fail first, so the trace names the requirement rather than the touch.
        settleWaiters(of: r.id, now: now)
        // The others on these touches fail, unless either side allows both.
        for o in others {
            let ro = recognizers[o.rawValue]
            if ro.state == .possible, simultaneity(r, ro) == nil { fail(ro, .excluded(by: r.id), now: now) }
        }
        if r.cancelsTouchesInView {
            for s in r.touchSlots where !touches[s].cancelledInView {
                touches[s].cancelledInView = true
                outputs.append(.touchCancelledInView(touches[s].id, view: touches[s].hitView, time: now))
            }
        }
        if r.endAfterBegin, r.isContinuous {
            r.endAfterBegin = false
            transition(r, to: .ended, now: now)
        }
    }

    private func fail(_ r: GestureRecognizer, _ reason: FailureReason, now: Instant) {
        guard r.state == .possible else {
            if r.state.isActive { transition(r, to: .cancelled, now: now, reason: reason) }
            return
        }
        r.isHeld = false
        r.heldOn = nil
        r.endAfterBegin = false
        r.request = nil
        r.deadline = nil
        r.state = .failed
        trace.record(now, r.id, .failed(reason), other: Self.other(in: reason).map { recognizers[$0.rawValue].state })
        settleWaiters(of: r.id, now: now)
    }

    /// Held recognizers that wait for `q` look again: they go on, keep waiting, or fail.
    private func settleWaiters(of q: RecognizerID, now: Instant) {
        for w in recognizers where w.isHeld && w.staticRequirements.union(w.dynamicRequirements).contains(q) {
            attemptToBegin(w, now: now)
        }
    }

    private static func other(in reason: FailureReason) -> RecognizerID? {
        switch reason {
        case .excluded(let by): by
        case .requirementSucceeded(let q): q
        default: nil
        }
    }

    private func transition(_ r: GestureRecognizer, to state: GestureState, now: Instant, reason: FailureReason? = nil) {
        r.state = state
        if state != .possible { r.deadline = state.isActive ? r.deadline : nil }
        var event = GestureEvent(time: now, recognizer: r.id, state: state)
        r.fill(&event)
        outputs.append(.gesture(event))
        switch state {
        case .began: trace.record(now, r.id, .began)
        case .recognized: trace.record(now, r.id, .recognized)
        case .ended: trace.record(now, r.id, .ended)
        case .cancelled: trace.record(now, r.id, .cancelled(reason ?? .touchCancelled))
        default: break
        }
    }

    /// Recognizers that finished and hold no touch start over.
    private func resetFinished() {
        for r in recognizers where r.state.isFinished && r.touchSlots.isEmpty {
            r.state = .possible
            r.isHeld = false
            r.heldOn = nil
            r.endAfterBegin = false
            r.request = nil
            r.deadline = nil
            r.attemptStarted = false
            r.dynamicRequirements.removeAll()
            r.askedAbout.removeAll()
            r.resetLogic()
        }
    }
}
