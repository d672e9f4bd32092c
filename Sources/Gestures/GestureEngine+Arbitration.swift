import KioskCore

/// The coordinator's rules: which requests of a round are carried out, in what order, and what
/// each does to the others (exclusivity, failure requirements, delegates, controls).
extension GestureEngine {
    /// Fires the timers due up to `limit`, earliest first, each at its own time, and settles what each asks.
    func runTimers(through limit: Instant) {
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
    func resolve(now: Instant) {
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
                if r.state.isActive {
                    transition(r, to: .ended, now: now)
                } else if members[r.id.rawValue].attempt.isHeld {
                    members[r.id.rawValue].attempt.endAfterBegin = true
                }
            case .begin, .recognize:
                attemptToBegin(r, now: now)
            case .beginAndEnd:
                // Released earlier in this round by a requirement that failed: it only has to end now.
                if r.state.isActive { transition(r, to: .ended, now: now); continue }
                members[r.id.rawValue].attempt.endAfterBegin = true
                attemptToBegin(r, now: now)
            }
        }
        requesters.removeAll(keepingCapacity: true)
    }

    private func goesFirst(_ a: RecognizerID, _ b: RecognizerID) -> Bool {
        let da = members[a.rawValue].attempt.depth, db = members[b.rawValue].attempt.depth
        return da != db ? da < db : a < b
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

    /// The recognizers `id` waits for to fail in this attempt: set up front, or by the delegates.
    private func requirements(of id: RecognizerID) -> RecognizerMask {
        members[id.rawValue].staticRequirements.union(members[id.rawValue].attempt.dynamicRequirements)
    }

    /// True when `from` waits, directly or through others that are held, for `to`.
    private func waits(_ from: RecognizerID, for to: RecognizerID, depth: Int = 0) -> Bool {
        guard depth < RecognizerMask.capacity else { return false }
        for q in requirements(of: from) {
            if q == to { return true }
            if members[q.rawValue].attempt.isHeld, waits(q, for: to, depth: depth + 1) { return true }
        }
        return false
    }

    private func attemptToBegin(_ r: GestureRecognizer, now: Instant) {
        guard r.state == .possible else { return }
        // Failure requirements: hold while one is possible, fail if one succeeded.
        for q in requirements(of: r.id) {
            let rq = recognizers[q.rawValue]
            if rq.state.hasSucceeded { return fail(r, .requirementSucceeded(q), now: now) }
            // A recognizer with no attempt under way is not part of these touches: nothing to wait for.
            guard rq.state == .possible, members[q.rawValue].attempt.started else { continue }
            if waits(q, for: r.id) {
                trace.record(now, r.id, .cycleBroken(with: q))
                continue
            }
            if members[r.id.rawValue].attempt.hold != .heldOn(q) { trace.record(now, r.id, .held(waitingFor: q), other: rq.state) }
            members[r.id.rawValue].attempt.hold = .heldOn(q)
            return
        }
        if case .heldOn(let q) = members[r.id.rawValue].attempt.hold {
            trace.record(now, r.id, .wentOn(after: q), other: recognizers[q.rawValue].state)
        }
        members[r.id.rawValue].attempt.hold = .free
        // Exclusivity with gestures already under way on the same touches.
        let others = sharing(r)
        for o in others {
            let ro = recognizers[o.rawValue]
            guard ro.state.isActive else { continue }
            guard let allowedBy = simultaneity(r, ro) else { return fail(r, .excluded(by: o), now: now) }
            trace.record(now, r.id, .simultaneous(with: o, allowedBy: allowedBy))
        }
        if let d = r.delegate, !d.gestureRecognizerShouldBegin(r) { return fail(r, .delegateRefusedBegin, now: now) }
        for s in r.touchSlots where touches[s].hitView != r.view {
            if let gesture = touches[s].standardGestures.claimed(by: r, touch: touches[s]) {
                return fail(r, .claimedByControl(view: touches[s].hitView, gesture: gesture), now: now)
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
        if members[r.id.rawValue].attempt.endAfterBegin, r.isContinuous {
            members[r.id.rawValue].attempt.endAfterBegin = false
            transition(r, to: .ended, now: now)
        }
    }

    private func fail(_ r: GestureRecognizer, _ reason: FailureReason, now: Instant) {
        guard r.state == .possible else {
            if r.state.isActive { transition(r, to: .cancelled, now: now, reason: reason) }
            return
        }
        members[r.id.rawValue].attempt.hold = .free
        members[r.id.rawValue].attempt.endAfterBegin = false
        r.request = nil
        r.deadline = nil
        r.state = .failed
        trace.record(now, r.id, .failed(reason), other: Self.other(in: reason).map { recognizers[$0.rawValue].state })
        settleWaiters(of: r.id, now: now)
    }

    /// Held recognizers that wait for `q` look again: they go on, keep waiting, or fail.
    private func settleWaiters(of q: RecognizerID, now: Instant) {
        for w in recognizers where members[w.id.rawValue].attempt.isHeld && requirements(of: w.id).contains(q) {
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

    /// Recognizers that finished and hold no touch start over: the one place an attempt resets.
    func resetFinished() {
        for r in recognizers where r.state.isFinished && r.touchSlots.isEmpty {
            r.reset()
            members[r.id.rawValue].attempt = Attempt()
        }
    }
}
