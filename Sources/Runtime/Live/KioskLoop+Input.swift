import CLinuxSystem
import Display
import Gestures
import InputEvents
import KioskConfig
import KioskCore
import Logging
import Render
import Scene
import TouchInput
#if canImport(Glibc)
import Glibc
#endif

// The touchscreen as the config asks for it: device, grab, calibration, filters.
extension KioskLoop {

    func openInput(_ settings: InputSettings) {
        let screen = Size(width: Double(shadow.width), height: Double(shadow.height))
        var base = TouchCalibration.identity
        do {
            base = try settings.touchCalibration(displayRotation: rotation.degrees, screen: screen)
        } catch {
            log.error("input calibration refused", metadata: ["input.error": "\(error)"])
        }
        let filters = settings.touchFilters(panel: scene.engine.metrics)
        if let old = input { retiredInputCounters = retiredInputCounters + old.counters }
        input = nil
        do {
            let watcher = try TouchscreenWatcher(directory: settings.directory, wanted: settings.device, grab: settings.grab,
                                                 screen: screen, calibration: base, filters: filters, clock: clock)
            if let pointercal = settings.pointercal {
                let display = rotation
                watcher.calibrate = { d in
                    try Self.pointercalCalibration(pointercal, device: d, screen: screen, settings: settings, display: display)
                }
            }
            input = watcher
            watcher.attach { event in logInput(event, from: watcher) }
        } catch {
            log.error("touch input unavailable", metadata: ["input.error": "\(error)"])
        }
    }

    /// One line for what the watcher said; touch frames are not its business. Waiting for a panel
    /// is a warning, the devices passed over meanwhile are debug, and only a device that is there
    /// and cannot be used is an error.
    func logInput(_ event: TouchscreenWatcher.Event, from watcher: TouchscreenWatcher) {
        switch event {
        case .frame:
            break
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

    static func pointercalCalibration(_ path: String, device d: DeviceDescription, screen: Size, settings: InputSettings,
                                      display: DisplayRotation) throws -> TouchCalibration {
        try TouchCalibration(pointercalFile: path, device: d, screen: (screen.width, screen.height))
            .rotated(clockwise: touchRotation(settings, display: display)).flipped(horizontally: settings.flipX, vertically: settings.flipY)
    }

    /// `[input] rotation` when given; else the turn that matches the display's, so a touch lands
    /// on what is drawn under the finger (flutter-pi#282: the two can still be set apart).
    static func touchRotation(_ settings: InputSettings, display: DisplayRotation) -> Int {
        settings.rotation ?? display.matchingTouchRotation
    }

    /// The touchscreen's counts for the whole run, across reloads and devices.
    var inputCounters: InputCounters { retiredInputCounters + (input?.counters ?? InputCounters()) }
}
