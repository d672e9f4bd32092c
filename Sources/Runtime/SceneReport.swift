import Gestures
import KioskCore
import Scene

/// The replay's outputs as text: events as JSON Lines, the final state as JSON, decisions as lines.
public enum SceneReport {
    /// One JSON object per gesture or control event; `t` is seconds since `origin`.
    public static func eventLines(_ events: [SceneEvent], origin: Instant) -> [String] {
        events.map { event in
            var o = JSONObject()
            switch event {
            case .gesture(let e, let view, let recognizer, let kind):
                o.add("t", e.time.seconds(since: origin), digits: 6)
                addGesture(e, view: view, recognizer: recognizer, kind: kind, to: &o)
            case .control(let time, let view, let control):
                o.add("t", time.seconds(since: origin), digits: 6)
                o.add("view", view)
                o.add("event", control.name)
                addValue(of: control, to: &o)
            }
            return o.json
        }
    }

    /// A gesture event's fields after its time: the view, the recognizer, its kind and state, where,
    /// and what its kind measures. `kiosk replay --events` and the control socket's events share them.
    public static func addGesture(_ e: GestureEvent, view: String, recognizer: String, kind: RecognizerKind, to o: inout JSONObject) {
        o.add("view", view)
        o.add("recognizer", recognizer)
        o.add("kind", kind.rawValue)
        o.add("state", e.state.description)
        o.add("location", [e.location.x, e.location.y], digits: 2)
        switch kind {
        case .pan:
            o.add("translation", [e.translation.x, e.translation.y], digits: 2)
            o.add("velocity", [e.velocity.x, e.velocity.y], digits: 1)
        case .pinch:
            o.add("scale", e.scale, digits: 4)
            o.add("velocity", e.scalarVelocity, digits: 3)
        case .rotation:
            o.add("rotation", e.rotation, digits: 4)
            o.add("velocity", e.scalarVelocity, digits: 3)
        case .swipe:
            o.add("direction", e.direction.description)
        case .tap:
            o.add("taps", e.taps)
        case .longPress:
            break
        }
    }

    /// The value a control event carries: the button's taps, the slider's value, the switch's state.
    public static func addValue(of control: ControlEvent, to o: inout JSONObject) {
        switch control {
        case .primaryActionTriggered(let taps): o.add("taps", taps)
        case .valueChanged(let v): o.add("value", v, digits: 4)
        case .toggled(let on): o.add("on", on)
        default: break
        }
    }

    /// The scene as JSON: every view with its frame and center in screen pixels, and its kind's state.
    public static func state(of scene: KioskScene) -> String {
        var lines: [String] = []
        for i in scene.views.indices {
            let id = ViewID(i)
            let v = scene.views[i]
            let frame = scene.frame(of: id)
            var o = JSONObject()
            o.add("name", v.name)
            o.add("kind", v.kind.rawValue)
            o.add("frame", [frame.minX, frame.minY, frame.width, frame.height], digits: 2)
            let center = v.square?.center ?? v.baseFrame.center
            o.add("center", [center.x, center.y], digits: 2)
            switch v.content {
            case .square(let s):
                o.add("scale", s.scale, digits: 4)
                o.add("rotation", s.rotation, digits: 4)
                o.add("z", s.z)
                o.add("lifted", s.isLifted)
            case .canvas(let c):
                let themes = scene.definition.views[i].themes
                o.add("theme", themes.isEmpty ? "" : themes[c.themeIndex].name)
            case .button(let b):
                o.add("taps", b.taps)
                o.add("label", b.label)
            case .slider(let s):
                o.add("value", s.value, digits: 4)
                o.add("knob", [v.knobCenter().x, v.knobCenter().y], digits: 2)
            case .toggle(let t):
                o.add("on", t.isOn)
                o.add("knob", [v.knobCenter().x, v.knobCenter().y], digits: 2)
            }
            lines.append("    " + o.json)
        }
        return "{\"views\": [\n" + lines.joined(separator: ",\n") + "\n]}\n"
    }
}
