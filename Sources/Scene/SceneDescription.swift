import Gestures
import KioskCore

/// Where a declaration stands in its config file, so errors can name it.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int

    public init(file: String, line: Int) {
        self.file = file
        self.line = line
    }

    public var description: String { "\(file):\(line)" }
}

/// The kinds of view a kiosk scene is made of.
public enum ViewKind: String, Hashable, Sendable, CaseIterable {
    case canvas, square, button, slider
    case toggle = "switch"
}

/// A background theme the canvas can cycle through.
public struct Theme: Hashable, Sendable {
    public var name: String
    public var background: Color
    public var foreground: Color

    public init(name: String, background: Color, foreground: Color) {
        self.name = name
        self.background = background
        self.foreground = foreground
    }
}

/// One view as the config declares it.
public struct ViewDescription: Hashable, Sendable {
    public var name: String
    public var kind: ViewKind
    /// The parent's name; nil only for the root canvas.
    public var parent: String?
    /// Screen pixels, origin top left. For a square: its untransformed bounds around its center.
    public var frame: Rect
    public var color: Color
    /// Button label.
    public var label: String
    /// Canvas themes, cycled by its swipe; the first is the start.
    public var themes: [Theme]
    /// Slider start value, 0...1.
    public var value: Double
    /// Switch start state.
    public var isOn: Bool
    /// How far a touch may leave a control and still count as inside, in millimetres.
    public var trackingMarginMillimetres: Double
    public var location: SourceLocation

    public init(
        name: String, kind: ViewKind, parent: String?, frame: Rect,
        color: Color = Color(red: 128, green: 128, blue: 128), label: String = "", themes: [Theme] = [],
        value: Double = 0.5, isOn: Bool = false,
        trackingMarginMillimetres: Double = GestureConstants.controlTrackingMarginMillimetres,
        location: SourceLocation = SourceLocation(file: "<code>", line: 0)
    ) {
        self.name = name
        self.kind = kind
        self.parent = parent
        self.frame = frame
        self.color = color
        self.label = label
        self.themes = themes
        self.value = value
        self.isOn = isOn
        self.trackingMarginMillimetres = trackingMarginMillimetres
        self.location = location
    }
}

/// What the scene does with a recognizer's events.
public enum SceneAction: String, Hashable, Sendable, CaseIterable {
    /// Squares: pan moves the square, keeping it under the fingers.
    case move
    /// Squares: pinch scales about the fingers.
    case scale
    /// Squares: rotation turns about the fingers.
    case rotate
    /// Squares: long press lifts the square (1.2x, highlighted); the finger carries it; release drops it.
    case lift
    /// Squares: tap brings the square to the front.
    case bringToFront = "bring_to_front"
    /// Squares: resets scale and rotation.
    case resetTransform = "reset_transform"
    /// Canvas: swipe left or right cycles the theme.
    case cycleTheme = "cycle_theme"
    /// Canvas: pan moves every square together.
    case moveAll = "move_all"
    /// Any view: resets the whole scene to its start.
    case resetScene = "reset_scene"
    /// Nothing; the recognizer still takes part in the arbitration and the event log.
    case none

    /// The view kinds this action makes sense on.
    public var allowedViewKinds: Set<ViewKind> {
        switch self {
        case .move, .scale, .rotate, .lift, .bringToFront, .resetTransform: [.square]
        case .cycleTheme, .moveAll: [.canvas]
        case .resetScene, .none: Set(ViewKind.allCases)
        }
    }

    /// The recognizer kinds this action reads events from.
    public var allowedRecognizerKinds: Set<RecognizerKind> {
        switch self {
        case .move, .moveAll: [.pan]
        case .scale: [.pinch]
        case .rotate: [.rotation]
        case .lift: [.longPress]
        case .bringToFront, .resetTransform: [.tap]
        case .cycleTheme: [.swipe]
        case .resetScene, .none: Set(RecognizerKind.allCases)
        }
    }
}

/// A reference to a recognizer in the config: `name` (same view) or `name@view`.
public struct RecognizerReference: Hashable, Sendable, CustomStringConvertible {
    public var name: String
    /// nil: the view of the declaring recognizer.
    public var view: String?

    public init(name: String, view: String?) {
        self.name = name
        self.view = view
    }

    /// Parses `name` or `name@view`.
    public init(parsing text: String) {
        if let at = text.firstIndex(of: "@") {
            name = String(text[..<at])
            view = String(text[text.index(after: at)...])
        } else {
            name = text
            view = nil
        }
    }

    public var description: String { view.map { "\(name)@\($0)" } ?? name }
}

/// One recognizer as the config declares it, with its place in the gesture graph.
public struct GestureDescription: Hashable, Sendable {
    public var view: String
    public var name: String
    public var spec: RecognizerSpec
    public var action: SceneAction
    /// `shouldRecognizeSimultaneouslyWith` answers yes for these.
    public var simultaneousWith: [RecognizerReference]
    /// `require(toFail:)`: this recognizer waits for each of these to fail.
    public var requireToFail: [RecognizerReference]
    /// The delegate's `shouldRequireFailureOf`: this recognizer's delegate says it waits for these.
    public var shouldRequireFailureOf: [RecognizerReference]
    /// The delegate's `shouldBeRequiredToFailBy`: this recognizer's delegate says these wait for it.
    public var shouldBeRequiredToFailBy: [RecognizerReference]
    public var cancelsTouchesInView: Bool
    public var location: SourceLocation

    public init(
        view: String, name: String, spec: RecognizerSpec, action: SceneAction = .none,
        simultaneousWith: [RecognizerReference] = [], requireToFail: [RecognizerReference] = [],
        shouldRequireFailureOf: [RecognizerReference] = [], shouldBeRequiredToFailBy: [RecognizerReference] = [],
        cancelsTouchesInView: Bool = true,
        location: SourceLocation = SourceLocation(file: "<code>", line: 0)
    ) {
        self.view = view
        self.name = name
        self.spec = spec
        self.action = action
        self.simultaneousWith = simultaneousWith
        self.requireToFail = requireToFail
        self.shouldRequireFailureOf = shouldRequireFailureOf
        self.shouldBeRequiredToFailBy = shouldBeRequiredToFailBy
        self.cancelsTouchesInView = cancelsTouchesInView
        self.location = location
    }

    /// `name@view`, as the decision trace and the event log name it.
    public var qualifiedName: String { "\(name)@\(view)" }
}

/// A whole scene: panel, views and gesture graph, as declared in the config file.
public struct SceneDescription: Hashable, Sendable {
    public var panel: PanelMetrics
    /// In declaration order; the first is the root canvas. Siblings later in the list are in front.
    public var views: [ViewDescription]
    public var gestures: [GestureDescription]
    /// Seconds the drop animation of a lifted square takes.
    public var dropAnimationSeconds: Double
    /// How much a lifted square grows.
    public var liftScale: Double

    public init(
        panel: PanelMetrics, views: [ViewDescription], gestures: [GestureDescription],
        dropAnimationSeconds: Double = 0.3, liftScale: Double = 1.2
    ) {
        self.panel = panel
        self.views = views
        self.gestures = gestures
        self.dropAnimationSeconds = dropAnimationSeconds
        self.liftScale = liftScale
    }
}
