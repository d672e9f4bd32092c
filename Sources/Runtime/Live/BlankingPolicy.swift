import Gestures
import KioskCore

/// When the panel sleeps and how a touch wakes it.
///
/// After `blankAfter` seconds without a touch the panel is blanked. The touch that wakes it is
/// swallowed, up to the moment every finger has lifted: a sleeping kiosk must not press the
/// button that happened to be under the finger that woke it.
public struct BlankingPolicy: Sendable, Equatable {
    /// Seconds without a touch before blanking; 0: never.
    public var blankAfter: Double
    public private(set) var lastActivity: Instant
    public private(set) var isBlanked = false
    /// True from the waking touch until all its fingers are up.
    public private(set) var isSwallowing = false

    public enum Verdict: Sendable, Equatable {
        /// Deliver the frame to the scene.
        case deliver
        /// The panel was blank: wake it, and do not deliver.
        case wake
        /// Part of the waking touch: do not deliver.
        case swallow
    }

    public init(blankAfter: Double, now: Instant) {
        self.blankAfter = blankAfter
        lastActivity = now
    }

    /// When the panel is to blank, if it is on and blanking is set.
    public var deadline: Instant? {
        guard blankAfter > 0, !isBlanked else { return nil }
        return lastActivity.adding(seconds: blankAfter)
    }

    /// True when the panel should go blank now (once; the caller blanks it).
    public mutating func shouldBlank(at now: Instant) -> Bool {
        guard let deadline, now >= deadline else { return false }
        isBlanked = true
        return true
    }

    /// What to do with a frame of touches; `touchesDown` is how many fingers are on the glass after it.
    public mutating func admit(_ frame: TouchFrame, touchesDown: Int) -> Verdict {
        lastActivity = max(lastActivity, frame.time)
        if isBlanked {
            isBlanked = false
            isSwallowing = touchesDown > 0
            return .wake
        }
        if isSwallowing {
            if touchesDown == 0 { isSwallowing = false }
            return .swallow
        }
        return .deliver
    }

    /// A command blanks the panel now, as if `blankAfter` had run out; a touch wakes it.
    public mutating func blankNow() {
        isBlanked = true
        isSwallowing = false
    }

    /// Something other than a touch woke the panel (a reload): count it as activity.
    public mutating func wake(at now: Instant) {
        isBlanked = false
        lastActivity = max(lastActivity, now)
    }
}
