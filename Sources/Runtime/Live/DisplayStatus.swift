import KioskCore
#if canImport(Glibc)
import Glibc
#endif

/// The display as the extensions see it (`CommandTarget.display`): on or blanked, the backlight's
/// brightness, `blank_after`, and when a finger last came down. Read-only; changed through
/// `RemoteCommand`s (`setDisplay`, `wake`, `setBlankAfter`) and by touches and idle blanking.
public struct DisplayStatus: Sendable, Equatable {
    /// The panel is lit (false: blanked, by idle blanking or a command).
    public var isOn: Bool
    /// The backlight's brightness, 0...1; nil when the panel has no backlight (on and off only).
    public var brightness: Double?
    /// Seconds without a touch before the panel blanks; 0: never.
    public var blankAfter: Double
    /// When a finger last came down on the glass, in seconds since the Unix epoch (wall clock);
    /// nil before the first touch since the start.
    public var lastTouch: Double?
    /// What last turned the panel on or off.
    public var cause: DisplayCause

    public init(isOn: Bool = true, brightness: Double? = nil, blankAfter: Double = 0, lastTouch: Double? = nil, cause: DisplayCause = .start) {
        self.isOn = isOn
        self.brightness = brightness
        self.blankAfter = blankAfter
        self.lastTouch = lastTouch
        self.cause = cause
    }
}

/// What turned the panel on or off: hooks see it as `KIOSK_SOURCE`.
public enum DisplayCause: String, Sendable, Equatable {
    /// The kiosk started (and restored the saved state).
    case start
    /// A touch woke the panel.
    case touch
    /// `blank_after` ran out.
    case idle
    /// A reload woke it.
    case reload
    case socket
    case mqtt

    init(_ source: ChangeSource) {
        switch source {
        case .touch: self = .touch
        case .socket: self = .socket
        case .mqtt: self = .mqtt
        }
    }
}

/// The wall clock, for what people and Home Assistant read (a last touch's time); the loop's own
/// clock is monotonic and says nothing of the date.
