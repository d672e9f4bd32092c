import KioskCore

/// Clean-up for noisy panels, resistive ones mostly; each is off by default.
public struct TouchFilters: Hashable, Sendable {
    /// A touch that moves less than this many device units (on both axes) from where it was last
    /// reported stays where it was: a resting finger on a resistive panel does not wander.
    public var jitterUnits: Int32
    /// Single touch: a press counts only while `ABS_PRESSURE` is at least this, so a light brush
    /// (or a panel that reports BTN_TOUCH too eagerly) is not a touch. Nil: BTN_TOUCH alone decides.
    public var minimumPressure: Int32?
    /// Seconds a touch must last to be a touch; shorter ones are dropped whole (ghost taps, such as
    /// the phantom tap Touch Display 2 sends every 12.864 s, raspberrypi/linux#7638). 0: off.
    public var minimumTouchDuration: Double
    /// Contacts larger than this (ABS_MT_TOUCH_MAJOR, else ABS_MT_WIDTH_MAJOR) are palms or sleeves
    /// and are ignored; nil: off.
    public var maximumTouchSizeMillimetres: Double?
    /// Screen rectangles where touches never begin: bezels with edge noise.
    public var ignoreRegions: [Rect]
    /// Millimetres a screen pixel spans (the `[panel]`), for a size axis without a resolution.
    public var millimetresPerPixel: Double

    public init(jitterUnits: Int32 = 0, minimumPressure: Int32? = nil, minimumTouchDuration: Double = 0,
                maximumTouchSizeMillimetres: Double? = nil, ignoreRegions: [Rect] = [], millimetresPerPixel: Double = 0) {
        self.jitterUnits = jitterUnits
        self.minimumPressure = minimumPressure
        self.minimumTouchDuration = minimumTouchDuration
        self.maximumTouchSizeMillimetres = maximumTouchSizeMillimetres
        self.ignoreRegions = ignoreRegions
        self.millimetresPerPixel = millimetresPerPixel
    }

    public static let none = TouchFilters()

    /// True when any of the whole-touch filters (duration, size, regions) is on.
    public var dropsTouches: Bool { minimumTouchDuration > 0 || maximumTouchSizeMillimetres != nil || !ignoreRegions.isEmpty }
}

/// The whole-touch filters, on decoded frames: a touch is dropped from its beginning to its end,
/// never cut in two, so the gestures see it whole or not at all.
///
/// With a minimum duration, a touch's beginning is held back until it has lasted that long; it
/// then begins where the finger is by then, at the moment the duration was reached (`advance`
/// delivers that frame when no event comes in between: call it at `nextDeadline`). A touch that
/// grows too large after it began is cancelled, not ended, so nothing under it fires.
public struct TouchFrameFilter: Sendable {
    public struct Counters: Hashable, Sendable {
        /// Touches dropped for lasting less than the minimum duration.
        public var short = 0
        /// Touches dropped, or cancelled, for a contact larger than the maximum size.
        public var large = 0
        /// Touches that began in an ignored region.
        public var ignoredRegion = 0
        public init() {}
    }

    enum State: Sendable { case held, passing, dropped }

    struct Entry: Sendable {
        var id: TouchID
        var state: State
        var since: Instant
        var location: Point
    }

    public let filters: TouchFilters
    public private(set) var counters = Counters()
    private var entries: [Entry] = []
    private var output: [Touch] = []
    /// More touches than a panel reports at once; beyond, new touches pass unfiltered.
    static let capacity = 64

    public init(_ filters: TouchFilters, counters: Counters = Counters()) {
        self.filters = filters
        self.counters = counters
        entries.reserveCapacity(Self.capacity)
        output.reserveCapacity(Self.capacity)
    }

    /// When a held touch will have lasted long enough: the frame that begins it is due then.
    public var nextDeadline: Instant? {
        guard filters.minimumTouchDuration > 0 else { return nil }
        return entries.lazy.filter { $0.state == .held }.map { $0.since.adding(seconds: self.filters.minimumTouchDuration) }.min()
    }

    /// Begins every held touch whose duration is reached by `now`, in a frame at that moment.
    public mutating func advance(to now: Instant, _ deliver: (TouchFrame) -> Void) {
        while let due = nextDeadline, due <= now {
            output.removeAll(keepingCapacity: true)
            for i in entries.indices {
                switch entries[i].state {
                case .held where entries[i].since.adding(seconds: filters.minimumTouchDuration) <= due:
                    entries[i].state = .passing
                    output.append(Touch(id: entries[i].id, phase: .began, location: entries[i].location))
                case .passing:
                    output.append(Touch(id: entries[i].id, phase: .stationary, location: entries[i].location))
                default:
                    break
                }
            }
            deliver(TouchFrame(time: due, touches: output))
        }
    }

    /// Passes `frame` on without the touches filtered out; `sizeMillimetres` gives a touch's contact size.
    public mutating func filter(_ frame: TouchFrame, sizeMillimetres: (TouchID) -> Double?, _ deliver: (TouchFrame) -> Void) {
        advance(to: frame.time, deliver)
        output.removeAll(keepingCapacity: true)
        for touch in frame.touches {
            let oversized = filters.maximumTouchSizeMillimetres.map { limit in sizeMillimetres(touch.id).map { $0 > limit } ?? false } ?? false
            guard let i = entries.firstIndex(where: { $0.id == touch.id }) else {
                guard touch.phase == .began else {
                    output.append(touch)  // untracked: began before the filter was full
                    continue
                }
                var state = State.passing
                if filters.ignoreRegions.contains(where: { $0.contains(touch.location) }) {
                    state = .dropped
                    counters.ignoredRegion += 1
                } else if oversized {
                    state = .dropped
                    counters.large += 1
                } else if filters.minimumTouchDuration > 0 {
                    state = .held
                }
                if touch.phase.isFinal { continue }
                if entries.count < Self.capacity {
                    entries.append(Entry(id: touch.id, state: state, since: frame.time, location: touch.location))
                } else if state == .dropped {
                    continue
                }
                if state == .passing { output.append(touch) }
                continue
            }
            entries[i].location = touch.location
            switch entries[i].state {
            case .dropped:
                break
            case .passing:
                if oversized, !touch.phase.isFinal {
                    entries[i].state = .dropped
                    counters.large += 1
                    output.append(Touch(id: touch.id, phase: .cancelled, location: touch.location))
                } else {
                    output.append(touch)
                }
            case .held:
                if oversized {
                    entries[i].state = .dropped
                    counters.large += 1
                } else if touch.phase.isFinal {
                    // Lifted before the duration was reached (advance above begins those that did).
                    counters.short += 1
                } else if frame.time.seconds(since: entries[i].since) >= filters.minimumTouchDuration {
                    entries[i].state = .passing
                    output.append(Touch(id: touch.id, phase: .began, location: touch.location))
                }
            }
            if touch.phase.isFinal { entries[i].id = TouchID(-1) }
        }
        entries.removeAll { $0.id.rawValue == -1 }
        if !output.isEmpty { deliver(TouchFrame(time: frame.time, touches: output)) }
    }
}
