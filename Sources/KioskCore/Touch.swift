
/// Identifies one finger from touch-down to lift-off. Never reused within a run.
public struct TouchID: Hashable, Sendable, CustomStringConvertible {
    public var rawValue: Int
    public init(_ rawValue: Int) { self.rawValue = rawValue }
    public var description: String { "touch \(rawValue)" }
}

/// Where a touch is in its life, as UITouch.Phase.
public enum TouchPhase: UInt8, Sendable, CustomStringConvertible {
    case began, moved, stationary, ended, cancelled

    /// True for ended and cancelled: the finger is gone.
    public var isFinal: Bool { self == .ended || self == .cancelled }

    public var description: String {
        switch self {
        case .began: "began"
        case .moved: "moved"
        case .stationary: "stationary"
        case .ended: "ended"
        case .cancelled: "cancelled"
        }
    }
}

/// One finger in one frame.
public struct Touch: Hashable, Sendable {
    public var id: TouchID
    public var phase: TouchPhase
    /// Screen pixels, origin top left.
    public var location: Point

    public init(id: TouchID, phase: TouchPhase, location: Point) {
        self.id = id
        self.phase = phase
        self.location = location
    }
}

/// All touches of one input report (one SYN_REPORT), at one timestamp.
/// Holds every finger that is down or just lifted; fingers that did not move are `stationary`.
public struct TouchFrame: Hashable, Sendable {
    public var time: Instant
    public var touches: [Touch]

    public init(time: Instant, touches: [Touch] = []) {
        self.time = time
        self.touches = touches
    }
}
