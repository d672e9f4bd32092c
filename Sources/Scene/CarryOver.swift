extension KioskScene {
    /// Takes the state of `old`'s views into this scene, where a view of the same name and kind
    /// exists: a reloaded config keeps the squares where the users left them, the controls' values
    /// and a button's label set from outside, the state file's own state (SavedState.swift). What
    /// the new file declares anew (frames, colours, gestures) comes from the file.
    ///
    /// Call it with no touch down: touches and gestures in flight are not carried.
    /// Returns the names of the views whose state was carried.
    @discardableResult
    public func carryOver(from old: KioskScene) -> [String] {
        var carried: [String] = []
        for i in views.indices {
            guard let j = old.views.firstIndex(where: { $0.name == views[i].name && $0.kind == views[i].kind }) else { continue }
            switch old.views[j].content {
            case .square(let before):
                views[i].withSquare {
                    $0.center = before.center
                    $0.scale = before.scale
                    $0.rotation = before.rotation
                }
            case .canvas(let before):
                // By name, as the state file keeps it; a theme gone from the file: the one at its place.
                let oldThemes = old.definition.views[j].themes, themes = definition.views[i].themes
                let name = before.themeIndex < oldThemes.count ? oldThemes[before.themeIndex].name : nil
                let index = themes.firstIndex { $0.name == name } ?? min(before.themeIndex, max(0, themes.count - 1))
                views[i].withCanvas { $0.themeIndex = index }
            case .button(let before):
                // The label a program set is state, as the state file keeps it (SavedState.swift).
                views[i].withButton {
                    $0.taps = before.taps
                    $0.label = before.label
                }
            case .slider(let before):
                views[i].withSlider { $0.value = before.value }
            case .toggle(let before):
                views[i].withToggle { $0.isOn = before.isOn }
            }
            carried.append(views[i].name)
        }
        // The squares' stacking order: those carried keep their relative order, above any new ones.
        // A view that is not a square stacks in its declaration order, as hit testing has it.
        func z(_ scene: KioskScene, _ i: Int) -> Int { scene.views[i].square?.z ?? i }
        let order = views.indices.filter { views[$0].kind == .square }
            .sorted { a, b in
                let za = old.viewID(named: views[a].name).map { z(old, $0.rawValue) } ?? -1
                let zb = old.viewID(named: views[b].name).map { z(old, $0.rawValue) } ?? -1
                return za != zb ? za < zb : z(self, a) < z(self, b)
            }
        let slots = order.map { z(self, $0) }.sorted()
        for (k, i) in order.enumerated() { views[i].withSquare { $0.z = slots[k] } }
        return carried
    }
}
