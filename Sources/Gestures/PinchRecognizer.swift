import KioskCore

/// Recognizes two fingers moving apart or together, as UIPinchGestureRecognizer. Continuous.
public final class PinchRecognizer: TwoFingerRecognizer {
    public var options: PinchOptions

    public init(name: String = RecognizerKind.pinch.rawValue, view: ViewID, viewName: String, options: PinchOptions = PinchOptions()) {
        self.options = options
        super.init(kind: .pinch, name: name, view: view, viewName: viewName)
    }

    /// The distance between the fingers over what it was when the second came down.
    public var scale: Double { fingers.scale }

    override var measuredValue: Double { fingers.scale }

    /// How far the span between the fingers has changed, in millimetres.
    private var spanChangeMillimetres: Double { millimetres(abs(fingers.span - fingers.initialSpan)) }

    override var passedHysteresis: Bool { spanChangeMillimetres >= options.hysteresisMillimetres }

    override var liftedBeforeStartReason: FailureReason {
        .liftedBeforeStart(movedMillimetres: spanChangeMillimetres, required: options.hysteresisMillimetres)
    }

    override func fill(_ event: inout GestureEvent) {
        event.location = location
        event.scale = fingers.scale
        event.scalarVelocity = tracker.scalarVelocity
    }
}
