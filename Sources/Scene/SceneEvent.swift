import Gestures
import KioskCore

/// Something the scene did that an integrator may want to see: a gesture's state change, or a control's event.
public enum SceneEvent: Sendable, Equatable {
    case gesture(GestureEvent, view: String, recognizer: String, kind: RecognizerKind)
    case control(time: Instant, view: String, event: ControlEvent)
}

/// UIControl's events, with the value that came with them.
public enum ControlEvent: Sendable, Equatable {
    case touchDown
    case touchUpInside
    case touchUpOutside
    case touchCancel
    /// The button's action: every tap that lifts inside fires it; `taps` counts them.
    case primaryActionTriggered(taps: Int)
    case valueChanged(Double)
    case toggled(Bool)

    public var name: String {
        switch self {
        case .touchDown: "touchDown"
        case .touchUpInside: "touchUpInside"
        case .touchUpOutside: "touchUpOutside"
        case .touchCancel: "touchCancel"
        case .primaryActionTriggered: "primaryActionTriggered"
        case .valueChanged, .toggled: "valueChanged"
        }
    }
}

/// A gesture graph that does not hold together.
public struct SceneError: Error, CustomStringConvertible, Equatable {
    public var location: SourceLocation
    public var message: String

    public init(_ location: SourceLocation, _ message: String) {
        self.location = location
        self.message = message
    }

    public var description: String { "\(location): \(message)" }
}
