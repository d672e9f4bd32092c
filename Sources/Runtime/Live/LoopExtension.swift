import KioskConfig
import KioskCore
import Scene
#if canImport(Glibc)
import Glibc
#endif

/// Where a change to the scene came from: a finger on the panel, or a program outside.
public enum ChangeSource: String, Sendable, Equatable {
    case touch
    case socket
    case mqtt
}

/// A change asked for from outside the glass (the control socket, MQTT), applied by the loop as
/// a finger's change would be: drawn, and reported to every extension.
public enum RemoteCommand: Sendable, Equatable {
    /// The slider's value (0...1).
    case setValue(view: String, Double)
    /// The switch's state.
    case setOn(view: String, Bool)
    /// The button's label.
    case setLabel(view: String, String)
    /// Fire the button's action as one tap would (Home Assistant's `button`).
    case press(view: String)
    /// The panel on (woken) or off (blanked, as idle blanking does), and its backlight's
    /// brightness (0...1): either or both.
    case setDisplay(on: Bool?, brightness: Double?)
    /// Wake the panel (on, and `blank_after` counts from now): a doorbell, a motion sensor.
    case wake
    /// Seconds without a touch before the panel blanks; 0: never.
    case setBlankAfter(Double)
    /// Synthetic touches through the panel's path (decision trace included), at scene coordinates.
    case tap(Point)
    case swipe(from: Point, to: Point, seconds: Double)
    /// A PNG of the frame the panel shows, made without blocking the loop: accepted now, and
    /// handed to every extension's `screenshotTaken` once encoded (KioskLoop+Screenshots.swift).
    case screenshot
}

/// Why a remote command was refused: said to the one who asked; nothing changed.
public struct RemoteCommandError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// What an extension may do to the kiosk it serves. The loop implements it.
public protocol CommandTarget: AnyObject {
    /// The scene as it is now (for `get_state`, and for publishing whole states).
    var scene: KioskScene { get }
    /// Queues `command` for the loop, which applies it after every extension was served this
    /// wake-up, in the order asked, and tells `requester` the outcome (`completed`, with
    /// `ticket`). Its events are published with `source` once, at the end of the wake-up, after
    /// all of its changes. False, and nothing queued, when the queue is full.
    func submit(_ command: RemoteCommand, source: ChangeSource, requester: LoopExtension, ticket: Int) -> Bool
    /// The loop's health as the last stats line measured it, with the touchscreen and the start
    /// time (read-only; MQTT's diagnostics).
    var diagnostics: LoopDiagnostics { get }

    // The display (KioskLoop+Screen.swift).
    /// On, brightness, `blank_after`, last touch: as they are now.
    var displayStatus: DisplayStatus { get }
}

/// Something beyond the touchscreen and the display that the loop serves from its one `poll()`:
/// the control socket, hooks, MQTT. No threads, no blocking calls; queues are bounded, and what
/// overflows is dropped and counted.
///
/// Its life, all of it called by the loop: `start` once installed, `service` and `publish` every
/// wake-up (never one inside the other), `reconfigure` after each reload that applied, `stop`
/// when the loop ends.
public protocol LoopExtension: AnyObject {
    /// Installed on a live loop running `configuration`, whose scene is `scene`.
    func start(configuration: KioskConfiguration, scene: KioskScene, now: Instant)
    /// Appends the descriptors to poll this wake-up, each with the events wanted now.
    func appendPollDescriptors(to fds: inout [pollfd])
    /// After `poll()`: serves the descriptors this extension added (found by fd in `ready`) and
    /// whatever fell due by `now`. Commands go through `target`.
    func service(_ ready: UnsafeBufferPointer<pollfd>, now: Instant, target: CommandTarget)
    /// The earliest moment it must be woken without a ready descriptor (a timeout, a reconnect).
    var nextDeadline: Instant? { get }
    /// A command it submitted was applied (or refused, saying why); called by the loop after
    /// every extension was served, never inside `service`. It may submit more.
    func completed(ticket: Int, result: Result<Void, RemoteCommandError>, target: CommandTarget, now: Instant)
    /// The scene's events since the last call, in order, with where the change came from; once
    /// a wake-up per source run, after every change of that wake-up.
    func publish(_ events: ArraySlice<SceneEvent>, source: ChangeSource, scene: KioskScene, now: Instant)
    /// A reload applied: `new` was checked whole and every part takes it; `scene` is its scene
    /// (views matched by name carried their state over). Returns the keys of `new` that differ
    /// from `old` and that this extension can only take at the next start, each as the config
    /// names it (`mqtt.broker`); it keeps running on their old values.
    func reconfigure(old: KioskConfiguration, new: KioskConfiguration, scene: KioskScene, now: Instant) -> [String]
    /// The display's status changed (on, brightness, `blank_after`, the last touch); at most once
    /// a wake-up, after its changes, never inside `service`.
    func displayChanged(_ status: DisplayStatus, now: Instant)
    /// The loop is ending (a signal): last words, without blocking for long.
    func stop(now: Instant)
    /// A screenshot asked for (by any extension) was encoded, or failed: called by the loop once
    /// per encode, before the extensions are served, for every extension; each one that asked
    /// answers its own (the socket's client, MQTT's image topic).
    func screenshotTaken(_ result: Result<Screenshot, ScreenshotError>, target: CommandTarget, now: Instant)
    /// Its counters for the stats line, as (key, value) pairs: what it served, dropped, failed.
    var statsFields: [(String, String)] { get }
    /// The stats line was just written (every `[log] stats_interval`): `target.diagnostics` holds
    /// its figures. Called by the loop after the timers stage, never inside `service`.
    func statsReported(now: Instant, target: CommandTarget)
}

extension LoopExtension {
    public func start(configuration: KioskConfiguration, scene: KioskScene, now: Instant) {}
    public func completed(ticket: Int, result: Result<Void, RemoteCommandError>, target: CommandTarget, now: Instant) {}
    public func reconfigure(old: KioskConfiguration, new: KioskConfiguration, scene: KioskScene, now: Instant) -> [String] { [] }
    public var statsFields: [(String, String)] { [] }
    public func displayChanged(_ status: DisplayStatus, now: Instant) {}
    public func screenshotTaken(_ result: Result<Screenshot, ScreenshotError>, target: CommandTarget, now: Instant) {}
    public func statsReported(now: Instant, target: CommandTarget) {}
}
