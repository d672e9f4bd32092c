import KioskCore

/// What users and programs set on a view at run time, which the state file keeps across restarts:
/// a slider's value, a switch's state, a button's label and presses, the canvas's theme.
///
/// The squares' transforms are not in it: no program sets them, and a finger moves them every
/// frame of a drag (docs/state.md says why).
public enum SavedViewState: Sendable, Equatable {
    case slider(value: Double)
    case toggle(on: Bool)
    case button(label: String, taps: Int)
    /// The theme by name, so a reordered list of themes keeps the one chosen.
    case canvas(theme: String)

    /// A control's state as its content holds it (a slider's value, a switch, a button's label
    /// and presses); nil for a square, and for a canvas, whose theme is named from the scene's
    /// list of themes (`KioskScene` does that). MQTT compares it before formatting a payload.
    public init?(control content: ViewContent) {
        switch content {
        case .slider(let s): self = .slider(value: s.value)
        case .toggle(let t): self = .toggle(on: t.isOn)
        case .button(let b): self = .button(label: b.label, taps: b.taps)
        case .canvas, .square: return nil
        }
    }

    /// The kind of view this state belongs to.
    public var kind: ViewKind {
        switch self {
        case .slider: .slider
        case .toggle: .toggle
        case .button: .button
        case .canvas: .canvas
        }
    }
}

/// One view's saved state, with the view's name.
public struct SavedView: Sendable, Equatable {
    public var name: String
    public var state: SavedViewState

    public init(name: String, state: SavedViewState) {
        self.name = name
        self.state = state
    }
}

extension KioskScene {
    /// Every view's saved state, in the scene's order (squares, and a canvas without themes, have none).
    public func savedViews() -> [SavedView] {
        views.indices.compactMap { i in savedState(of: i).map { SavedView(name: views[i].name, state: $0) } }
    }

    /// True when `saved` is what `savedViews()` would return now. Compares in place, allocating
    /// nothing: the state store asks it at every wake-up.
    public func savedViewsMatch(_ saved: [SavedView]) -> Bool {
        var k = 0
        for i in views.indices {
            guard let state = savedState(of: i) else { continue }
            guard k < saved.count, saved[k].name == views[i].name, state == saved[k].state else { return false }
            k += 1
        }
        return k == saved.count
    }

    private func savedState(of i: Int) -> SavedViewState? {
        guard case .canvas(let c) = views[i].content else { return SavedViewState(control: views[i].content) }
        // A canvas without themes has nothing to choose.
        let themes = definition.views[i].themes
        return themes.isEmpty ? nil : .canvas(theme: themes[min(c.themeIndex, themes.count - 1)].name)
    }

    /// Puts a saved state back into the view named `name`, as it was: no event, no animation.
    /// Throws why not, and changes nothing then: no such view, a view of another kind, a value the
    /// current config does not allow (a slider outside 0...1, a label over the longest or on two
    /// lines, negative presses, a theme the canvas does not have).
    public func restore(_ name: String, _ state: SavedViewState) throws(ControlChangeError) {
        guard let id = viewID(named: name) else { throw ControlChangeError("no view named '\(name)' in the config") }
        let i = id.rawValue
        guard views[i].kind == state.kind else {
            throw ControlChangeError("view '\(name)' is a \(views[i].kind.rawValue) in the config, not a \(state.kind.rawValue)")
        }
        switch state {
        case .slider(let value):
            guard value.isFinite, (0...1).contains(value) else {
                throw ControlChangeError("value \(value) of slider '\(name)' is out of range; expected a number from 0 to 1")
            }
            views[i].withSlider { $0.value = value }
        case .toggle(let on):
            views[i].withToggle {
                $0.isOn = on
                $0.knobTravel = nil
                $0.slide = nil
            }
        case .button(let label, let taps):
            guard label.count <= Self.maximumLabelLength, !label.contains(where: \.isNewline) else {
                throw ControlChangeError("label of button '\(name)' is not one line of at most \(Self.maximumLabelLength) characters")
            }
            guard taps >= 0 else { throw ControlChangeError("taps \(taps) of button '\(name)' is negative") }
            views[i].withButton {
                $0.label = label
                $0.taps = taps
            }
        case .canvas(let theme):
            let themes = definition.views[i].themes
            guard let t = themes.firstIndex(where: { $0.name == theme }) else {
                throw ControlChangeError("theme '\(theme)' of canvas '\(name)' is not one of its themes: \(themes.map(\.name).joined(separator: ", "))")
            }
            views[i].withCanvas { $0.themeIndex = t }
        }
    }
}
