/// The directions a swipe may take, as UISwipeGestureRecognizer.Direction.
public struct SwipeDirections: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let right = SwipeDirections(rawValue: 1 << 0)
    public static let left = SwipeDirections(rawValue: 1 << 1)
    public static let up = SwipeDirections(rawValue: 1 << 2)
    public static let down = SwipeDirections(rawValue: 1 << 3)

    public static let named: [(String, SwipeDirections)] = [("right", .right), ("left", .left), ("up", .up), ("down", .down)]

    public var description: String {
        Self.named.filter { contains($0.1) }.map(\.0).joined(separator: "|")
    }
}

/// Parameters of a tap recognizer (UITapGestureRecognizer).
public struct TapOptions: Hashable, Sendable {
    public var tapsRequired = GestureConstants.tapsRequired
    public var touchesRequired = GestureConstants.tapTouchesRequired
    public var allowableMovementMillimetres = GestureConstants.tapAllowableMovementMillimetres
    public var multiTapIntervalSeconds = GestureConstants.multiTapIntervalSeconds
    public var multiTapDistanceMillimetres = GestureConstants.multiTapDistanceMillimetres
    public init() {}
}

/// Parameters of a long-press recognizer (UILongPressGestureRecognizer).
public struct LongPressOptions: Hashable, Sendable {
    public var minimumPressDurationSeconds = GestureConstants.minimumPressDurationSeconds
    public var allowableMovementMillimetres = GestureConstants.longPressAllowableMovementMillimetres
    public var touchesRequired = GestureConstants.longPressTouchesRequired
    public var tapsRequired = GestureConstants.longPressTapsRequired
    public var multiTapIntervalSeconds = GestureConstants.multiTapIntervalSeconds
    public init() {}
}

/// Parameters of a pan recognizer (UIPanGestureRecognizer).
public struct PanOptions: Hashable, Sendable {
    public var minimumTouches = GestureConstants.panMinimumTouches
    public var maximumTouches = GestureConstants.panMaximumTouches
    public var hysteresisMillimetres = GestureConstants.panHysteresisMillimetres
    public init() {}
}

/// Parameters of a pinch recognizer (UIPinchGestureRecognizer).
public struct PinchOptions: Hashable, Sendable {
    public var hysteresisMillimetres = GestureConstants.pinchHysteresisMillimetres
    public init() {}
}

/// Parameters of a rotation recognizer (UIRotationGestureRecognizer).
public struct RotationOptions: Hashable, Sendable {
    public var hysteresisRadians = GestureConstants.rotationHysteresisRadians
    public init() {}
}

/// Parameters of a swipe recognizer (UISwipeGestureRecognizer).
public struct SwipeOptions: Hashable, Sendable {
    public var directions = GestureConstants.swipeDefaultDirections
    public var touchesRequired = GestureConstants.swipeTouchesRequired
    public var minimumDistanceMillimetres = GestureConstants.swipeMinimumDistanceMillimetres
    public var minimumSpeedMillimetresPerSecond = GestureConstants.swipeMinimumSpeedMillimetresPerSecond
    public var maximumAngleDegrees = GestureConstants.swipeMaximumAngleDegrees
    public var maximumDurationSeconds = GestureConstants.swipeMaximumDurationSeconds
    public init() {}
}

/// Which recognizer, with its parameters.
public enum RecognizerSpec: Hashable, Sendable {
    case tap(TapOptions)
    case longPress(LongPressOptions)
    case pan(PanOptions)
    case pinch(PinchOptions)
    case rotation(RotationOptions)
    case swipe(SwipeOptions)

    /// The kind of recognizer it makes.
    public var kind: RecognizerKind {
        switch self {
        case .tap: .tap
        case .longPress: .longPress
        case .pan: .pan
        case .pinch: .pinch
        case .rotation: .rotation
        case .swipe: .swipe
        }
    }
}
