import KioskCore

/// Every default threshold of the engine, in one place, each with its source.
///
/// UIKit documents some defaults (the `UI…GestureRecognizer` class references); those are taken as
/// they are. Distances UIKit gives in points are converted at the original iPhone's 163 points per
/// inch. Where UIKit documents no value, the kiosk's choice is given with the reasoning, and Flutter's
/// `gestures/constants.dart` (which measured the same things on phones) as a cross-check.
/// Distances are millimetres on the glass, turned into pixels with `PanelMetrics`.
public enum GestureConstants {
    /// Millimetres per UIKit point: 25.4 mm / 163 points per inch.
    public static let millimetresPerPoint = 25.4 / 163

    // MARK: Tap (UITapGestureRecognizer)
    /// Documented default of `numberOfTapsRequired`.
    public static let tapsRequired = 1
    /// Documented default of `numberOfTouchesRequired`.
    public static let tapTouchesRequired = 1
    /// Not documented by UIKit. Kiosk choice: 2 mm, about one FT5406 report of finger roll on a press;
    /// it equals the pan hysteresis, so a touch that moves is either a tap or a drag, never neither.
    public static let tapAllowableMovementMillimetres = 2.0
    /// Not documented by UIKit. Time from one tap's lift to the next tap's press in a multi-tap;
    /// Flutter's kDoubleTapTimeout is 300 ms.
    public static let multiTapIntervalSeconds = 0.3
    /// Not documented by UIKit. How far the next tap of a multi-tap may land from the first;
    /// Flutter's kDoubleTapSlop is 100 logical pixels (about 26 mm); a kiosk wants the taps on one target: 10 mm.
    public static let multiTapDistanceMillimetres = 10.0

    // MARK: Long press (UILongPressGestureRecognizer)
    /// Documented default of `minimumPressDuration`: 0.5 s.
    public static let minimumPressDurationSeconds = 0.5
    /// Documented default of `allowableMovement`: 10 points, 1.56 mm.
    public static let longPressAllowableMovementMillimetres = 10 * millimetresPerPoint
    /// Documented default of `numberOfTouchesRequired`.
    public static let longPressTouchesRequired = 1
    /// Documented default of `numberOfTapsRequired`: 0.
    public static let longPressTapsRequired = 0

    // MARK: Pan (UIPanGestureRecognizer)
    /// Documented default of `minimumNumberOfTouches`.
    public static let panMinimumTouches = 1
    /// Documented default of `maximumNumberOfTouches`: unlimited.
    public static let panMaximumTouches = Int.max
    /// Not documented by UIKit (about 10 points, 1.6 mm, observed). Kiosk choice: 2 mm, so the
    /// FT5406's jitter never starts a drag.
    public static let panHysteresisMillimetres = 2.0

    // MARK: Pinch and rotation (UIPinchGestureRecognizer, UIRotationGestureRecognizer)
    /// Not documented by UIKit. Change of the distance between the two fingers before a pinch begins.
    public static let pinchHysteresisMillimetres = 2.0
    /// Not documented by UIKit. Turn of the line between the two fingers before a rotation begins (about 4.6°).
    public static let rotationHysteresisRadians = 0.08

    // MARK: Swipe (UISwipeGestureRecognizer)
    /// Documented default of `direction`: right.
    public static let swipeDefaultDirections = SwipeDirections.right
    /// Documented default of `numberOfTouchesRequired`.
    public static let swipeTouchesRequired = 1
    /// Not documented by UIKit. Travel along the direction a swipe needs: 10 mm, half of a
    /// 20 mm flick, so a short flick is still a swipe.
    public static let swipeMinimumDistanceMillimetres = 10.0
    /// Not documented by UIKit. Speed a swipe needs along its direction: 80 mm/s. A 20 mm flick in
    /// 100 ms runs at 200 mm/s; a drag slower than 15 mm/s is far below. Flutter's kMinFlingVelocity
    /// is 50 logical pixels per second (about 13 mm/s), which is a fling, not a deliberate swipe.
    public static let swipeMinimumSpeedMillimetresPerSecond = 80.0
    /// Not documented by UIKit. How far the travel may turn away from the swipe's direction.
    public static let swipeMaximumAngleDegrees = 30.0
    /// Not documented by UIKit. Time from touch-down within which a swipe must cover its distance.
    public static let swipeMaximumDurationSeconds = 0.5

    // MARK: Velocity
    /// Velocities are least-squares fits over this much of the most recent history; Flutter's
    /// VelocityTracker uses 100 ms (kHorizonMilliseconds) the same way.
    public static let velocityWindowSeconds = 0.1
    /// Samples a velocity tracker keeps; at the FT5406's 60 Hz, 100 ms is 6 samples; 20 leaves room
    /// for faster panels (the EP0430M09 reports every 7.8 ms).
    public static let velocitySampleCapacity = 20

    // MARK: Controls (UIControl)
    /// Not documented by UIKit: how far a touch may leave a button and still fire it on release.
    /// About 70 points is widely observed on iOS; 70 points is 10.9 mm.
    public static let controlTrackingMarginMillimetres = 70 * millimetresPerPoint
}
