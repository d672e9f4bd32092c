/// The kinds of recognizer, each named here once: the raw value is how the config file's `kind`
/// and the replay's events spell it, and the default name of a recognizer of that kind.
public enum RecognizerKind: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    case tap
    case longPress = "long_press"
    case pan
    case pinch
    case rotation
    case swipe

    /// Continuous gestures begin, change and end; discrete ones (tap, swipe) recognize once.
    public var isContinuous: Bool {
        switch self {
        case .tap, .swipe: false
        case .longPress, .pan, .pinch, .rotation: true
        }
    }

    public var description: String { rawValue }
}
