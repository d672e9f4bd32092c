import Gestures
import KioskCore

/// One view of the running scene: where it is and what it shows.
///
/// Squares carry a transform (center, scale, rotation) and a z-order among squares; controls
/// and the canvas are axis-aligned. Controls always stay above the squares, so a square dragged
/// over a control never hides it from the finger.
public struct ViewState: Sendable, Equatable {
    public let name: String
    public let kind: ViewKind
    public let parent: ViewID?
    public internal(set) var children: [ViewID] = []
    /// The untransformed frame: the declared frame of a control or the canvas; a square's bounds at scale 1.
    public internal(set) var baseFrame: Rect
    public let color: Color

    // Squares.
    public internal(set) var center: Point
    public internal(set) var side: Double
    public internal(set) var scale = 1.0
    public internal(set) var rotation = 0.0
    public internal(set) var z = 0
    public internal(set) var lifted = false
    /// When the drop animation of a released square started; nil when not dropping.
    public internal(set) var dropStart: Instant?

    // Canvas.
    public internal(set) var themeIndex = 0

    // Controls.
    public internal(set) var taps = 0
    public internal(set) var isHighlighted = false
    public internal(set) var value = 0.0
    public internal(set) var isOn = false
    /// The switch knob's place along its track while a finger drags it, 0 (off) to 1 (on).
    public internal(set) var knobTravel: Double?
    /// When the switch's knob started sliding to its new side, and from where (its travel then);
    /// nil when it rests.
    public internal(set) var toggleStart: Instant?
    public internal(set) var toggleFrom = 0.0
    /// The button's label; a program outside may change it (the control socket's `set`).
    public internal(set) var label: String
    public let trackingMarginPixels: Double

    init(_ d: ViewDescription, parent: ViewID?, metrics: PanelMetrics) {
        name = d.name
        kind = d.kind
        self.parent = parent
        baseFrame = d.frame
        color = d.color
        center = d.frame.center
        side = d.frame.width
        value = d.value
        isOn = d.isOn
        label = d.label
        trackingMarginPixels = metrics.pixels(millimetres: d.trackingMarginMillimetres)
    }

    /// The knob of a slider or a switch where it comes to rest: a circle as tall as the control.
    public func knobCenter() -> Point {
        switch kind {
        case .slider: knobCenter(travel: value)
        case .toggle: knobCenter(travel: knobTravel ?? (isOn ? 1 : 0))
        default: baseFrame.center
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
