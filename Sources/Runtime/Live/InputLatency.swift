import KioskCore

/// The kernel timestamps of the inputs delivered, followed to the page flip that showed their
/// effect: pending (delivered, not drawn yet), then in flight (drawn, flip not done yet).
/// Storage is made up front; inputs beyond it are counted as unmeasured, never silently dropped.
struct InputLatency {
    /// Latency samples kept per frame; more inputs than this before a flip are not all measured.
    static let capacity = 128

    private var pending: [Instant] = []
    private var inFlight: [Instant] = []

    init() {
        pending.reserveCapacity(Self.capacity)
        inFlight.reserveCapacity(Self.capacity)
    }

    /// An input delivered to the scene; false when it cannot be measured (storage full).
    mutating func delivered(at time: Instant) -> Bool {
        guard pending.count < Self.capacity else { return false }
        pending.append(time)
        return true
    }

    /// A frame with the pending inputs' effect was presented.
    mutating func presented() {
        swap(&pending, &inFlight)
        pending.removeAll(keepingCapacity: true)
    }

    /// Nothing changed on screen: those inputs showed nothing, there is nothing to measure.
    mutating func nothingDrawn() { pending.removeAll(keepingCapacity: true) }

    /// The frame in flight reached the screen at `shown`: each of its inputs' latency.
    mutating func shown(at shown: Instant, record: (Int64) -> Void) {
        for t in inFlight { record(shown.microseconds - t.microseconds) }
        inFlight.removeAll(keepingCapacity: true)
    }

    /// The display was lost: the frame in flight will never be shown.
    mutating func forgetInFlight() { inFlight.removeAll(keepingCapacity: true) }
}

/// How many fingers are on the glass, counted from the touch frames themselves: a touch is down
/// from the frame it began in (or was first seen in) to the one that ended or cancelled it. The
/// loop counts the same way live and in a replay, and whatever the frames' source.
struct FingersDown {
    private var ids: [TouchID] = []

    init() { ids.reserveCapacity(16) }

    var count: Int { ids.count }

    mutating func note(_ frame: TouchFrame) {
        for touch in frame.touches {
            let i = ids.firstIndex(of: touch.id)
            if touch.phase.isFinal {
                if let i { ids.remove(at: i) }
            } else if i == nil {
                ids.append(touch.id)
            }
        }
    }
}
