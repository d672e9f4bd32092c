import ArgumentParser
import Foundation
import Gestures
import InputEvents
import KioskConfig
import KioskCore
import Runtime
import TouchInput

struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List every input device with its axes, ranges, slots and properties; mark the touchscreen kiosk would use and say why the others were skipped.",
        discussion: """
            The device kiosk wants is the config's [input] device (from --config, or \
            /etc/kiosk/kiosk.conf when it exists), unless --device names another. When it cannot \
            be used, or no touchscreen is there, the last line says why.
            """
    )

    @Option(help: "The kiosk config whose [input] device and directory to use; default: /etc/kiosk/kiosk.conf when it exists, else a checkout's config/kiosk.toml.")
    var config: String?

    @Option(help: "Where the device nodes are; default: the config's [input] directory, else /dev/input.")
    var directory: String?

    @Option(help: "The device kiosk should use, by path (a /dev/input/by-id or by-path link too) or by name; default: the config's [input] device.")
    var device: String?

    func run() throws {
        var input = InputSettings()
        let chosen = ConfigPath.resolve(config)
        if let configuration = try chosen.loadIfThere("devices") {
            input = configuration.runtime.input
            print("config \(chosen.path): [input] device = " + (input.device.map { "\"\($0)\"" } ?? "unset (the first touchscreen)"))
            print("config \(chosen.path): \(TouchesCommand.describe(configuration))")
        }
        print(DeviceDiscovery(directory: directory ?? input.directory).report(using: device ?? input.device), terminator: "")
    }
}

/// The touchscreen to use: the one named, or the first found; errors exit with status 2.
func openTouchscreen(_ wanted: String?, directory: String = "/dev/input") throws -> EvdevDevice {
    do {
        let entry = try DeviceDiscovery(directory: directory).choose(wanted)
        return try EvdevDevice(path: entry.path)
    } catch {
        FileHandle.standardError.write(Data("kiosk: \(error)\n".utf8))
        throw ExitCode(2)
    }
}

struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record a touchscreen's events in evemu format, for `kiosk replay` or `evemu-play` on another machine.",
        discussion: "Records until --duration passes or Ctrl-C (SIGINT/SIGTERM). Times start at 0 at the first event."
    )

    @Option(help: "The device, by path or by name; default: the first touchscreen.")
    var device: String?

    @Option(help: "Seconds to record.")
    var duration: Double?

    @Flag(help: "Grab the device while recording, so nothing else sees the touches.")
    var grab = false

    @Argument(help: "The evemu file to write.")
    var output: String

    func run() throws {
        do {
            try TextFile.checkWritable(output, what: "the recording")
        } catch {
            FileHandle.standardError.write(Data("kiosk record: \(error)\n".utf8))
            throw ExitCode(2)
        }
        let d = try openTouchscreen(device)
        if grab { try d.grab() }
        // Written as it comes, a report at a time: a recording that is killed keeps all but its last report.
        let recorder: TraceRecorder
        do {
            recorder = try TraceRecorder(path: output, device: d.description)
        } catch {
            FileHandle.standardError.write(Data("kiosk record: \(error)\n".utf8))
            throw ExitCode(1)
        }
        FileHandle.standardError.write(Data("kiosk record: recording \(d.path) (\"\(d.description.name)\")\(duration.map { " for \($0) s" } ?? "; Ctrl-C ends")\n".utf8))
        var resyncs = 0
        let ending = try PollLoop.run(d, seconds: duration) { event in
            if d.resyncCount != resyncs {
                // The kernel dropped events: the events after the marker are libevdev's resync.
                resyncs = d.resyncCount
                recorder.markDropped(at: event.time)
            }
            recorder.record(event)
        }
        do {
            try recorder.finish()
        } catch {
            FileHandle.standardError.write(Data("kiosk record: \(error)\n".utf8))
            throw ExitCode(1)
        }
        var summary = "kiosk record: \(recorder.eventCount) events from \(d.path) (\"\(d.description.name)\") to \(output)"
        if d.resyncCount > 0 { summary += "; the kernel dropped events \(d.resyncCount) times (resynchronised, marked SYN_DROPPED)" }
        if ending == .deviceGone { summary += "; the device went away" }
        FileHandle.standardError.write(Data((summary + "\n").utf8))
    }
}

struct TouchesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "touches",
        abstract: "Print the live touches of a touchscreen as kiosk sees them, one line per frame, in screen pixels.",
        discussion: """
            What it prints is what the gestures of kiosk run would get: the config's [input] \
            (--config; default /etc/kiosk/kiosk.conf when it exists, else a checkout's \
            config/kiosk.toml) gives the device, the screen ([panel]), the rotation (following \
            [display] rotation unless [input] rotation is set), the calibration and the filters; \
            the options override them. --raw prints the device's own coordinates instead, with \
            nothing applied. Ends after --duration or Ctrl-C.
            """
    )

    @Option(help: "The kiosk config whose [input] and [panel] to apply; default: /etc/kiosk/kiosk.conf when it exists, else a checkout's config/kiosk.toml.")
    var config: String?

    @Option(help: "The device, by path or by name; default: the config's [input] device, else the first touchscreen.")
    var device: String?

    @Option(help: "Seconds to listen.")
    var duration: Double?

    @Option(help: "The screen size touches are mapped to, WIDTHxHEIGHT; default: the config's [panel].")
    var screen: String?

    @Flag(help: "Keep listening when the touchscreen goes away or none is there yet, and take it again when it comes back.")
    var follow = false

    @Flag(help: "Grab the device (EVIOCGRAB), as kiosk run does, so no other reader sees the touches.")
    var grab = false

    @Flag(help: "Print the device's own coordinates (its axis units), with no calibration, rotation or filter.")
    var raw = false

    @Option(help: "A calibration matrix in libinput's convention: six numbers 'a b c d e f'; default: the config's.")
    var calibration: String?

    @Option(help: "A tslib pointercal file to calibrate with instead; default: the config's.")
    var pointercal: String?

    @Option(help: "Turn the touches clockwise, after calibration: 0, 90, 180 or 270; default: the config's.")
    var rotation: Int?

    @Flag(help: "Mirror the touches left-right, after calibration.")
    var flipX = false

    @Flag(help: "Mirror the touches top-bottom, after calibration.")
    var flipY = false

    @Option(help: "Resistive panels: ignore moves smaller than this many device units (off: 0); default: the config's.")
    var jitter: Int32?

    @Option(help: "Single-touch panels: a press counts only from this ABS_PRESSURE on; default: the config's.")
    var minimumPressure: Int32?

    /// The config's settings with the options laid over them.
    private func settings() throws -> (input: InputSettings, displayRotation: Int, panel: PanelMetrics, screen: Size) {
        let configuration = try ConfigPath.resolve(config).loadIfThere("touches")
        var input = configuration?.runtime.input ?? InputSettings()
        var panel = configuration?.scene.panel ?? .raspberryPi7Inch
        if let screen {
            let parts = screen.split(separator: "x").compactMap { Double($0) }
            guard parts.count == 2, parts.allSatisfy({ $0 > 0 && $0 <= 16384 }) else {
                throw ValidationError("--screen: expected WIDTHxHEIGHT such as 800x480, found '\(screen)'")
            }
            let mmPerPixel = panel.widthMillimetres / panel.widthPixels
            panel = PanelMetrics(widthPixels: parts[0], heightPixels: parts[1], widthMillimetres: parts[0] * mmPerPixel,
                                 heightMillimetres: parts[1] * mmPerPixel)
        }
        if let calibration {
            input.calibration = calibration.split(separator: " ").map { Double($0) ?? .nan }
            input.pointercal = nil
        } else if let pointercal {
            input.pointercal = pointercal
            input.calibration = nil
        }
        if let rotation { input.rotation = rotation }
        if flipX { input.flipX = true }
        if flipY { input.flipY = true }
        if let jitter { input.jitterUnits = Int(jitter) }
        if let minimumPressure { input.minimumPressure = Int(minimumPressure) }
        if let d = device { input.device = d }
        if raw {
            var bare = InputSettings()
            (bare.device, bare.directory) = (input.device, input.directory)
            input = bare
        }
        if let configuration { say(Self.describe(configuration, input: input)) }
        return (input, raw ? 0 : configuration?.runtime.display.rotation ?? 0, panel,
                Size(width: panel.widthPixels, height: panel.heightPixels))
    }

    /// One line of what applies to touches: for `devices` and `touches`.
    static func describe(_ configuration: KioskConfiguration, input: InputSettings? = nil) -> String {
        let i = input ?? configuration.runtime.input
        let p = configuration.scene.panel
        var parts = ["screen \(Int(p.widthPixels))x\(Int(p.heightPixels))"]
        parts.append("rotation " + (i.rotation.map { "\($0)" } ?? "following [display] rotation \(configuration.runtime.display.rotation)"))
        if let m = i.calibration { parts.append("calibration [\(m.map(CalibrationWriter.formatted).joined(separator: ", "))]") }
        if let f = i.pointercal { parts.append("pointercal \(f)") }
        if i.calibration == nil && i.pointercal == nil { parts.append("no calibration") }
        if i.flipX { parts.append("flip_x") }
        if i.flipY { parts.append("flip_y") }
        var filters: [String] = []
        if i.jitterUnits > 0 { filters.append("jitter \(i.jitterUnits)") }
        if i.minimumPressure > 0 { filters.append("minimum_pressure \(i.minimumPressure)") }
        if i.minimumTouchDuration > 0 { filters.append("minimum_touch_duration \(fixedDecimal(i.minimumTouchDuration, 3)) s") }
        if let size = i.maximumTouchSizeMillimetres { filters.append("maximum_touch_size \(fixedDecimal(size, 1)) mm") }
        if !i.ignore.isEmpty { filters.append("ignore \(i.ignore.count) region\(i.ignore.count == 1 ? "" : "s")") }
        parts.append("filters: " + (filters.isEmpty ? "none" : filters.joined(separator: ", ")))
        return parts.joined(separator: "; ")
    }

    func run() throws {
        let s = try settings()
        if follow { return try runFollowing(s.input, displayRotation: s.displayRotation, panel: s.panel, screen: s.screen) }
        let d = try openTouchscreen(s.input.device, directory: s.input.directory)
        if grab { try d.grab() }
        var screen = s.screen
        var offset = Point(x: 0, y: 0)
        if raw {
            // The device's units: an axis of min...max maps onto max - min + 1 "pixels", shifted back by min.
            let multitouch = d.description.isMultitouchB || d.description.isMultitouchA
            let (xa, ya) = multitouch ? (AbsoluteAxis.multitouchPositionX, AbsoluteAxis.multitouchPositionY) : (.x, .y)
            if let x = d.description.axes[xa], let y = d.description.axes[ya] {
                screen = Size(width: Double(x.maximum) - Double(x.minimum) + 1, height: Double(y.maximum) - Double(y.minimum) + 1)
                offset = Point(x: Double(x.minimum), y: Double(y.minimum))
            }
        }
        let calibration: TouchCalibration
        do {
            calibration = try s.input.touchCalibration(displayRotation: s.displayRotation, device: d.description, screen: screen)
        } catch {
            say("\(error)")
            throw ExitCode(2)
        }
        // A protocol A panel's events go through libmtdev first.
        let decoder = try TouchscreenDecoder(device: d.description, screen: screen, calibration: calibration,
                                             filters: raw ? .none : s.input.touchFilters(panel: s.panel))
        var origin: Instant?
        say("listening to \(d.path) (\"\(d.description.name)\")" + (raw ? "; raw: the device's own coordinates" : ""))
        let show = { (f: TouchFrame) in
            if origin == nil { origin = f.time }
            var shifted = f
            for i in shifted.touches.indices { shifted.touches[i].location = shifted.touches[i].location + offset }
            self.show(shifted, origin: origin!)
        }
        let ending = try PollLoop.run(seconds: duration, descriptors: { [d.fileDescriptor] }, wake: { decoder.nextDeadline }) {
            () throws(InputDeviceError) -> PollLoop.Ending? in
            do throws(InputDeviceError) {
                try d.read { event in decoder.feed(event, show) }
            } catch .gone {
                return .deviceGone
            }
            decoder.advance(to: MonotonicClock.now, show)
            return nil
        }
        var counters = InputCounters(decoding: decoder.counters, filtering: decoder.filterCounters, resyncs: d.resyncCount)
        if ending == .deviceGone {
            say("the device went away")
            if let f = decoder.cancelAll(at: MonotonicClock.now) {
                counters.unplugCancelledTouches += f.touches.count
                show(f)
            }
        }
        if d.resyncCount > 0 { FileHandle.standardError.write(Data("kiosk touches: resynchronised \(d.resyncCount) times after dropped events\n".utf8)) }
        let ignored = decoder.counters.ignoredSlots
        if case .multitouch(let slots) = decoder.decoder.mode, ignored > 0 {
            say("more fingers than the \(slots) slots: \(ignored) slot changes beyond them ignored, their contacts dropped")
        }
        sayCounters(counters)
    }

    /// The counts the stats line of `kiosk run` carries, as one line.
    private func sayCounters(_ counters: InputCounters) {
        say("counters " + counters.fields().map { "\($0.key)=\($0.value)" }.joined(separator: " "))
    }

    /// Through hotplug: says when a touchscreen comes and goes, and cancels the touches of one that goes.
    private func runFollowing(_ input: InputSettings, displayRotation: Int, panel: PanelMetrics, screen size: Size) throws {
        guard !raw else { throw ValidationError("--raw needs the device's axes: use it without --follow") }
        let calibration: TouchCalibration
        do {
            calibration = try input.touchCalibration(displayRotation: displayRotation, screen: size)
        } catch {
            say("\(error)")
            throw ExitCode(2)
        }
        let watcher = try TouchscreenWatcher(directory: input.directory, wanted: input.device, grab: grab, screen: size,
                                             calibration: calibration, filters: input.touchFilters(panel: panel))
        if input.pointercal != nil {
            watcher.calibrate = { d in try input.touchCalibration(displayRotation: displayRotation, device: d, screen: size) }
        }
        var origin: Instant?
        func handle(_ e: TouchscreenWatcher.Event) {
            switch e {
            case .frame(let f):
                if origin == nil { origin = f.time }
                show(f, origin: origin!)
            case .attached(let path, let name, let kind): say("attached \(path) (\"\(name)\"): \(kind)")
            case .detached(let path, let name): say("detached \(path) (\"\(name)\")")
            case .waiting(let reason): say("waiting: \(reason)")
            case .skipped(let path, let name, let reason): say("skipped \(path) (\"\(name)\"): \(reason)")
            case .problem(let text): say("no touchscreen taken: \(text)")
            case .settling(let path, let reason): say("not open yet, udev may still be setting its permissions: \(path): \(reason)")
            }
        }
        say("following touchscreens in \(watcher.directory)")
        watcher.attach(handle)
        _ = try PollLoop.run(seconds: duration, descriptors: { watcher.fileDescriptors }, wake: { watcher.nextDeadline }) { () throws(InputDeviceError) -> PollLoop.Ending? in
            watcher.service(handle)
            return nil
        }
        sayCounters(watcher.counters)
    }

    private func say(_ text: String) {
        FileHandle.standardError.write(Data("kiosk touches: \(text)\n".utf8))
    }

    private func show(_ f: TouchFrame, origin: Instant) {
        // Written at once, not buffered: a line per frame as it happens, also when piped.
        FileHandle.standardOutput.write(Data((TouchFrameText.line(f, seconds: f.time.seconds(since: origin)) + "\n").utf8))
    }
}
