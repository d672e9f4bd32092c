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

/// A gesture engine over `TestViews`, driven by the support target's `Fingers` (frames to
/// `process`, waits to `advance`) on a virtual clock, writing down what the engine says.
final class EngineRig {
    let engine: GestureEngine
    let views = TestViews()
    /// The fingers on this engine, numbered from 1, on a clock from `origin`: each report goes to
    /// `process`, each `wait` to `advance`, and what the engine says is written down.
    private(set) lazy var fingers = Fingers(clock: VirtualClock(origin), firstFinger: 1,
                                            tick: { [unowned self] now in self.engine.advance(to: now); self.collect() },
                                            deliver: { [unowned self] frame in self.engine.process(frame); self.collect() })
    let origin = Instant(seconds: 100)
    /// Every event so far, as `name@view state`.
    private(set) var log: [String] = []
    private(set) var events: [GestureEvent] = []
    private(set) var cancelledInView: [TouchID] = []
    /// The touches the engine said began, with the view each began on.
    private(set) var began: [(touch: TouchID, view: ViewID)] = []

    init(trace: Bool = true) {
        engine = GestureEngine(trace: DecisionTrace(enabled: trace))
        engine.host = views
    }

    var metrics: PanelMetrics { engine.metrics }

    /// Seconds on the test clock since the start.
    var elapsed: Double { fingers.now.seconds(since: origin) }

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

    var decisions: [String] {
        engine.trace.decisions.map { engine.describe($0, origin: origin, viewName: { self.views.entries[$0.rawValue].name }) }
    }

    func events(of r: GestureRecognizer) -> [GestureEvent] { events.filter { $0.recognizer == r.id } }
    func states(of r: GestureRecognizer) -> [GestureState] { events(of: r).map(\.state) }
}

let screen = Rect(x: 0, y: 0, width: 800, height: 480)
