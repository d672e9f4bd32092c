import Gestures
import Scene

extension KioskConfiguration {
    /// The configuration as a config file with every default written out, which parses back to the
    /// same configuration; what `kiosk check-config` prints. Values that are unset on purpose
    /// (`card`: the first connected one) are comment lines saying what happens instead.
    public var resolvedText: String {
        var w = TOMLWriter()
        w.comment("The configuration read from \(TOMLWriter.string(file)), with every default filled in.")
        w.header("[panel]")
        w.number("width_px", scene.panel.widthPixels)
        w.number("height_px", scene.panel.heightPixels)
        w.number("width_mm", scene.panel.widthMillimetres)
        w.number("height_mm", scene.panel.heightMillimetres)
        w.header("[scene]")
        w.number("drop_animation", scene.dropAnimationSeconds)
        w.number("lift_scale", scene.liftScale)
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
    mutating func unset(_ key: String, _ meaning: String) { comment("\(key): not set: \(meaning)") }

    mutating func raw(_ key: String, _ value: String) { text += "\(key) = \(value)\n" }
    mutating func string(_ key: String, _ value: String) { raw(key, Self.string(value)) }
    mutating func number(_ key: String, _ value: Double) { raw(key, Self.number(value)) }
    mutating func int(_ key: String, _ value: Int) { raw(key, String(value)) }
    mutating func bool(_ key: String, _ value: Bool) { raw(key, value ? "true" : "false") }
    mutating func strings(_ key: String, _ values: [String]) { raw(key, "[" + values.map(Self.string).joined(separator: ", ") + "]") }
    mutating func numbers(_ key: String, _ values: [Double]) { raw(key, "[" + values.map(Self.number).joined(separator: ", ") + "]") }

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
        string("name", v.name)
        string("kind", v.kind.rawValue)
        if let parent = v.parent { string("parent", parent) }
        numbers("frame", [v.frame.origin.x, v.frame.origin.y, v.frame.size.width, v.frame.size.height])
        // Only the keys the kind takes: the reader refuses the others.
        switch v.kind {
        case .canvas:
            if v.themes.isEmpty {
                raw("themes", "[]")
            } else {
                text += "themes = [\n"
                for t in v.themes {
                    text += "  { name = \(Self.string(t.name)), background = \(Self.string(t.background.description)), "
                        + "foreground = \(Self.string(t.foreground.description)) },\n"
                }
                text += "]\n"
            }
        case .square:
            string("color", v.color.description)
        case .button, .slider, .toggle:
            if v.kind == .button { string("label", v.label) }
            if v.kind == .slider { number("value", v.value) }
            if v.kind == .toggle { bool("on", v.isOn) }
            string("color", v.color.description)
            number("tracking_margin_mm", v.trackingMarginMillimetres)
        }
    }

    mutating func gesture(_ g: GestureDescription) {
        header("[[gesture]]")
        string("view", g.view)
        string("name", g.name)
        string("kind", g.spec.kind.rawValue)
        string("action", g.action.rawValue)
        switch g.spec {
        case .tap(let o):
            int("taps", o.tapsRequired)
            int("touches", o.touchesRequired)
            number("allowable_movement_mm", o.allowableMovementMillimetres)
            number("multi_tap_interval", o.multiTapIntervalSeconds)
            number("multi_tap_distance_mm", o.multiTapDistanceMillimetres)
        case .longPress(let o):
            number("minimum_press_duration", o.minimumPressDurationSeconds)
            number("allowable_movement_mm", o.allowableMovementMillimetres)
            int("touches", o.touchesRequired)
            int("taps", o.tapsRequired)
            number("multi_tap_interval", o.multiTapIntervalSeconds)
        case .pan(let o):
            int("minimum_touches", o.minimumTouches)
            if o.maximumTouches == Int.max {
                raw("maximum_touches", "\(Int.max)  # unlimited")
            } else {
                int("maximum_touches", o.maximumTouches)
            }
            number("hysteresis_mm", o.hysteresisMillimetres)
        case .pinch(let o):
            number("hysteresis_mm", o.hysteresisMillimetres)
        case .rotation(let o):
            number("hysteresis_radians", o.hysteresisRadians)
        case .swipe(let o):
            strings("directions", SwipeDirections.named.filter { o.directions.contains($0.1) }.map(\.0))
            int("touches", o.touchesRequired)
            number("minimum_distance_mm", o.minimumDistanceMillimetres)
            number("minimum_speed_mm_per_s", o.minimumSpeedMillimetresPerSecond)
            number("maximum_angle_degrees", o.maximumAngleDegrees)
            number("maximum_duration", o.maximumDurationSeconds)
        }
        strings("simultaneous_with", g.simultaneousWith.map(\.description))
        strings("require_to_fail", g.requireToFail.map(\.description))
        strings("should_require_failure_of", g.shouldRequireFailureOf.map(\.description))
        strings("should_be_required_to_fail_by", g.shouldBeRequiredToFailBy.map(\.description))
        bool("cancels_touches_in_view", g.cancelsTouchesInView)
    }

    // MARK: The runtime

    mutating func runtime(_ s: RuntimeSettings) {
        let d = s.display
        header("[display]")
        if let card = d.card { string("card", card) } else { unset("card", "the first card with a connected connector") }
        if let connector = d.connector { string("connector", connector) } else { unset("connector", "the card's first connected connector") }
        if let mode = d.mode { string("mode", mode) } else { unset("mode", "the connector's preferred mode") }
        string("pixel_format", d.pixelFormat.rawValue)
        int("rotation", d.rotation)
        number("blank_after", d.blankAfterSeconds)
        string("font", d.font)
        string("screenshot_directory", d.screenshotDirectory)

        let i = s.input
        header("[input]")
        if let device = i.device { string("device", device) } else { unset("device", "the first touchscreen found by its capabilities") }
        string("directory", i.directory)
        bool("grab", i.grab)
        if let m = i.calibration { numbers("calibration", m) } else { unset("calibration", "the identity, touches as the panel reports them") }
        if let p = i.pointercal { string("pointercal", p) } else { unset("pointercal", "no tslib pointercal file is read") }
        if let r = i.rotation {
            int("rotation", r)
        } else {
            unset("rotation", "follows [display] rotation, so touches land where they are drawn")
        }
        bool("flip_x", i.flipX)
        bool("flip_y", i.flipY)
        int("jitter", i.jitterUnits)
        int("minimum_pressure", i.minimumPressure)
        number("minimum_touch_duration", i.minimumTouchDuration)
        if let size = i.maximumTouchSizeMillimetres { number("maximum_touch_size", size) } else { unset("maximum_touch_size", "no contact is too large") }
        raw("ignore", "[" + i.ignore.map { "[" + $0.map(Self.number).joined(separator: ", ") + "]" }.joined(separator: ", ") + "]")

        let l = s.log
        header("[log]")
        string("serial", l.serial ?? RuntimeSection.noSerial)
        int("baud", l.baud)
        string("level", l.level.rawValue)
        bool("stderr", l.stderr)
        int("buffer_lines", l.bufferLines)
        number("repeat_interval", l.repeatInterval)
        number("stats_interval", l.statsInterval)

        header("[loop]")
        if let budget = s.loop.frameBudgetMilliseconds {
            number("frame_budget", budget)
        } else {
            unset("frame_budget", "one refresh of the display's mode")
        }
        header("[loop.stages]")
        for stage in LoopSettings.Stage.allCases {
            number(stage.rawValue, s.loop.stageShares[stage] ?? 0)
        }
    }
}
