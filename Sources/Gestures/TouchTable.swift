import KioskCore

/// What the engine knows of one finger that is down (or lifted in the current frame).
public struct TouchRecord: Sendable {
    public internal(set) var id = TouchID(-1)
    public internal(set) var phase = TouchPhase.ended
    public internal(set) var location = Point.zero
    public internal(set) var previousLocation = Point.zero
    public internal(set) var startLocation = Point.zero
    public internal(set) var startTime = Instant.zero
    /// The view the touch landed on.
    public internal(set) var hitView = ViewID(-1)
    /// The recognizers this touch is delivered to.
    public internal(set) var receivers = RecognizerMask()
    /// What the hit view keeps for itself from recognizers on its ancestors, said when the touch landed.
    public internal(set) var standardGestures = StandardGestures()
    /// The hit view was told this touch is cancelled (a recognizer took it).
    public internal(set) var cancelledInView = false
    var inUse = false

    /// How far the finger is from where it came down.
    public var distanceFromStart: Double { location.distance(to: startLocation) }
}

/// The live touches, in a fixed number of slots; a touch keeps its slot from press to lift.
public struct TouchTable: Sendable {
    public private(set) var records: [TouchRecord]

    public init(capacity: Int) {
        records = Array(repeating: TouchRecord(), count: capacity)
    }

    public subscript(slot: Int) -> TouchRecord {
        get { records[slot] }
        _modify { yield &records[slot] }
    }

    /// The slot of a live touch.
    public func slot(of id: TouchID) -> Int? {
        for i in records.indices where records[i].inUse && records[i].id == id { return i }
        return nil
    }

    /// Takes a free slot, or nil when every slot is in use.
    mutating func allocate() -> Int? {
        for i in records.indices where !records[i].inUse {
            records[i] = TouchRecord()
            records[i].inUse = true
            return i
        }
        return nil
    }

    mutating func free(_ slot: Int) { records[slot].inUse = false }

    public var capacity: Int { records.count }
}
