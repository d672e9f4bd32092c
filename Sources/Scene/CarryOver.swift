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
            let before = old.views[j]
            switch views[i].kind {
            case .square:
                views[i].center = before.center
                views[i].scale = before.scale
                views[i].rotation = before.rotation
            case .canvas:
                // By name, as the state file keeps it; a theme gone from the file: the one at its place.
                let oldThemes = old.definition.views[j].themes, themes = definition.views[i].themes
                let name = before.themeIndex < oldThemes.count ? oldThemes[before.themeIndex].name : nil
                views[i].themeIndex = themes.firstIndex { $0.name == name } ?? min(before.themeIndex, max(0, themes.count - 1))
            case .button:
                // The label a program set is state, as the state file keeps it (SavedState.swift).
                views[i].taps = before.taps
                views[i].label = before.label
            case .slider:
                views[i].value = before.value
            case .toggle:
                views[i].isOn = before.isOn
            }
            carried.append(views[i].name)
        }
        // The squares' stacking order: those carried keep their relative order, above any new ones.
        let order = views.indices.filter { views[$0].kind == .square }
            .sorted { a, b in
                let za = old.viewID(named: views[a].name).map { old.views[$0.rawValue].z } ?? -1
                let zb = old.viewID(named: views[b].name).map { old.views[$0.rawValue].z } ?? -1
                return za != zb ? za < zb : views[a].z < views[b].z
            }
        let slots = order.map { views[$0].z }.sorted()
        for (k, i) in order.enumerated() { views[i].z = slots[k] }
        return carried
    }
}
