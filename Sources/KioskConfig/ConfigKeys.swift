/// The config's key table: each section's keys spelled once, here. The reader reads by them and
/// refuses every other key (`TableReader`), `kiosk check-config` prints by them (`TOMLWriter`),
/// and the calibration writer finds `[input] calibration` by them (`CalibrationWriter`), so a key
/// cannot be spelled one way where it is read and another where it is written. The order of the
/// cases is the order errors list the allowed keys in.
protocol ConfigKeyName {
    /// The key as the file spells it.
    var name: String { get }
}

/// A key as the file wrote it, which no table spells: one the reader refuses as unknown.
struct KeyInFile: ConfigKeyName {
    let name: String
    init(_ name: String) { self.name = name }
}

/// One section's keys.
protocol ConfigKey: ConfigKeyName, RawRepresentable, CaseIterable, Sendable where RawValue == String {}

extension ConfigKey {
    var name: String { rawValue }
    /// Every key of the section, in order.
    static var names: [String] { allCases.map(\.rawValue) }
}

/// The sections: the top level's keys.
enum SectionKey: String, ConfigKey {
    case panel, scene, view, gesture, display, input, log, loop, control, hook, hooks, mqtt, state

    /// `[name]` as a header writes it.
    var header: String { "[\(rawValue)]" }
}

enum PanelKey: String, ConfigKey {
    case widthPixels = "width_px", heightPixels = "height_px", widthMillimetres = "width_mm", heightMillimetres = "height_mm"
}

enum SceneKey: String, ConfigKey {
    case dropAnimation = "drop_animation", liftScale = "lift_scale"
}

enum DisplayKey: String, ConfigKey {
    case card, connector, mode, pixelFormat = "pixel_format", rotation, blankAfter = "blank_after", font, backlight
    case screenshotDirectory = "screenshot_directory"
}

enum InputKey: String, ConfigKey {
    case device, directory, grab, calibration, pointercal, rotation, flipX = "flip_x", flipY = "flip_y", jitter
    case minimumPressure = "minimum_pressure"
    // The filters for bad panels (InputFilterKeys.swift).
    case minimumTouchDuration = "minimum_touch_duration", maximumTouchSize = "maximum_touch_size", ignore
}

enum LogKey: String, ConfigKey {
    case serial, baud, level, stderr, bufferLines = "buffer_lines", repeatInterval = "repeat_interval", statsInterval = "stats_interval"
}

enum LoopKey: String, ConfigKey {
    case frameBudget = "frame_budget", stages
}

/// `[loop.stages]`: one share per stage, named as the stage.
extension LoopSettings.Stage: ConfigKey {}

enum ControlKey: String, ConfigKey {
    case socket, maxClients = "max_clients", clientQueue = "client_queue"
}

enum MQTTKey: String, ConfigKey {
    case broker, caFile = "ca_file", clientID = "client_id", username, passwordFile = "password_file", topicPrefix = "topic_prefix"
    case discoveryPrefix = "discovery_prefix", discovery, node, stateInterval = "state_interval"
}

/// `[hooks]`: the limits.
enum HooksKey: String, ConfigKey {
    case maxRunning = "max_running", queue, killGrace = "kill_grace"
}

/// One `[[hook]]`.
enum HookKey: String, ConfigKey {
    case view, event, run, timeout
}

/// `[state]`: the state file kept across restarts.
enum StateKey: String, ConfigKey {
    case enabled, directory, file, writeInterval = "write_interval"
}
