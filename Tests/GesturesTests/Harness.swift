import KioskCore
import KioskTestSupport
@testable import Gestures

/// Rectangles in a parent chain, enough of a view tree to hit-test; no scene needed.
final class TestViews: GestureEngineHost {
    struct Entry {
        var rect: Rect
        var parent: ViewID?
        var name: String
    }
    var entries: [Entry] = []
    /// What a hit view keeps for itself (UIControl's standard gestures), by view.
    var claims: [ViewID: StandardGestures] = [:]

    func add(_ name: String, _ rect: Rect, parent: ViewID? = nil) -> ViewID {
        entries.append(Entry(rect: rect, parent: parent, name: name))
        return ViewID(entries.count - 1)
    }

    func hitPath(at point: Point, into path: inout [ViewID]) {
        // The last view added that contains the point is the frontmost.
        guard let hit = entries.indices.last(where: { entries[$0].rect.contains(point) }) else { return }
        var v: ViewID? = ViewID(hit)
        while let id = v {
            path.append(id)
            v = entries[id.rawValue].parent
        }
    }

    func standardGestures(of view: ViewID, touchAt point: Point) -> StandardGestures {
        claims[view] ?? StandardGestures()
    }
}

/// A delegate whose answers are set by the test, and which counts the questions it is asked.
final class TestDelegate: GestureDelegate {
    var simultaneousWith: Set<String> = []
    var requiresFailureOf: Set<String> = []
    var requiredToFailBy: Set<String> = []
    var shouldBegin = true
    var refuseTouches = false
    var requirementQuestions = 0

    func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool { shouldBegin }
    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldReceive touch: TouchRecord) -> Bool { !refuseTouches }
    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer) -> Bool {
        simultaneousWith.contains(other.qualifiedName)
    }
    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldRequireFailureOf other: GestureRecognizer) -> Bool {
        requirementQuestions += 1
        return requiresFailureOf.contains(other.qualifiedName)
    }
    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldBeRequiredToFailBy other: GestureRecognizer) -> Bool {
        requirementQuestions += 1
        return requiredToFailBy.contains(other.qualifiedName)
    }
}

/// Drives an engine with fingers on a virtual clock, and writes down what it says.
/// Frames come at 60 Hz, like the FT5406.
final class Fingers {
    let engine: GestureEngine
    let views = TestViews()
    private let frames = FrameScript(clock: VirtualClock(Instant(seconds: 100)))
    var clock: VirtualClock { frames.clock }
    var now: Instant { clock.now }
    let origin = Instant(seconds: 100)
    private var nextID = 1
    private var down: [Int: Point] { frames.held }
    /// Every event so far, as `name@view state`.
    private(set) var log: [String] = []
    private(set) var events: [GestureEvent] = []
    private(set) var cancelledInView: [TouchID] = []
    /// The touches the engine said began, with the view each began on.
    private(set) var began: [(touch: TouchID, view: ViewID)] = []
    static let frame = 1.0 / 60

    init(trace: Bool = true) {
        engine = GestureEngine(trace: DecisionTrace(enabled: trace))
        engine.host = views
    }

    var metrics: PanelMetrics { engine.metrics }
    func mm(_ millimetres: Double) -> Double { metrics.pixels(millimetres: millimetres) }

    /// Seconds on the test clock since the start.
    var elapsed: Double { now.seconds(since: origin) }

    @discardableResult
    func add<R: GestureRecognizer>(_ r: R) -> R {
        try! engine.add(r)
        return r
    }

    private func collect() {
        for output in engine.outputs {
            switch output {
            case .gesture(let e):
                events.append(e)
                log.append("\(engine.recognizer(e.recognizer).qualifiedName) \(e.state)")
            case .touchCancelledInView(let id, _, _):
                cancelledInView.append(id)
            case .touchBegan(let id, let view, _):
                began.append((id, view))
            }
        }
    }

    private func send(_ changes: [Int: (phase: TouchPhase, location: Point)]) {
        engine.process(frames.frame(changes))
        collect()
    }

    /// Puts fingers down at once; returns their ids in order.
    @discardableResult
    func press(_ points: Point...) -> [Int] {
        var ids: [Int] = []
        var changes: [Int: (phase: TouchPhase, location: Point)] = [:]
        for p in points {
            let id = nextID
            nextID += 1
            ids.append(id)
            changes[id] = (.began, p)
        }
        send(changes)
        return ids
    }

    /// Moves fingers to new places in one frame, a frame later.
    func move(_ moves: [Int: Point]) {
        clock.advance(by: Self.frame)
        send(moves.filter { down[$0.key] != nil }.mapValues { (.moved, $0) })
    }

    /// Lifts fingers (all when none named), a frame later unless `sameFrame`.
    func lift(_ ids: [Int]? = nil, sameFrame: Bool = false, cancelled: Bool = false) {
        if !sameFrame { clock.advance(by: Self.frame) }
        let which = ids ?? Array(down.keys)
        var changes: [Int: (phase: TouchPhase, location: Point)] = [:]
        for id in which { if let p = down[id] { changes[id] = (cancelled ? .cancelled : .ended, p) } }
        send(changes)
    }

    /// Lets time pass with no touch input; timers fire.
    func wait(_ seconds: Double) {
        clock.advance(by: seconds)
        engine.advance(to: now)
        collect()
    }

    /// Drags one finger in a straight line, a frame at a time.
    func drag(_ id: Int, to end: Point, over seconds: Double) {
        let start = down[id]!
        let steps = max(1, Int((seconds / Self.frame).rounded()))
        for i in 1...steps {
            let f = Double(i) / Double(steps)
            move([id: start + (end - start) * f])
        }
    }

    /// One finger down at `start`, dragged to `end`, lifted.
    func drag(from start: Point, to end: Point, over seconds: Double) {
        let id = press(start)[0]
        drag(id, to: end, over: seconds)
        lift([id])
    }

    func tap(at p: Point, fingers: Int = 1) {
        let points = (0..<fingers).map { Point(x: p.x + Double($0) * 40, y: p.y) }
        let ids = points.map { press($0)[0] }
        clock.advance(by: 0.05)
        lift(ids)
    }

    /// Two fingers around `center`, `span` apart at `angle`, moved to `toSpan` and `toAngle`.
    func twoFingers(around center: Point, span: Double, to toSpan: Double, angle: Double = 0, toAngle: Double = 0, steps: Int = 10) {
        func points(_ s: Double, _ a: Double) -> (Point, Point) {
            let half = Point(x: s / 2, y: 0).rotated(by: a)
            return (center - half, center + half)
        }
        let (a, b) = points(span, angle)
        let ids = press(a, b)
        for i in 1...steps {
            let f = Double(i) / Double(steps)
            let (p, q) = points(span + (toSpan - span) * f, angle + (toAngle - angle) * f)
            move([ids[0]: p, ids[1]: q])
        }
        lift(ids)
    }

    var decisions: [String] {
        engine.trace.decisions.map { engine.describe($0, origin: origin, viewName: { self.views.entries[$0.rawValue].name }) }
    }

    func events(of r: GestureRecognizer) -> [GestureEvent] { events.filter { $0.recognizer == r.id } }
    func states(of r: GestureRecognizer) -> [GestureState] { events(of: r).map(\.state) }
}

let screen = Rect(x: 0, y: 0, width: 800, height: 480)
