import Gestures
import KioskCore

/// A change to a control asked for from outside the glass (the control socket, MQTT).
public enum ControlChange: Sendable, Equatable {
    /// The slider's value, 0...1.
    case value(Double)
    /// The switch's state.
    case on(Bool)
    /// The button's label.
    case label(String)
    /// The button's action, as one tap that lifts inside fires it.
    case press
}

/// Why a control change was refused; nothing changed.
public struct ControlChangeError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Changes made from outside: the same state and the same events as a finger's, so they are drawn
/// and reported alike.
extension KioskScene {
    /// The longest button label taken: a label is drawn on one line inside the button.
    public static let maximumLabelLength = 200

    /// Applies `change` to the control named `view` at `now`, or says why not (an unknown view,
    /// a change its kind does not take, a value out of range, a finger holding it).
    public func change(_ view: String, _ change: ControlChange, at now: Instant) throws(ControlChangeError) {
        guard let id = viewID(named: view) else {
            let controls = views.filter { $0.kind == .button || $0.kind == .slider || $0.kind == .toggle }.map(\.name)
            throw ControlChangeError("no view named '\(view)'; the controls are: \(controls.joined(separator: ", "))")
        }
        let i = id.rawValue
        switch (views[i].content, change) {
        case (.slider(let slider), .value(let value)):
            guard value.isFinite, (0...1).contains(value) else {
                throw ControlChangeError("value \(value) is out of range for slider '\(view)'; expected a number from 0 to 1")
            }
            try notHeld(i)
            guard value != slider.value else { return }
            views[i].withSlider { $0.value = value }
            emit(id, .valueChanged(value), at: now)
        case (.toggle(let toggle), .on(let on)):
            try notHeld(i)
            guard on != toggle.isOn else { return }
            // The knob slides to its new side as after a tap.
            let from = Self.travel(of: toggle, at: now)
            views[i].withToggle {
                $0.slide = KnobSlide(start: now, from: from)
                $0.knobTravel = nil
                $0.isOn = on
            }
            emit(id, .toggled(on), at: now)
        case (.button, .label(let label)):
            guard label.count <= Self.maximumLabelLength, !label.contains(where: \.isNewline) else {
                throw ControlChangeError("label for button '\(view)' must be one line of at most \(Self.maximumLabelLength) characters")
            }
            views[i].withButton { $0.label = label }
        case (.button, .press):
            try notHeld(i)
            views[i].withButton { $0.taps += 1 }
            emit(id, .touchUpInside, at: now)
            emit(id, .primaryActionTriggered(taps: views[i].button?.taps ?? 0), at: now)
        default:
            let kind = views[i].kind
            throw ControlChangeError("view '\(view)' is a \(kind.rawValue): it takes \(Self.takes(kind))")
        }
    }

    private func notHeld(_ i: Int) throws(ControlChangeError) {
        guard tracking[i] == nil else {
            throw ControlChangeError("\(views[i].kind.rawValue) '\(views[i].name)' is held by a finger; try again when it lifts")
        }
    }

    private static func takes(_ kind: ViewKind) -> String {
        switch kind {
        case .slider: "a value from 0 to 1"
        case .toggle: "on (true or false)"
        case .button: "a label, or a press"
        case .canvas, .square: "no changes from outside (only touches)"
        }
    }
}
