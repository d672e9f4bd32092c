import Display
import KioskCore
import KioskState

/// The panel as a light (KioskLoop+Screen.swift): the backlight found, its brightness as last set,
/// the last touch, and what the extensions were last told. On and off are the blanking policy's
/// and the display state machine's (a command blanks and wakes as idle blanking does).
struct ScreenControl {
    /// Where the backlight class is: `/sys/class/backlight`, or a test's folder.
    var classDirectory = "/sys/class/backlight"
    var backlight: Backlight?
    /// The level last set or read, 0...1.
    var brightness = 1.0
    /// When a finger last came down, on the wall clock (seconds since the epoch).
    var lastTouch: Double?
    var cause = DisplayCause.start
    /// What `displayChanged` last told the extensions; nil: not yet.
    var told: DisplayStatus?
    /// `[display] blank_after` as the config said when `blank_after` was last set at run time
    /// (nil: never set since the start); a config that says something else since wins.
    var blankAfterInConfig: Double?
}
