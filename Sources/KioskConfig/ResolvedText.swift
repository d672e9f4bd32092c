import Gestures
import Scene

extension KioskConfiguration {
    /// The configuration as a config file with every default written out, which parses back to the
    /// same configuration; what `kiosk check-config` prints. Values that are unset on purpose
    /// (`card`: the first connected one) are comment lines saying what happens instead.
    public var resolvedText: String {
        var w = TOMLWriter()
        w.comment("The configuration read from \(TOMLWriter.string(file)), with every default filled in.")
        w.header(SectionKey.panel.header)
        w.number(PanelKey.widthPixels, scene.panel.widthPixels)
        w.number(PanelKey.heightPixels, scene.panel.heightPixels)
        w.number(PanelKey.widthMillimetres, scene.panel.widthMillimetres)
        w.number(PanelKey.heightMillimetres, scene.panel.heightMillimetres)
        w.header(SectionKey.scene.header)
        w.number(SceneKey.dropAnimation, scene.dropAnimationSeconds)
        w.number(SceneKey.liftScale, scene.liftScale)
        for v in scene.views { w.view(v) }
        for g in scene.gestures { w.gesture(g) }
        w.runtime(runtime)
        w.control(control)
        w.hooks(hooks)
        if let mqtt { w.mqtt(mqtt) }
        w.state(state)
        return w.text
    }
}

/// Writes TOML one line at a time, in the spelling the config reader reads back exactly.
struct TOMLWriter {
    private(set) var text = ""

    mutating func header(_ header: String) {
        if !text.isEmpty { text += "\n" }
        text += header + "\n"
    }

    mutating func comment(_ line: String) { text += "# \(line)\n" }

    /// A key left out on purpose, and what that means.
    mutating func unset(_ key: any ConfigKeyName, _ meaning: String) { comment("\(key.name): not set: \(meaning)") }

    mutating func raw(_ key: any ConfigKeyName, _ value: String) { text += "\(key.name) = \(value)\n" }
    mutating func string(_ key: any ConfigKeyName, _ value: String) { raw(key, Self.string(value)) }
    mutating func number(_ key: any ConfigKeyName, _ value: Double) { raw(key, Self.number(value)) }
    mutating func int(_ key: any ConfigKeyName, _ value: Int) { raw(key, String(value)) }
    mutating func bool(_ key: any ConfigKeyName, _ value: Bool) { raw(key, value ? "true" : "false") }
    mutating func strings(_ key: any ConfigKeyName, _ values: [String]) { raw(key, "[" + values.map(Self.string).joined(separator: ", ") + "]") }
    mutating func numbers(_ key: any ConfigKeyName, _ values: [Double]) { raw(key, "[" + values.map(Self.number).joined(separator: ", ") + "]") }

    /// A TOML basic string: quotes, backslashes and control characters escaped; the rest as is (UTF-8).
    static func string(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\u{08}": out += "\\b"
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\u{0C}": out += "\\f"
            case "\r": out += "\\r"
            case "\u{00}"..."\u{1F}", "\u{7F}":
                let hex = String(u.value, radix: 16, uppercase: true)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }

    /// Whole numbers without a fraction (`800`, read back as the same Double); others in Swift's
    /// shortest spelling that reads back exactly (`154.2`, `1e-05`), which is also TOML's.
    static func number(_ x: Double) -> String {
        if x == x.rounded(), abs(x) < 1e15 { return String(Int(x)) }
        return String(x)
    }

    // MARK: The scene

    mutating func view(_ v: ViewDescription) {
        header("[[view]]")
        string(ViewKey.name, v.name)
        string(ViewKey.kind, v.kind.rawValue)
        if let parent = v.parent { string(ViewKey.parent, parent) }
        numbers(ViewKey.frame, [v.frame.origin.x, v.frame.origin.y, v.frame.size.width, v.frame.size.height])
        // Only the keys the kind takes: the reader refuses the others.
        switch v.kind {
        case .canvas:
            if v.themes.isEmpty {
                raw(ViewKey.themes, "[]")
            } else {
                text += "themes = [\n"
                for t in v.themes {
                    text += "  { name = \(Self.string(t.name)), background = \(Self.string(t.background.description)), "
                        + "foreground = \(Self.string(t.foreground.description)) },\n"
                }
                text += "]\n"
            }
        case .square:
            string(ViewKey.color, v.color.description)
        case .button, .slider, .toggle:
            if v.kind == .button { string(ViewKey.label, v.label) }
            if v.kind == .slider { number(ViewKey.value, v.value) }
            if v.kind == .toggle { bool(ViewKey.on, v.isOn) }
            string(ViewKey.color, v.color.description)
            number(ViewKey.trackingMargin, v.trackingMarginMillimetres)
        }
    }

    mutating func gesture(_ g: GestureDescription) {
        header("[[gesture]]")
        string(GestureKey.view, g.view)
        string(GestureKey.name, g.name)
        string(GestureKey.kind, g.spec.kind.rawValue)
        string(GestureKey.action, g.action.rawValue)
        switch g.spec {
        case .tap(let o):
            int(GestureKey.taps, o.tapsRequired)
            int(GestureKey.touches, o.touchesRequired)
            number(GestureKey.allowableMovement, o.allowableMovementMillimetres)
            number(GestureKey.multiTapInterval, o.multiTapIntervalSeconds)
            number(GestureKey.multiTapDistance, o.multiTapDistanceMillimetres)
        case .longPress(let o):
            number(GestureKey.minimumPressDuration, o.minimumPressDurationSeconds)
            number(GestureKey.allowableMovement, o.allowableMovementMillimetres)
            int(GestureKey.touches, o.touchesRequired)
            int(GestureKey.taps, o.tapsRequired)
            number(GestureKey.multiTapInterval, o.multiTapIntervalSeconds)
        case .pan(let o):
            int(GestureKey.minimumTouches, o.minimumTouches)
            if o.maximumTouches == Int.max {
                raw(GestureKey.maximumTouches, "\(Int.max)  # unlimited")
            } else {
                int(GestureKey.maximumTouches, o.maximumTouches)
            }
            number(GestureKey.hysteresis, o.hysteresisMillimetres)
        case .pinch(let o):
            number(GestureKey.hysteresis, o.hysteresisMillimetres)
        case .rotation(let o):
            number(GestureKey.hysteresisRadians, o.hysteresisRadians)
        case .swipe(let o):
            strings(GestureKey.directions, SwipeDirections.named.filter { o.directions.contains($0.1) }.map(\.0))
            int(GestureKey.touches, o.touchesRequired)
            number(GestureKey.minimumDistance, o.minimumDistanceMillimetres)
            number(GestureKey.minimumSpeed, o.minimumSpeedMillimetresPerSecond)
            number(GestureKey.maximumAngle, o.maximumAngleDegrees)
            number(GestureKey.maximumDuration, o.maximumDurationSeconds)
        }
        strings(GestureKey.simultaneousWith, g.simultaneousWith.map(\.description))
        strings(GestureKey.requireToFail, g.requireToFail.map(\.description))
        strings(GestureKey.shouldRequireFailureOf, g.shouldRequireFailureOf.map(\.description))
        strings(GestureKey.shouldBeRequiredToFailBy, g.shouldBeRequiredToFailBy.map(\.description))
        bool(GestureKey.cancelsTouchesInView, g.cancelsTouchesInView)
    }

    // MARK: The runtime

    mutating func runtime(_ s: RuntimeSettings) {
        let d = s.display
        header(SectionKey.display.header)
        if let card = d.card { string(DisplayKey.card, card) } else { unset(DisplayKey.card, "the first card with a connected connector") }
        if let connector = d.connector { string(DisplayKey.connector, connector) } else { unset(DisplayKey.connector, "the card's first connected connector") }
        if let mode = d.mode { string(DisplayKey.mode, mode) } else { unset(DisplayKey.mode, "the connector's preferred mode") }
        string(DisplayKey.pixelFormat, d.pixelFormat.rawValue)
        int(DisplayKey.rotation, d.rotation)
        number(DisplayKey.blankAfter, d.blankAfterSeconds)
        if let b = d.backlight { string(DisplayKey.backlight, b) } else { unset(DisplayKey.backlight, "the first under /sys/class/backlight; none: on and off only") }
        string(DisplayKey.font, d.font)
        string(DisplayKey.screenshotDirectory, d.screenshotDirectory)

        let i = s.input
        header(SectionKey.input.header)
        if let device = i.device { string(InputKey.device, device) } else { unset(InputKey.device, "the first touchscreen found by its capabilities") }
        string(InputKey.directory, i.directory)
        bool(InputKey.grab, i.grab)
        if let m = i.calibration { numbers(InputKey.calibration, m) } else { unset(InputKey.calibration, "the identity, touches as the panel reports them") }
        if let p = i.pointercal { string(InputKey.pointercal, p) } else { unset(InputKey.pointercal, "no tslib pointercal file is read") }
        if let r = i.rotation {
            int(InputKey.rotation, r)
        } else {
            unset(InputKey.rotation, "follows [display] rotation, so touches land where they are drawn")
        }
        bool(InputKey.flipX, i.flipX)
        bool(InputKey.flipY, i.flipY)
        int(InputKey.jitter, i.jitterUnits)
        int(InputKey.minimumPressure, i.minimumPressure)
        number(InputKey.minimumTouchDuration, i.minimumTouchDuration)
        if let size = i.maximumTouchSizeMillimetres { number(InputKey.maximumTouchSize, size) } else { unset(InputKey.maximumTouchSize, "no contact is too large") }
        raw(InputKey.ignore, "[" + i.ignore.map { "[" + $0.map(Self.number).joined(separator: ", ") + "]" }.joined(separator: ", ") + "]")

        let l = s.log
        header(SectionKey.log.header)
        string(LogKey.serial, l.serial ?? RuntimeSection.noSerial)
        int(LogKey.baud, l.baud)
        string(LogKey.level, l.level.rawValue)
        bool(LogKey.stderr, l.stderr)
        int(LogKey.bufferLines, l.bufferLines)
        number(LogKey.repeatInterval, l.repeatInterval)
        number(LogKey.statsInterval, l.statsInterval)

        header(SectionKey.loop.header)
        if let budget = s.loop.frameBudgetMilliseconds {
            number(LoopKey.frameBudget, budget)
        } else {
            unset(LoopKey.frameBudget, "one refresh of the display's mode")
        }
        header("[\(SectionKey.loop.name).\(LoopKey.stages.name)]")
        for stage in LoopSettings.Stage.allCases {
            number(stage, s.loop.stageShares[stage] ?? 0)
        }
    }
}
