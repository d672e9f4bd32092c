import Gestures
import KioskCore

/// One view of the running scene: where it is and what it shows.
///
/// What every view has (its name, place in the tree, declared frame, colour) is here; what only
/// one kind of view has is in `content`, so a square's transform cannot be written on a button,
/// nor a slider's value on a square. The kind is the content's.
public struct ViewState: Sendable, Equatable {
    public let name: String
    public let parent: ViewID?
    public internal(set) var children: [ViewID] = []
    /// The untransformed frame: the declared frame of a control or the canvas; a square's bounds at scale 1.
    public let baseFrame: Rect
    public let color: Color
    /// How far a finger may leave a control and still count as inside it (controls only read it).
    public let trackingMarginPixels: Double
    /// The kind's own state.
    public internal(set) var content: ViewContent

    /// The view's kind, which its content decides.
    public var kind: ViewKind { content.kind }

    /// The view as declared; `index` is its place in the declaration, a square's first z-order.
    init(_ d: ViewDescription, index: Int, parent: ViewID?, metrics: PanelMetrics) {
        name = d.name
        self.parent = parent
        baseFrame = d.frame
        color = d.color
        trackingMarginPixels = metrics.pixels(millimetres: d.trackingMarginMillimetres)
        content = switch d.kind {
        case .square: .square(SquareState(center: d.frame.center, side: d.frame.width, z: index))
        case .canvas: .canvas(CanvasState())
        case .button: .button(ButtonState(label: d.label))
        case .slider: .slider(SliderState(value: d.value))
        case .toggle: .toggle(ToggleState(isOn: d.isOn))
        }
    }
}

/// What one kind of view holds while the kiosk runs.
public enum ViewContent: Sendable, Equatable {
    case canvas(CanvasState)
    case square(SquareState)
    case button(ButtonState)
    case slider(SliderState)
    case toggle(ToggleState)

    public var kind: ViewKind {
        switch self {
        case .canvas: .canvas
        case .square: .square
        case .button: .button
        case .slider: .slider
        case .toggle: .toggle
        }
    }
}

/// The canvas: which of its themes is shown.
public struct CanvasState: Sendable, Equatable {
    /// Into the canvas's declared themes; 0 when it declares none.
    public internal(set) var themeIndex = 0
}

/// A square: its transform, its place in the stack of squares, and its lift.
public struct SquareState: Sendable, Equatable {
    public internal(set) var center: Point
    /// The side at scale 1.
    public let side: Double
    public internal(set) var scale = 1.0
    public internal(set) var rotation = 0.0
    /// The stacking order among squares: higher is in front.
    public internal(set) var z: Int
    public internal(set) var lift = SquareLift.resting

    init(center: Point, side: Double, z: Int) {
        self.center = center
        self.side = side
        self.z = z
    }

    /// A long press holds the square up.
    public var isLifted: Bool { lift == .lifted }

    /// When the drop animation of a released square started; nil when not dropping.
    public var dropStart: Instant? {
        if case .dropping(let since) = lift { since } else { nil }
    }
}

/// A square at rest, held up by a long press, or settling back after one.
public enum SquareLift: Sendable, Equatable {
    case resting
    case lifted
    /// Released at `since`: it shrinks back to its scale over the drop animation.
    case dropping(since: Instant)
}

/// A button: its label and presses, and whether a finger holding it is inside.
public struct ButtonState: Sendable, Equatable {
    /// The button's label; a program outside may change it (the control socket's `set`).
    public internal(set) var label: String
    public internal(set) var taps = 0
    public internal(set) var isHighlighted = false

    init(label: String) { self.label = label }
}

/// A slider: its value.
public struct SliderState: Sendable, Equatable {
    /// 0 (left) to 1 (right).
    public internal(set) var value: Double
}

/// A switch: on or off, and where its knob is while a finger drags it or it slides.
public struct ToggleState: Sendable, Equatable {
    public internal(set) var isOn: Bool
    /// The knob's place along its track while a finger drags it, 0 (off) to 1 (on).
    public internal(set) var knobTravel: Double?
    /// The knob sliding to its new side; nil when it rests.
    public internal(set) var slide: KnobSlide?

    init(isOn: Bool) { self.isOn = isOn }
}

/// A switch's knob sliding to its new side: since when, and from where along its track.
public struct KnobSlide: Sendable, Equatable {
    public let start: Instant
    /// The knob's travel when it started, 0 (off) to 1 (on).
    public let from: Double
}

// MARK: Reading and changing one kind's state

extension ViewState {
    public var canvas: CanvasState? { if case .canvas(let s) = content { s } else { nil } }
    public var square: SquareState? { if case .square(let s) = content { s } else { nil } }
    public var button: ButtonState? { if case .button(let s) = content { s } else { nil } }
    public var slider: SliderState? { if case .slider(let s) = content { s } else { nil } }
    public var toggle: ToggleState? { if case .toggle(let s) = content { s } else { nil } }

    /// Changes the canvas's state; nothing on a view of another kind.
    mutating func withCanvas(_ body: (inout CanvasState) -> Void) {
        guard case .canvas(var s) = content else { return }
        body(&s)
        content = .canvas(s)
    }

    /// Changes the square's state; nothing on a view of another kind.
    mutating func withSquare(_ body: (inout SquareState) -> Void) {
        guard case .square(var s) = content else { return }
        body(&s)
        content = .square(s)
    }

    /// Changes the button's state; nothing on a view of another kind. The label is shared, not
    /// copied, unless `body` writes it.
    mutating func withButton(_ body: (inout ButtonState) -> Void) {
        guard case .button(var s) = content else { return }
        body(&s)
        content = .button(s)
    }

    /// Changes the slider's state; nothing on a view of another kind.
    mutating func withSlider(_ body: (inout SliderState) -> Void) {
        guard case .slider(var s) = content else { return }
        body(&s)
        content = .slider(s)
    }

    /// Changes the switch's state; nothing on a view of another kind.
    mutating func withToggle(_ body: (inout ToggleState) -> Void) {
        guard case .toggle(var s) = content else { return }
        body(&s)
        content = .toggle(s)
    }
}

// MARK: Knobs, which the slider and the switch share

extension ViewState {
    /// The knob of a slider or a switch where it comes to rest: a circle as tall as the control.
    /// Other views: the middle of their frame.
    public func knobCenter() -> Point {
        switch content {
        case .slider(let s): knobCenter(travel: s.value)
        case .toggle(let t): knobCenter(travel: t.knobTravel ?? (t.isOn ? 1 : 0))
        case .canvas, .square, .button: baseFrame.center
        }
    }

    /// The knob at `travel` along its track, 0 (left) to 1 (right).
    public func knobCenter(travel: Double) -> Point {
        let r = baseFrame.height / 2
        return Point(x: baseFrame.minX + r + travel * (baseFrame.width - 2 * r), y: baseFrame.center.y)
    }

    public var knobRadius: Double { baseFrame.height / 2 }

    /// True when `p` is on the knob, with the finger's own size as slack.
    func knobContains(_ p: Point) -> Bool { p.distance(to: knobCenter()) <= knobRadius * 1.25 }
}
