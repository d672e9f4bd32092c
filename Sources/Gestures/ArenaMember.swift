/// What the coordinator keeps about one recognizer, as Flutter's gesture arena keeps its members:
/// the failure requirements set up front, and the bookkeeping of the current attempt.
struct ArenaMember {
    /// The recognizers it waits for to fail (`require(_:toFail:)`), for every attempt.
    var staticRequirements = RecognizerMask()
    var attempt = Attempt()
}

/// The coordinator's bookkeeping for one attempt of one recognizer; `Attempt()` when it resets.
struct Attempt {
    /// Whether it would begin but waits for a recognizer to fail first.
    enum Hold: Equatable {
        case free
        case heldOn(RecognizerID)
    }

    /// It has received a touch in this attempt.
    var started = false
    /// How far its view is from the hit view of its first touch: 0 on the hit view, 1 on its parent...
    var depth = 0
    var hold = Hold.free
    /// It asked to end (or began and ended in one frame) while held: it ends as soon as it begins.
    var endAfterBegin = false
    /// The recognizers it waits for to fail in this attempt, as the delegates said.
    var dynamicRequirements = RecognizerMask()
    /// The recognizers its pair of delegates was asked about in this attempt.
    var askedAbout = RecognizerMask()

    var isHeld: Bool { hold != .free }
}
