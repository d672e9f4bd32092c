import KioskCore
import Scene

/// Everything that decides how one view is drawn, and how far its ink reaches.
///
/// The one place a view's look is worked out: `DamageTracker` compares two frames' looks to find
/// what changed, and `SceneRenderer` draws from the same looks, so the two never disagree.
struct ViewLook: Equatable {
    var kind: ViewKind
    var center: Point
    /// A square's look apart from its place; `.none` for other views.
    var square: SquareLook
    var z: Int
    var highlighted: Bool
    var taps: Int
    var knob: Point
    var isOn: Bool
    var value: Double
    /// A button's label: set from outside (the control socket), it is drawn again.
    var label: String
    /// How far the view's ink reaches on the screen: its shadow, outline and text included.
    var bounds: Rect

    init(_ scene: KioskScene, _ id: ViewID, at now: Instant, transforming: Bool = false) {
        let v = scene.views[id.rawValue]
        kind = v.kind
        center = v.center
        z = v.z
        highlighted = v.isHighlighted
        taps = v.taps
        knob = scene.knobCenter(of: id, at: now)
        isOn = v.isOn
        value = v.value
        label = v.label
        switch v.kind {
        case .square:
            let lift = scene.liftFactor(of: id, at: now)
            let d = scene.definition
            // 0 at rest, 1 fully lifted: the shadow grows and the outline fades in with the lift.
            let raised = d.liftScale > 1 ? min(1, max(0, (lift - 1) / (d.liftScale - 1))) : (v.lifted ? 1 : 0)
            square = SquareLook(side: v.side * v.scale * lift, rotation: v.rotation, raised: raised, color: v.color, transforming: transforming)
            bounds = Rect(center: v.center, size: Size(width: square.extent, height: square.extent))
        case .canvas:
            square = .none
            bounds = v.baseFrame
        case .slider:
            square = .none
            bounds = v.baseFrame.insetBy(-SceneRenderer.controlHalo).union(SceneRenderer.sliderLabelBox(v.baseFrame))
        case .button, .toggle:
            square = .none
            bounds = v.baseFrame.insetBy(-SceneRenderer.controlHalo)
        }
    }

    /// Every view's look at `now`, into storage the caller keeps: once warmed up, nothing is allocated.
    static func all(_ scene: KioskScene, at now: Instant, into looks: inout [ViewLook]) {
        looks.removeAll(keepingCapacity: true)
        for i in scene.views.indices {
            looks.append(ViewLook(scene, ViewID(i), at: now, transforming: isTransforming(scene, ViewID(i))))
        }
    }

    /// Whether a pinch or a rotation is under way on the square `id` (the scene says): while one
    /// is, the square may be drawn from its cached shadow turned and scaled, not rasterised afresh.
    static func isTransforming(_ scene: KioskScene, _ id: ViewID) -> Bool { scene.isBeingTransformed(id) }
}

/// What decides how a square looks, apart from where it is.
struct SquareLook: Equatable {
    var side: Double
    var rotation: Double
    var raised: Double
    var color: Color
    /// Drawn during a pinch or rotation: its shadow from a cached image. The end of the gesture
    /// changes the look, so the settled square is drawn exactly again.
    var transforming: Bool

    static let none = SquareLook(side: 0, rotation: 0, raised: 0, color: Color(red: 0, green: 0, blue: 0), transforming: false)

    /// The same look as drawn when settled: what the cached image of a square is keyed by.
    var settled: SquareLook {
        var look = self
        look.transforming = false
        return look
    }

    /// The side of the axis-aligned box that holds the square turned by its rotation, grown by
    /// its shadow and outline (`SceneRenderer.squareHalo` on each side).
    var extent: Double { side * (abs(_cos(rotation)) + abs(_sin(rotation))) + 2 * SceneRenderer.squareHalo }
}
