import KioskCore

/// Recognizes two fingers turning, as UIRotationGestureRecognizer. Continuous.
/// Radians, clockwise positive on the screen (y points down).
public final class RotationRecognizer: TwoFingerRecognizer {
    public var options: RotationOptions

    public init(name: String = RecognizerKind.rotation.rawValue, view: ViewID, viewName: String, options: RotationOptions = RotationOptions()) {
        self.options = options
        super.init(kind: .rotation, name: name, view: view, viewName: viewName)
    }

    /// Radians turned since the second finger came down, clockwise positive.
    public var rotation: Double { fingers.rotation }

    override var measuredValue: Double { fingers.rotation }

    override var passedHysteresis: Bool { abs(fingers.rotation) >= options.hysteresisRadians }

    override var liftedBeforeStartReason: FailureReason {
        .liftedBeforeTurning(radians: fingers.rotation, required: options.hysteresisRadians)
    }

    override func fill(_ event: inout GestureEvent) {
        event.location = location
        event.rotation = fingers.rotation
        event.scalarVelocity = tracker.scalarVelocity
    }
}
