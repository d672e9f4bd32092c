extension KioskScene {
    /// Takes the state of `old`'s views into this scene, where a view of the same name and kind
    /// exists: a reloaded config keeps the squares where the users left them and the controls'
    /// values. What the new file declares anew (frames, colours, gestures) comes from the file.
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
                views[i].themeIndex = min(before.themeIndex, max(0, definition.views[i].themes.count - 1))
            case .button:
                views[i].taps = before.taps
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
