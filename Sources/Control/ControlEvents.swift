import ControlProtocol
import Gestures
import KioskCore
import Runtime
import Scene

/// The lines pushed to subscribers: `control` and `gesture` events with the names `kiosk replay
/// --events` uses, and `state`, a control's state after it changed; each with its `source`.
enum ControlEvents {
    /// The event's kind and its line; `t` is seconds since `origin`.
    static func line(_ event: SceneEvent, source: ChangeSource, origin: Instant) -> (ControlRequest.EventKind, String) {
        var o = JSONObject()
        switch event {
        case .gesture(let e, let view, let recognizer, let kind):
            o.add("event", "gesture")
            SceneReport.addGesture(e, view: view, recognizer: recognizer, kind: kind, to: &o)
            o.add("t", e.time.seconds(since: origin), digits: 3)
            o.add("source", source.rawValue)
            return (.gesture, o.json)
        case .control(let time, let view, let control):
            o.add("event", "control")
            o.add("view", view)
            o.add("name", control.name)
            SceneReport.addValue(of: control, to: &o)
            o.add("t", time.seconds(since: origin), digits: 3)
            o.add("source", source.rawValue)
            return (.control, o.json)
        }
    }

    /// The display's status as `get_state` says it: `{"on": ..., "brightness": ..., "blank_after": ..., "last_touch": ...}`.
    static func display(_ status: DisplayStatus) -> String {
        var o = JSONObject()
        o.add(contentsOf: displayFields(status))
        return o.json
    }

    /// The display's keys: `brightness` null without a backlight, `last_touch` ISO 8601 (null before the first).
    static func displayFields(_ status: DisplayStatus) -> JSONObject {
        var o = JSONObject()
        o.add("on", status.isOn)
        if let b = status.brightness { o.add("brightness", b, digits: 4) } else { o.add("brightness", raw: "null") }
        o.add("blank_after", status.blankAfter, digits: 3)
        if let t = status.lastTouch { o.add("last_touch", WallClock.iso8601(t)) } else { o.add("last_touch", raw: "null") }
        return o
    }

    /// The `state` line for a control event that changed what the control holds; nil for the others.
    static func stateLine(_ event: SceneEvent, source: ChangeSource, scene: KioskScene, origin: Instant) -> String? {
        guard case .control(let time, let view, let control) = event else { return nil }
        switch control {
        case .primaryActionTriggered, .valueChanged, .toggled: break
        default: return nil
        }
        return stateLine(view, scene: scene, time: time, source: source, origin: origin)
    }

    /// `{"event": "state", "view": ..., "kind": ..., ...}`: what a control holds now.
    static func stateLine(_ view: String, scene: KioskScene, time: Instant, source: ChangeSource, origin: Instant) -> String? {
        guard let id = scene.viewID(named: view) else { return nil }
        let v = scene.views[id.rawValue]
        var o = JSONObject()
        o.add("event", "state")
        o.add("view", view)
        o.add("kind", v.kind.rawValue)
        switch v.content {
        case .button(let b):
            o.add("taps", b.taps)
            o.add("label", b.label)
        case .slider(let s):
            o.add("value", s.value, digits: 4)
        case .toggle(let t):
            o.add("on", t.isOn)
        case .canvas, .square:
            return nil
        }
        o.add("t", time.seconds(since: origin), digits: 3)
        o.add("source", source.rawValue)
        return o.json
    }
}
