import Display
import Gestures
import InputEvents
import KioskConfig
import KioskCore
import KioskLog
import TouchInput

/// The touchscreen as the config asks for it (device, grab, calibration, filters), kept open
/// across hotplug by a `TouchscreenWatcher`, and what it says, told to the log in one place.
final class LiveInput {
    /// Nil when the watcher could not be made (the log said why).
    private(set) var watcher: TouchscreenWatcher?
    private var log: Logger
    private let clock: any InstantClock
    /// The counts of the watchers a reload replaced: the stats line's totals are the run's.
    private var retired = InputCounters()

    init(log: Logger, clock: any InstantClock) {
        self.log = log
        self.clock = clock
    }

    /// Opens the touchscreen `settings` name, for a scene of `screen` pixels shown turned by
    /// `display`, sizes in millimetres through `panel`; a watcher open before (a reload) is replaced. Frames found already go to `deliver`.
    func open(_ settings: InputSettings, screen: Size, display: DisplayRotation, panel: PanelMetrics) {
        // Until the device is known: the matrix; a pointercal file applies once a device is found.
        var calibration = TouchCalibration.identity
        do {
            calibration = try settings.touchCalibration(displayRotation: display.degrees, screen: screen)
        } catch {
            log.error("input calibration refused", metadata: ["input.error": "\(error)"])
        }
        let filters = settings.touchFilters(panel: panel)
        if let old = watcher { retired = retired + old.counters }
        watcher = nil
        do {
            let watcher = try TouchscreenWatcher(directory: settings.directory, wanted: settings.device, grab: settings.grab,
                                                 screen: screen, calibration: calibration, filters: filters, clock: clock)
            if settings.pointercal != nil {
                watcher.calibrate = { device in try settings.touchCalibration(displayRotation: display.degrees, device: device, screen: screen) }
            }
            self.watcher = watcher
            watcher.attach { handle($0, deliver: { _ in }) }
        } catch {
            log.error("touch input unavailable", metadata: ["input.error": "\(error)"])
        }
    }

    func forEachDescriptor(_ body: (Int32) -> Void) { watcher?.forEachDescriptor(body) }

    /// Reads what is ready: each touch frame goes to `deliver` as soon as it is decoded.
    func service(deliver: (TouchFrame) -> Void) {
        guard let watcher else { return }
        let resyncs = watcher.counters.resyncs
        watcher.service { handle($0, deliver: deliver) }
        if watcher.counters.resyncs > resyncs {
            log.warning("the kernel dropped input events (SYN_DROPPED); resynchronised, no touch left down", metadata: [
                "input.resyncs": "\(counters.resyncs)",
            ])
        }
    }

    /// A frame goes to `deliver`; the rest is one line for the log. Waiting for a panel is a
    /// warning, the devices passed over meanwhile are debug, and only a device that is there and
    /// cannot be used is an error.
    private func handle(_ event: TouchscreenWatcher.Event, deliver: (TouchFrame) -> Void) {
        guard let watcher else { return }
        switch event {
        case .frame(let frame):
            deliver(frame)
        case .attached(let path, let name, let kind):
            log.info("touchscreen attached", metadata: ["input.device": "\(path)", "input.name": "\(name)", "input.kind": "\(kind)"])
        case .detached(let path, let name):
            log.warning("touchscreen removed; its touches were cancelled", metadata: ["input.device": "\(path)", "input.name": "\(name)"])
        case .waiting(let reason):
            log.warning("no touchscreen yet; waiting for one to be plugged in", metadata: [
                "input.directory": "\(watcher.directory)", "input.wanted": "\(watcher.wanted ?? "any touchscreen")",
                "input.waiting": "\(reason)",
            ])
        case .skipped(let path, let name, let reason):
            log.debug("input device skipped: not a touchscreen", metadata: [
                "input.device": "\(path)", "input.name": "\(name)", "input.reason": "\(reason)",
            ])
        case .settling(let path, let reason):
            log.debug("touchscreen node not open yet; udev may still be setting its permissions", metadata: [
                "input.device": "\(path)", "input.reason": "\(reason)",
                "input.grace.s": "\(fixedDecimal(watcher.permissionGrace, 1))",
            ])
        case .problem(let text):
            log.error("touchscreen cannot be used", metadata: ["input.error": "\(text)"])
        }
    }

    /// When a node still settling is to be looked at again.
    var nextDeadline: Instant? { watcher?.nextDeadline }

    /// Touchscreens open now: 0 or 1.
    var deviceCount: Int { watcher?.device == nil ? 0 : 1 }

    /// The touchscreen's counts for the whole run, across reloads and devices.
    var counters: InputCounters { retired + (watcher?.counters ?? InputCounters()) }
}
