import Scene

/// What `kiosk run` needs beyond the scene: the `[display]`, `[input]`, `[log]` and `[loop]`
/// sections of the config file. Every field has a default, so a file with only a scene runs.
public struct RuntimeSettings: Sendable, Equatable {
    public var display = DisplaySettings()
    public var input = InputSettings()
    public var log = LogSettings()
    public var loop = LoopSettings()

    public init() {}
}

/// `[display]`: which panel, in which mode, how it is mounted, and when it sleeps.
public struct DisplaySettings: Sendable, Equatable {
    /// `/dev/dri/card1`; nil: the first card with a connected connector. `"headless"`: draw into
    /// memory only, no DRM (for a bench without a panel, and for tests).
    public var card: String?
    /// `HDMI-A-1`, `DSI-1`; nil: the first connected connector.
    public var connector: String?
    /// `WxH` or `WxH@R` such as `800x480@60`; nil: the connector's preferred mode.
    public var mode: String?
    public var pixelFormat: PixelFormatName = .xrgb8888
    /// Degrees clockwise the panel is mounted: 0, 90, 180 or 270.
    public var rotation = 0
    /// Seconds without a touch before the panel is blanked (DPMS off); 0: never.
    public var blankAfterSeconds = 0.0
    /// The backlight under `/sys/class/backlight` whose brightness the kiosk sets (`rpi_backlight`,
    /// `11-0045`); nil: the first there is. A panel without one is switched on and off only.
    public var backlight: String?
    /// The font file text is drawn with.
    public var font = DefaultFont.path
    /// Where SIGUSR1 writes a PNG of the screen.
    public var screenshotDirectory = "/var/lib/kiosk"

    public enum PixelFormatName: String, Sendable, Equatable, CaseIterable {
        case xrgb8888, rgb565
    }

    public init() {}
}

/// `[input]`: which touchscreen, and how its coordinates map onto the screen.
public struct InputSettings: Sendable, Equatable {
    /// A device path (`/dev/input/event2`) or name (`generic ft5x06 (79)`); nil: the first
    /// touchscreen found by capability.
    public var device: String?
    /// Where devices appear; watched for hotplug.
    public var directory = "/dev/input"
    /// Take the device for kiosk alone (EVIOCGRAB), so no console sees its touches.
    public var grab = true
    /// libinput's LIBINPUT_CALIBRATION_MATRIX: six numbers, normalised coordinates; nil: identity.
    public var calibration: [Double]?
    /// A tslib `pointercal` file to import instead of `calibration`.
    public var pointercal: String?
    /// Degrees clockwise the touches are turned after calibration (libinput's sense: 90° takes
    /// (x, y) to (1 − y, x)): 0, 90, 180, 270. Nil: the turn that undoes `[display] rotation`, so
    /// touches land where they are drawn; set it only for a touch controller mounted differently
    /// from the display's own pixels.
    public var rotation: Int?
    public var flipX = false
    public var flipY = false
    /// Movements smaller than this many device units are held back (resistive panels); 0: off.
    public var jitterUnits = 0
    /// Reports with less pressure than this are not touches (resistive panels); 0: off.
    public var minimumPressure = 0
    /// Touches shorter than this many seconds are dropped whole (ghost taps); 0: off.
    public var minimumTouchDuration = 0.0
    /// Contacts larger than this many millimetres are ignored (palms, sleeves); nil: off.
    public var maximumTouchSizeMillimetres: Double?
    /// Screen rectangles `[x, y, width, height]` where touches never begin (noisy bezels).
    public var ignore: [[Double]] = []

    public init() {}
}

/// `[log]`: the serial console and the stats line.
public struct LogSettings: Sendable, Equatable {
    /// The serial device the log is written to; nil (`serial = "none"`): stderr only.
    public var serial: String? = "/dev/serial0"
    public var baud = 115_200
    /// The log's levels (KioskLog's `Logger.Level`): trace, debug, info, notice, warning, error, critical.
    public var level: Level = .info
    /// Also write every line to stderr (journald when run by systemd).
    public var stderr = true
    /// Lines the serial buffer holds while the wire is busy; beyond it lines are dropped and counted.
    public var bufferLines = 256
    /// A message repeated within this many seconds is counted, not written again.
    public var repeatInterval = 10.0
    /// Seconds between stats lines; 0: none.
    public var statsInterval = 60.0

    public enum Level: String, Sendable, Equatable, CaseIterable {
        case trace, debug, info, notice, warning, error, critical
    }

    public init() {}
}

/// `[loop]`: the frame budget and its split over the stages.
public struct LoopSettings: Sendable, Equatable {
    /// Milliseconds for a whole frame; nil: one refresh of the display's mode.
    public var frameBudgetMilliseconds: Double?
    /// Each stage's share of the frame budget; all six, summing to 1 (within 0.001 when read from a file).
    public var stageShares: [Stage: Double] = LoopSettings.defaultShares

    public enum Stage: String, Sendable, Equatable, CaseIterable, Hashable {
        case input, timers, recognizers, animation, render, present
    }

    /// Drawing takes most of a frame; the engine's stages are microseconds on a Pi.
    public static let defaultShares: [Stage: Double] = [
        .input: 0.10, .timers: 0.05, .recognizers: 0.10, .animation: 0.05, .render: 0.55, .present: 0.15,
    ]

    public init() {}
}
