import Display
import KioskCore

/// The display as the loop sees it, in swift-nio's style: a state whose cases carry their data,
/// events in (`mutating func`s), an action out for the loop to carry out. Nothing here touches the
/// display, the log or a clock: the loop does, and reports what came of it as the next event.
///
/// ```
///  up ──present──► flipPending ──flipDone──► up          blank: up/flipPending ─► blanked ─wake─► up/flipPending
///  up/flipPending/blanked ──failed──► down(retryAt) ──retry due: recover──► up, or down again 2 s on
///  any ──unplugged──► unplugged ──pluggedIn: recover──► up, or down(retryAt)
/// ```
struct DisplayStateMachine {
    enum State: Equatable {
        /// Drawing: the last frame is on screen.
        case up
        /// A page flip is queued; the next frame waits for its event.
        case flipPending
        /// Blanked (DPMS off) after a while without a touch; a flip queued before may still complete.
        case blanked(flipPending: Bool)
        /// A present failed (master lost, a flip refused); recovery is tried at `retryAt`, every 2 s.
        case down(retryAt: Instant)
        /// A hotplug event said nothing is connected: nothing is drawn or retried until the next one.
        case unplugged
    }

    enum Action {
        case none
        /// The frame presented has reached the screen at `at`: its inputs' latency is known.
        case frameShown(at: Instant)
        /// The display was lost: say so (once), forget the frames in flight.
        case lost(DisplayError, firstTime: Bool)
        /// Say the display is unplugged; forget the frames in flight.
        case sayUnplugged
        /// Take the display again (`FrameOutput.recover()`), and report `recovered` or `recoveryFailed`.
        case recover
        /// Back: draw a whole frame.
        case drawWhole
        /// Say the connector is still connected (a hotplug event about something else).
        case sayStillConnected
        /// Power the panel off or on (`FrameOutput.setPower`).
        case powerOff
        case powerOn
    }

    static let retryInterval = 2.0

    private(set) var state = State.up

    /// Whether the next frame may be drawn now.
    var canDraw: Bool { state == .up }

    /// Whether a page flip is queued and not yet done.
    var isFlipPending: Bool { state == .flipPending || state == .blanked(flipPending: true) }

    /// Whether the display's events are to be read (not while it is down or unplugged).
    var readsEvents: Bool {
        switch state {
        case .up, .flipPending, .blanked: true
        case .down, .unplugged: false
        }
    }

    /// When the loop must wake to retry the display; nil unless it is down.
    var retryDeadline: Instant? {
        if case .down(let at) = state { return at }
        return nil
    }

    /// The stats line's word.
    var statusWord: String {
        switch state {
        case .up, .flipPending: "on"
        case .blanked: "blank"
        case .down, .unplugged: "down"
        }
    }

    /// A frame was presented: shown at once (`shownAt`), or a flip queued (nil).
    mutating func presented(shownAt: Instant?) -> Action {
        guard state == .up else { return .none }
        guard let shownAt else {
            state = .flipPending
            return .none
        }
        return .frameShown(at: shownAt)
    }

    /// The display said a page flip completed at `time`.
    mutating func flipDone(at time: Instant) -> Action {
        switch state {
        case .flipPending:
            state = .up
            return .frameShown(at: time)
        case .blanked(flipPending: true):
            state = .blanked(flipPending: false)
            return .frameShown(at: time)
        case .up, .blanked(flipPending: false), .down, .unplugged:
            return .none
        }
    }

    /// A copy, present or the display's events failed at `now`.
    mutating func failed(_ error: DisplayError, at now: Instant) -> Action {
        switch state {
        case .unplugged:
            return .none
        case .down:
            state = .down(retryAt: now.adding(seconds: Self.retryInterval))
            return .lost(error, firstTime: false)
        case .up, .flipPending, .blanked:
            state = .down(retryAt: now.adding(seconds: Self.retryInterval))
            return .lost(error, firstTime: true)
        }
    }

    /// Time has passed: when the retry is due, try to take the display again.
    mutating func tick(at now: Instant) -> Action {
        guard case .down(let at) = state, now >= at else { return .none }
        return .recover
    }

    /// `recover()` succeeded: a whole frame is drawn.
    mutating func recovered() -> Action {
        state = .up
        return .drawWhole
    }

    /// `recover()` failed at `now`: try again in 2 s.
    mutating func recoveryFailed(at now: Instant) -> Action {
        state = .down(retryAt: now.adding(seconds: Self.retryInterval))
        return .none
    }

    /// A hotplug event said the connector has nothing connected.
    mutating func unplugged() -> Action {
        guard state != .unplugged else { return .none }
        state = .unplugged
        return .sayUnplugged
    }

    /// A hotplug event said the connector is connected.
    mutating func pluggedIn() -> Action {
        switch state {
        case .unplugged, .down: .recover
        case .up, .flipPending, .blanked: .sayStillConnected
        }
    }

    /// Blanking is due.
    mutating func blank() -> Action {
        switch state {
        case .up:
            state = .blanked(flipPending: false)
            return .powerOff
        case .flipPending:
            state = .blanked(flipPending: true)
            return .powerOff
        case .blanked, .down, .unplugged:
            return .none
        }
    }

    /// The panel could not be powered off: it stays on.
    mutating func blankRefused() {
        if case .blanked(let pending) = state { state = pending ? .flipPending : .up }
    }

    /// A touch or a reload wakes the panel.
    mutating func wake() -> Action {
        guard case .blanked(let pending) = state else { return .none }
        state = pending ? .flipPending : .up
        return .powerOn
    }
}
