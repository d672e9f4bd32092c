import Gestures
import KioskCore
import Scene

/// Reads `[panel]`, `[scene]`, `[[view]]` and `[[gesture]]` into a `SceneDescription`.
struct SceneSection {
    let file: String

    /// A panel's side, from a watch's to a wall's: 1 mm to 10 m.
    static let panelMillimetres = 1.0...10_000
    /// How far from the origin a frame's edges may lie, in pixels: well inside what cairo draws
    /// (`SceneRenderer.drawableLimit`, with room for a square pinched up 3 times and lifted 4) and
    /// what the state's JSON writes exactly.
    static let frameLimit = 65536.0

    /// A view's frame: four finite numbers, edges within +-`frameLimit`, width and height greater than 0.
    static func frameProblem(_ f: [Double]) -> String? {
        let limit = Int(frameLimit)
        guard f.allSatisfy(\.isFinite) else { return "every number must be finite, found [\(f.map(show).joined(separator: ", "))]" }
        guard f[2] > 0, f[3] > 0 else { return "width and height must be greater than 0, found \(show(f[2])) x \(show(f[3]))" }
        guard f[0] >= -frameLimit, f[1] >= -frameLimit, f[0] + f[2] <= frameLimit, f[1] + f[3] <= frameLimit else {
            return "[\(f.map(show).joined(separator: ", "))] reaches beyond what is allowed: x, y and their far edges "
                + "x + width, y + height from -\(limit) to \(limit) pixels"
        }
        return nil
    }

    static func show(_ x: Double) -> String { x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x) }

    func panel(_ r: TableReader?) throws(ConfigError) -> PanelMetrics {
        var p = PanelMetrics.raspberryPi7Inch
        guard let r else { return p }
        try r.rejectUnknownKeys(allowed: PanelKey.names)
        p.widthPixels = try r.number(PanelKey.widthPixels, in: 1...16384) ?? p.widthPixels
        p.heightPixels = try r.number(PanelKey.heightPixels, in: 1...16384) ?? p.heightPixels
        p.widthMillimetres = try r.number(PanelKey.widthMillimetres, in: Self.panelMillimetres, unit: " of millimetres") ?? p.widthMillimetres
        p.heightMillimetres = try r.number(PanelKey.heightMillimetres, in: Self.panelMillimetres, unit: " of millimetres") ?? p.heightMillimetres
        return p
    }

    func view(_ r: TableReader) throws(ConfigError) -> ViewDescription {
        var r = r
        let name = try r.requiredString(ViewKey.name)
        r.label = "view \"\(name)\""
        r.shownPath = "view \"\(name)\""
        let kindName = try r.choice(ViewKey.kind, ViewKind.allCases.map(\.rawValue))
        guard let kindName, let kind = ViewKind(rawValue: kindName) else { throw r.error(nil, "\(r.label) needs 'kind'") }
        try r.rejectUnknownKeys(allowed: ViewKey.allowed(for: kind).map(\.name))
        guard let f = try r.numbers(ViewKey.frame, count: 4, meaning: "[x, y, width, height] in pixels") else {
            throw r.error(nil, "\(r.label) needs 'frame' = [x, y, width, height]")
        }
        if let problem = Self.frameProblem(f) { throw r.error(ViewKey.frame, problem) }
        if kind == .square, f[2] != f[3] {
            throw r.error(ViewKey.frame, "a square's width and height must be equal, found \(Self.show(f[2])) x \(Self.show(f[3]))")
        }
        var d = ViewDescription(name: name, kind: kind, parent: try r.string(ViewKey.parent),
                                frame: Rect(x: f[0], y: f[1], width: f[2], height: f[3]),
                                location: SourceLocation(file: file, line: r.locator.line(of: r.path)))
        if let c = try color(r, ViewKey.color) { d.color = c }
        d.label = try r.string(ViewKey.label) ?? name
        d.value = try r.number(ViewKey.value, in: 0...1) ?? d.value
        d.isOn = try r.bool(ViewKey.on) ?? d.isOn
        d.trackingMarginMillimetres = try r.number(ViewKey.trackingMargin, in: 0...100, unit: " of millimetres") ?? d.trackingMarginMillimetres
        for t in try r.tables(ViewKey.themes) ?? [] {
            var t = t
            t.label = "a theme of view \"\(name)\""
            try t.rejectUnknownKeys(allowed: ThemeKey.names)
            let themeName = try t.requiredString(ThemeKey.name)
            guard let bg = try color(t, ThemeKey.background), let fg = try color(t, ThemeKey.foreground) else {
                throw t.error(nil, "theme \"\(themeName)\" needs 'background' and 'foreground' colours")
            }
            d.themes.append(Theme(name: themeName, background: bg, foreground: fg))
        }
        return d
    }

    func gesture(_ r: TableReader, views: [ViewDescription], panel: PanelMetrics) throws(ConfigError) -> GestureDescription {
        var r = r
        // Named by its name as soon as it has one, by name@view once its view is known too.
        if let name = try? r.string(GestureKey.name) {
            r.label = "gesture \"\(name)\""
            r.shownPath = r.label
        }
        let viewName = try r.requiredString(GestureKey.view)
        guard let view = views.first(where: { $0.name == viewName }) else {
            var message = "unknown view '\(viewName)'"
            if let near = nearest(viewName, among: views.map(\.name)) { message += "; did you mean '\(near)'?" }
            throw r.error(GestureKey.view, message + " Declared views: \(views.map(\.name).joined(separator: ", "))")
        }
        guard let kindName = try r.choice(GestureKey.kind, RecognizerKind.allCases.map(\.rawValue)),
              let kind = RecognizerKind(rawValue: kindName) else { throw r.error(nil, "a gesture needs 'kind'") }
        let name = try r.string(GestureKey.name) ?? kind.rawValue
        r.label = "gesture \"\(name)@\(viewName)\""
        r.shownPath = r.label
        let spec: RecognizerSpec
        switch kind {
        case .tap: spec = .tap(try tap(r))
        case .longPress: spec = .longPress(try longPress(r))
        case .pan: spec = .pan(try pan(r))
        case .pinch: spec = .pinch(try pinch(r))
        case .rotation: spec = .rotation(try rotation(r))
        case .swipe: spec = .swipe(try swipe(r, panel: panel))
        }
        let actionName = try r.choice(GestureKey.action, SceneAction.allCases.map(\.rawValue)) ?? SceneAction.none.rawValue
        let action = SceneAction(rawValue: actionName) ?? .none
        guard action.allowedRecognizerKinds.contains(kind) else {
            let kinds = action.allowedRecognizerKinds.map(\.rawValue).sorted().joined(separator: " or ")
            throw r.error(GestureKey.action, "'\(actionName)' reads \(kinds) events, not \(kind.rawValue)")
        }
        guard action.allowedViewKinds.contains(view.kind) else {
            throw r.error(GestureKey.action, "'\(actionName)' acts on a \(action.allowedViewKinds.map(\.rawValue).sorted().joined(separator: " or ")), and '\(viewName)' is a \(view.kind.rawValue)")
        }
        func references(_ key: GestureKey) throws(ConfigError) -> [RecognizerReference] {
            (try r.strings(key) ?? []).map(RecognizerReference.init(parsing:))
        }
        return GestureDescription(
            view: viewName, name: name, spec: spec, action: action,
            simultaneousWith: try references(GestureKey.simultaneousWith),
            requireToFail: try references(GestureKey.requireToFail),
            shouldRequireFailureOf: try references(GestureKey.shouldRequireFailureOf),
            shouldBeRequiredToFailBy: try references(GestureKey.shouldBeRequiredToFailBy),
            cancelsTouchesInView: try r.bool(GestureKey.cancelsTouchesInView) ?? true,
            location: SourceLocation(file: file, line: r.locator.line(of: r.path)))
    }

    // MARK: Recognizer parameters (names follow UIKit's properties, in config spelling)

    private static let seconds = Double.leastNonzeroMagnitude...60.0

    private func tap(_ r: TableReader) throws(ConfigError) -> TapOptions {
        try r.rejectUnknownKeys(allowed: GestureKey.allowed(for: .tap).map(\.name))
        var o = TapOptions()
        o.tapsRequired = try r.int(GestureKey.taps, in: 1...10) ?? o.tapsRequired
        o.touchesRequired = try r.int(GestureKey.touches, in: 1...10) ?? o.touchesRequired
        o.allowableMovementMillimetres = try r.number(GestureKey.allowableMovement, in: 0...100, unit: " of millimetres") ?? o.allowableMovementMillimetres
        o.multiTapIntervalSeconds = try r.number(GestureKey.multiTapInterval, in: Self.seconds, unit: " of seconds") ?? o.multiTapIntervalSeconds
        o.multiTapDistanceMillimetres = try r.number(GestureKey.multiTapDistance, in: 0...1000, unit: " of millimetres") ?? o.multiTapDistanceMillimetres
        return o
    }

    private func longPress(_ r: TableReader) throws(ConfigError) -> LongPressOptions {
        try r.rejectUnknownKeys(allowed: GestureKey.allowed(for: .longPress).map(\.name))
        var o = LongPressOptions()
        o.minimumPressDurationSeconds = try r.number(GestureKey.minimumPressDuration, in: 0...60, unit: " of seconds") ?? o.minimumPressDurationSeconds
        o.allowableMovementMillimetres = try r.number(GestureKey.allowableMovement, in: 0...100, unit: " of millimetres") ?? o.allowableMovementMillimetres
        o.touchesRequired = try r.int(GestureKey.touches, in: 1...10) ?? o.touchesRequired
        o.tapsRequired = try r.int(GestureKey.taps, in: 0...10) ?? o.tapsRequired
        o.multiTapIntervalSeconds = try r.number(GestureKey.multiTapInterval, in: Self.seconds, unit: " of seconds") ?? o.multiTapIntervalSeconds
        return o
    }

    private func pan(_ r: TableReader) throws(ConfigError) -> PanOptions {
        try r.rejectUnknownKeys(allowed: GestureKey.allowed(for: .pan).map(\.name))
        var o = PanOptions()
        o.minimumTouches = try r.int(GestureKey.minimumTouches, in: 1...10) ?? o.minimumTouches
        o.maximumTouches = try r.int(GestureKey.maximumTouches, in: 1...Int.max) ?? o.maximumTouches
        guard o.maximumTouches >= o.minimumTouches else {
            throw r.error(GestureKey.maximumTouches, "\(o.maximumTouches) is below minimum_touches (\(o.minimumTouches))")
        }
        o.hysteresisMillimetres = try r.number(GestureKey.hysteresis, in: 0...100, unit: " of millimetres") ?? o.hysteresisMillimetres
        return o
    }

    private func pinch(_ r: TableReader) throws(ConfigError) -> PinchOptions {
        try r.rejectUnknownKeys(allowed: GestureKey.allowed(for: .pinch).map(\.name))
        var o = PinchOptions()
        o.hysteresisMillimetres = try r.number(GestureKey.hysteresis, in: 0...100, unit: " of millimetres") ?? o.hysteresisMillimetres
        return o
    }

    private func rotation(_ r: TableReader) throws(ConfigError) -> RotationOptions {
        try r.rejectUnknownKeys(allowed: GestureKey.allowed(for: .rotation).map(\.name))
        var o = RotationOptions()
        o.hysteresisRadians = try r.number(GestureKey.hysteresisRadians, in: 0...Double.pi, unit: " of radians") ?? o.hysteresisRadians
        return o
    }

    private func swipe(_ r: TableReader, panel: PanelMetrics) throws(ConfigError) -> SwipeOptions {
        try r.rejectUnknownKeys(allowed: GestureKey.allowed(for: .swipe).map(\.name))
        var o = SwipeOptions()
        if let names = try r.strings(GestureKey.directions) {
            var directions: SwipeDirections = []
            for n in names {
                guard let d = SwipeDirections.named.first(where: { $0.0 == n })?.1 else {
                    throw r.error(GestureKey.directions, "'\(n)' is not a direction; allowed: right, left, up, down")
                }
                directions.insert(d)
            }
            guard !directions.isEmpty else { throw r.error(GestureKey.directions, "needs at least one of right, left, up, down") }
            o.directions = directions
        }
        o.touchesRequired = try r.int(GestureKey.touches, in: 1...10) ?? o.touchesRequired
        // A swipe longer than the panel's diagonal could never be made.
        let diagonal = (panel.widthMillimetres * panel.widthMillimetres + panel.heightMillimetres * panel.heightMillimetres).squareRoot()
        o.minimumDistanceMillimetres = try r.number(GestureKey.minimumDistance, allowed: "a number of millimetres greater than 0 and at most "
            + "\(fixedDecimal(diagonal, 1)), the panel's diagonal") { $0 > 0 && $0 <= diagonal } ?? o.minimumDistanceMillimetres
        o.minimumSpeedMillimetresPerSecond = try r.number(GestureKey.minimumSpeed, in: 0...100_000, unit: " of mm/s") ?? o.minimumSpeedMillimetresPerSecond
        o.maximumAngleDegrees = try r.number(GestureKey.maximumAngle, in: 0...90, unit: " of degrees") ?? o.maximumAngleDegrees
        o.maximumDurationSeconds = try r.number(GestureKey.maximumDuration, in: Self.seconds, unit: " of seconds") ?? o.maximumDurationSeconds
        return o
    }

    private func color(_ r: TableReader, _ key: any ConfigKeyName) throws(ConfigError) -> Color? {
        guard let s = try r.string(key) else { return nil }
        guard let c = Color(hex: s) else { throw r.error(key, "'\(s)' is not a colour; expected \"#rrggbb\", such as \"#f5c518\"") }
        return c
    }
}
