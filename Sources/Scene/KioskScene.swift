import Gestures
import KioskCore

/// The running kiosk scene: its views, the gesture engine that drives them, and the controls.
///
/// One frame: the engine sees the touches first (its recognizers on the hit view and its
/// ancestors), the scene applies what they did, then the controls track the touches that no
/// recognizer took from them, as UIKit delivers to recognizers before the hit view.
public final class KioskScene {
    public let definition: SceneDescription
    public let engine: GestureEngine
    public internal(set) var views: [ViewState]
    /// Events since the last `removeAllEvents()`, when `recordsEvents` is on.
    public internal(set) var events: [SceneEvent] = []
    public var recordsEvents: Bool
    /// How long a switch's knob takes to slide to its new side, as UISwitch's does.
    public static let toggleAnimationSeconds = 0.25

    let initialViews: [ViewState]
    /// Per recognizer, by its id: its declaration, the graph it names, what its action last applied.
    var gestures: [GestureBinding] = []
    /// Per view: the touch a control follows, if any.
    var tracking: [ControlTracking?] = []
    var squareOrder: [ViewID] = []

    /// Builds the scene and its gesture graph; errors name the declaration at fault.
    public init(_ d: SceneDescription, trace: DecisionTrace = DecisionTrace(), recordsEvents: Bool = true) throws(SceneError) {
        definition = d
        self.recordsEvents = recordsEvents
        engine = GestureEngine(metrics: d.panel, trace: trace)
        var index: [String: ViewID] = [:]
        var built: [ViewState] = []
        for (i, v) in d.views.enumerated() {
            guard index[v.name] == nil else { throw SceneError(v.location, "view '\(v.name)' is declared twice") }
            var parent: ViewID?
            if let p = v.parent {
                guard let pid = index[p] else { throw SceneError(v.location, "view '\(v.name)': parent '\(p)' is not declared before it") }
                parent = pid
            } else if i != 0 || v.kind != .canvas {
                throw SceneError(v.location, "view '\(v.name)' has no parent; only the first view, a canvas, may be the root")
            }
            index[v.name] = ViewID(i)
            built.append(ViewState(v, index: i, parent: parent, metrics: d.panel))
            if let parent { built[parent.rawValue].children.append(ViewID(i)) }
        }
        guard !built.isEmpty else { throw SceneError(SourceLocation(file: "<scene>", line: 0), "the scene has no views") }
        views = built
        initialViews = built
        tracking = Array(repeating: nil, count: built.count)
        squareOrder = built.indices.filter { built[$0].kind == .square }.map { ViewID($0) }
        events.reserveCapacity(recordsEvents ? 4096 : 0)
        try buildGestures(d, views: index)
        engine.host = self
    }

    private func buildGestures(_ d: SceneDescription, views index: [String: ViewID]) throws(SceneError) {
        var ids: [String: RecognizerID] = [:]
        for g in d.gestures {
            guard let view = index[g.view] else { throw SceneError(g.location, "gesture '\(g.name)': unknown view '\(g.view)'") }
            guard ids[g.qualifiedName] == nil else { throw SceneError(g.location, "recognizer '\(g.qualifiedName)' is declared twice") }
            let r: GestureRecognizer = switch g.spec {
            case .tap(let o): TapRecognizer(name: g.name, view: view, viewName: g.view, options: o)
            case .longPress(let o): LongPressRecognizer(name: g.name, view: view, viewName: g.view, options: o)
            case .pan(let o): PanRecognizer(name: g.name, view: view, viewName: g.view, options: o)
            case .pinch(let o): PinchRecognizer(name: g.name, view: view, viewName: g.view, options: o)
            case .rotation(let o): RotationRecognizer(name: g.name, view: view, viewName: g.view, options: o)
            case .swipe(let o): SwipeRecognizer(name: g.name, view: view, viewName: g.view, options: o)
            }
            r.cancelsTouchesInView = g.cancelsTouchesInView
            r.delegate = self
            do {
                ids[g.qualifiedName] = try engine.add(r)
            } catch {
                throw SceneError(g.location, "\(error)")
            }
            gestures.append(GestureBinding(description: g))
        }
        func resolve(_ ref: RecognizerReference, from g: GestureDescription, key: String) throws(SceneError) -> RecognizerID {
            let name = "\(ref.name)@\(ref.view ?? g.view)"
            guard let id = ids[name] else { throw SceneError(g.location, "\(g.qualifiedName) \(key): unknown recognizer '\(name)'") }
            return id
        }
        for i in gestures.indices {
            let g = gestures[i].description
            for ref in g.simultaneousWith { gestures[i].simultaneous.insert(try resolve(ref, from: g, key: "simultaneous_with")) }
            for ref in g.shouldRequireFailureOf { gestures[i].requiresFailureOf.insert(try resolve(ref, from: g, key: "should_require_failure_of")) }
            for ref in g.shouldBeRequiredToFailBy { gestures[i].requiredToFailBy.insert(try resolve(ref, from: g, key: "should_be_required_to_fail_by")) }
            for ref in g.requireToFail {
                let other = try resolve(ref, from: g, key: "require_to_fail")
                do {
                    try engine.require(engine.recognizer(RecognizerID(i)), toFail: engine.recognizer(other))
                } catch {
                    throw SceneError(g.location, "\(g.qualifiedName) require_to_fail: \(error)")
                }
            }
        }
    }

    // MARK: Running

    /// Delivers one frame of touches.
    public func handle(_ frame: TouchFrame) {
        engine.process(frame)
        applyEngineOutputs()
        for touch in frame.touches { trackControls(touch, at: frame.time) }
    }

    /// Lets time pass: timers of the engine fire, animations finish.
    public func advance(to now: Instant) {
        engine.advance(to: now)
        applyEngineOutputs()
        for i in views.indices {
            switch views[i].content {
            case .square(let s):
                if let start = s.dropStart, now.seconds(since: start) >= definition.dropAnimationSeconds {
                    views[i].withSquare { $0.lift = .resting }
                }
            case .toggle(let t):
                if let slide = t.slide, now.seconds(since: slide.start) >= Self.toggleAnimationSeconds {
                    views[i].withToggle { $0.slide = nil }
                }
            case .canvas, .button, .slider:
                break
            }
        }
    }

    /// The next moment something happens without input: a recognizer's timer or the end of an animation.
    public var nextDeadline: Instant? {
        var best = engine.nextDeadline
        for v in views {
            if let end = animationEnd(v), best.map({ end < $0 }) ?? true { best = end }
        }
        return best
    }

    /// When the view's animation ends (a square dropping, a switch's knob sliding); nil when none runs.
    private func animationEnd(_ v: ViewState) -> Instant? {
        switch v.content {
        case .square(let s): s.dropStart?.adding(seconds: definition.dropAnimationSeconds)
        case .toggle(let t): t.slide?.start.adding(seconds: Self.toggleAnimationSeconds)
        case .canvas, .button, .slider: nil
        }
    }

    /// Whether a pinch or a rotation is under way on the square `id`: what the drawing asks of the
    /// scene, which alone looks at its recognizers.
    public func isBeingTransformed(_ id: ViewID) -> Bool {
        guard views[id.rawValue].kind == .square else { return false }
        for r in engine.recognizers where r.view == id && r.state.isActive && (r.kind == .pinch || r.kind == .rotation) {
            return true
        }
        return false
    }

    /// True while an animation runs (a square dropping, a switch's knob sliding).
    public var isAnimating: Bool { views.contains { animationEnd($0) != nil } }

    /// Where a control's knob is drawn at `now`: a switch's knob slides (eased) to its new side.
    public func knobCenter(of id: ViewID, at now: Instant) -> Point {
        let v = views[id.rawValue]
        guard let t = v.toggle, t.knobTravel == nil, t.slide != nil else { return v.knobCenter() }
        return v.knobCenter(travel: Self.travel(of: t, at: now))
    }

    /// How far along its track the switch `t`'s knob is drawn at `now`, 0 (off) to 1 (on).
    static func travel(of t: ToggleState, at now: Instant) -> Double {
        if let travel = t.knobTravel { return travel }
        let to = t.isOn ? 1.0 : 0.0
        guard let slide = t.slide else { return to }
        let f = min(1, max(0, now.seconds(since: slide.start) / toggleAnimationSeconds))
        let eased = 1 - (1 - f) * (1 - f)
        return slide.from + (to - slide.from) * eased
    }

    /// The canvas's theme: an index into its declared themes.
    public var themeIndex: Int { views[0].canvas?.themeIndex ?? 0 }

    public func removeAllEvents() { events.removeAll(keepingCapacity: true) }

    /// How much larger than its scale a square is drawn at `now`: the lift, or the drop easing back.
    public func liftFactor(of id: ViewID, at now: Instant) -> Double {
        guard let s = views[id.rawValue].square else { return 1 }
        let start: Instant
        switch s.lift {
        case .resting: return 1
        case .lifted: return definition.liftScale
        case .dropping(let since): start = since
        }
        let t = min(1, max(0, now.seconds(since: start) / definition.dropAnimationSeconds))
        let eased = 1 - (1 - t) * (1 - t)
        return definition.liftScale + (1 - definition.liftScale) * eased
    }

    /// The square's outline at `now`: its four corners on the screen (another view's: its frame's).
    public func corners(of id: ViewID, at now: Instant? = nil) -> [Point] {
        let v = views[id.rawValue]
        guard let q = v.square else {
            let f = v.baseFrame
            return [Point(x: f.minX, y: f.minY), Point(x: f.maxX, y: f.minY), Point(x: f.maxX, y: f.maxY), Point(x: f.minX, y: f.maxY)]
        }
        let s = q.side / 2 * q.scale * (now.map { liftFactor(of: id, at: $0) } ?? (q.isLifted ? definition.liftScale : 1))
        return [Point(x: -s, y: -s), Point(x: s, y: -s), Point(x: s, y: s), Point(x: -s, y: s)].map { q.center + $0.rotated(by: q.rotation) }
    }

    /// The axis-aligned bounds of a view as it is shown (a transformed square's bounding box).
    public func frame(of id: ViewID) -> Rect {
        let v = views[id.rawValue]
        guard v.kind == .square else { return v.baseFrame }
        let c = corners(of: id)
        let xs = c.map(\.x), ys = c.map(\.y)
        return Rect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
    }

    public func viewID(named name: String) -> ViewID? {
        views.firstIndex { $0.name == name }.map { ViewID($0) }
    }

    /// Puts every view back as declared; the gesture engine keeps its state.
    public func reset() {
        // Touches that controls track stay tracked: the cancellation that follows a reset gesture
        // still reaches the control, which then reports it.
        views = initialViews
    }
}
