import Gestures
import Scene

// The keys of `[[view]]` and `[[gesture]]`, which depend on the table's kind: each spelled once,
// as the other sections' are (ConfigKeys.swift), with the keys each kind takes, in the order
// errors list them.

/// One `[[view]]`.
enum ViewKey: String, ConfigKey {
    case name, kind, parent, frame, themes, color, label, value, on, trackingMargin = "tracking_margin_mm"

    /// The keys a view of `kind` takes: the reader refuses the others, the printer writes only these.
    static func allowed(for kind: ViewKind) -> [ViewKey] {
        let common: [ViewKey] = [.name, .kind, .parent, .frame]
        switch kind {
        case .canvas: return common + [.themes]
        case .square: return common + [.color]
        case .button: return common + [.label, .color, .trackingMargin]
        case .slider: return common + [.value, .color, .trackingMargin]
        case .toggle: return common + [.on, .color, .trackingMargin]
        }
    }
}

/// One theme in a canvas's `themes`.
enum ThemeKey: String, ConfigKey {
    case name, background, foreground
}

/// One `[[gesture]]`. The recognizers' parameters follow UIKit's properties, in config spelling.
enum GestureKey: String, ConfigKey {
    case view, name, kind, action, cancelsTouchesInView = "cancels_touches_in_view"
    // The recognizer graph: references to other recognizers.
    case simultaneousWith = "simultaneous_with", requireToFail = "require_to_fail"
    case shouldRequireFailureOf = "should_require_failure_of", shouldBeRequiredToFailBy = "should_be_required_to_fail_by"
    case taps, touches, allowableMovement = "allowable_movement_mm", multiTapInterval = "multi_tap_interval"
    case multiTapDistance = "multi_tap_distance_mm", minimumPressDuration = "minimum_press_duration"
    case minimumTouches = "minimum_touches", maximumTouches = "maximum_touches", hysteresis = "hysteresis_mm"
    case hysteresisRadians = "hysteresis_radians", directions, minimumDistance = "minimum_distance_mm"
    case minimumSpeed = "minimum_speed_mm_per_s", maximumAngle = "maximum_angle_degrees", maximumDuration = "maximum_duration"

    /// The keys naming other recognizers (UIGestureRecognizerDelegate's relations).
    static let graph: [GestureKey] = [.simultaneousWith, .requireToFail, .shouldRequireFailureOf, .shouldBeRequiredToFailBy]

    /// The keys a gesture of `kind` takes: the reader refuses the others.
    static func allowed(for kind: RecognizerKind) -> [GestureKey] {
        let common: [GestureKey] = [.view, .name, .kind, .action, .cancelsTouchesInView] + graph
        switch kind {
        case .tap: return common + [.taps, .touches, .allowableMovement, .multiTapInterval, .multiTapDistance]
        case .longPress: return common + [.minimumPressDuration, .allowableMovement, .touches, .taps, .multiTapInterval]
        case .pan: return common + [.minimumTouches, .maximumTouches, .hysteresis]
        case .pinch: return common + [.hysteresis]
        case .rotation: return common + [.hysteresisRadians]
        case .swipe: return common + [.directions, .touches, .minimumDistance, .minimumSpeed, .maximumAngle, .maximumDuration]
        }
    }
}
