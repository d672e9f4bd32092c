import Gestures
import KioskCore

/// What the scene keeps for one recognizer: its declaration, the recognizers its delegate keys name,
/// and the last value its action applied, so that each event applies only the change.
struct GestureBinding {
    let description: GestureDescription
    var simultaneous = RecognizerMask()
    var requiresFailureOf = RecognizerMask()
    var requiredToFailBy = RecognizerMask()
    var lastTranslation = Point.zero
    var lastScale = 1.0
    var lastRotation = 0.0
    var lastLocation = Point.zero
}
