import KioskCore

/// Turns decisions into the sentences a person debugging a kiosk reads.
extension GestureEngine {
    /// One line per decision: seconds since `origin`, the recognizer, what happened and why.
    public func describe(_ d: Decision, origin: Instant, viewName: (ViewID) -> String = { "view \($0.rawValue)" }) -> String {
        let time = fixedDecimal(d.time.seconds(since: origin), 3)
        let who = d.recognizer.rawValue >= 0 ? recognizer(d.recognizer).qualifiedName : ""
        func name(_ id: RecognizerID) -> String { recognizer(id).qualifiedName }
        let what: String
        switch d.kind {
        case .began: what = "\(who) began"
        case .recognized: what = "\(who) recognized"
        case .ended: what = "\(who) ended"
        case .cancelled(let reason): what = "\(who) cancelled: \(explain(reason, otherState: d.otherState, viewName: viewName))"
        case .failed(let reason): what = "\(who) failed: \(explain(reason, otherState: d.otherState, viewName: viewName))"
        case .held(let q): what = "\(who) held: waits for \(name(q)) (\(d.otherState.map { "\($0)" } ?? "possible"))"
        case .wentOn(let q): what = "\(who) goes on: \(name(q)) \(d.otherState.map { "\($0)" } ?? "failed")"
        case .simultaneous(let o, let by): what = "\(who) simultaneous with \(name(o)) (delegate of \(name(by)) said yes)"
        case .requiresFailure(let q, let placement):
            let side = switch placement {
            case .requireToFail: "require(toFail:)"
            case .shouldRequireFailureOf: "delegate of \(who): shouldRequireFailureOf"
            case .shouldBeRequiredToFailBy: "delegate of \(name(q)): shouldBeRequiredToFailBy"
            }
            what = "\(who) waits for \(name(q)) to fail (\(side))"
        case .notReceived(let t): what = "\(who) does not receive \(t) (delegate: shouldReceive said no)"
        case .ignored(let t): what = "\(who) ignores \(t): it has all the fingers it takes"
        case .cycleBroken(let q): what = "\(who) does not wait for \(name(q)): \(name(q)) already waits for it (requirement cycle)"
        case .touchDropped(let t, let capacity): what = "\(t) dropped: all \(capacity) touch slots in use"
        }
        return "\(time) \(what)"
    }

    /// The reason in words, with the numbers that decided it.
    public func explain(_ reason: FailureReason, otherState: GestureState? = nil, viewName: (ViewID) -> String = { "view \($0.rawValue)" }) -> String {
        let f = fixedDecimal
        switch reason {
        case .moved(let mm, let allowed): return "moved \(f(mm, 1)) mm > \(f(allowed, 1)) mm allowed"
        case .tooManyTouches(let n, let required): return "\(n) fingers down, takes \(required)"
        case .wrongTouchCount(let n, let required): return "lifted with \(n) finger\(n == 1 ? "" : "s"), needs \(required)"
        case .liftedEarly(let held, let required): return "lifted after \(f(held, 2)) s, needs \(f(required, 2)) s"
        case .liftedBeforeStart(let moved, let required): return "lifted after moving \(f(moved, 1)) mm, needs \(f(required, 1)) mm"
        case .liftedBeforeTurning(let turned, let required):
            return "lifted after turning \(f(abs(turned) * 180 / Double.pi, 1))°, needs \(f(required * 180 / Double.pi, 1))°"
        case .tapWindowExpired(let taps, let required, let window):
            return "tap \(taps + 1) of \(required) did not come within \(f(window, 2)) s"
        case .tapTooFar(let mm, let allowed): return "next tap \(f(mm, 1)) mm from the first > \(f(allowed, 1)) mm allowed"
        case .wrongDirection(let degrees, let allowed, let directions):
            return "moved toward \(f(degrees, 0))° (0° right, 90° down), more than \(f(allowed, 0))° off \(directions)"
        case .tooSlow(let speed, let required): return "too slow, \(f(speed, 0)) mm/s < \(f(required, 0)) mm/s needed"
        case .timedOut(let seconds): return "did not cover its distance within \(f(seconds, 2)) s"
        case .touchCancelled: return "a touch was cancelled"
        case .excluded(let by): return "\(recognizer(by).qualifiedName) \(otherState.map { "\($0)" } ?? "began") on the same touch, and neither allows both"
        case .requirementSucceeded(let q): return "waits for \(recognizer(q).qualifiedName) to fail, which \(otherState.map { "\($0)" } ?? "recognized")"
        case .delegateRefusedBegin: return "delegate's gestureRecognizerShouldBegin said no"
        case .claimedByControl(let view, let gesture): return "\(viewName(view)) keeps its standard gesture (\(gesture))"
        }
    }
}
