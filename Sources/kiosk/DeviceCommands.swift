import ArgumentParser
import Foundation
import Gestures
import InputEvents
import KioskConfig
import KioskCore
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

    static let defaultConfig = "/etc/kiosk/kiosk.conf"

    @Option(help: "The kiosk config whose [input] device and directory to use; default: \(DevicesCommand.defaultConfig) when it exists.")
    var config: String?

    @Option(help: "Where the device nodes are; default: the config's [input] directory, else /dev/input.")
    var directory: String?

    @Option(help: "The device kiosk should use, by path (a /dev/input/by-id or by-path link too) or by name; default: the config's [input] device.")
    var device: String?

    func run() throws {
        var input = InputSettings()
        if let path = config ?? (FileManager.default.fileExists(atPath: Self.defaultConfig) ? Self.defaultConfig : nil) {
            do {
                input = try KioskConfiguration.load(path: path).runtime.input
            } catch {
                FileHandle.standardError.write(Data("kiosk: \(error)\n".utf8))
                throw ExitCode(2)
            }
            print("config \(path): [input] device = " + (input.device.map { "\"\($0)\"" } ?? "unset (the first touchscreen)"))
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
        let ending = try EventPump.run(d, seconds: duration) { event in
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
        discussion: "For checking a panel, its orientation and its calibration. Ends after --duration or Ctrl-C."
    )

    @Option(help: "The device, by path or by name; default: the first touchscreen.")
    var device: String?

    @Option(help: "Seconds to listen.")
    var duration: Double?

    @Option(help: "The screen size touches are mapped to, WIDTHxHEIGHT.")
    var screen = "800x480"

    @Flag(help: "Keep listening when the touchscreen goes away or none is there yet, and take it again when it comes back.")
    var follow = false

    @Flag(help: "Grab the device (EVIOCGRAB), as kiosk run does, so no other reader sees the touches.")
    var grab = false

    @Option(help: "A calibration matrix in libinput's convention: six numbers 'a b c d e f'.")
    var calibration: String?

    @Option(help: "A tslib pointercal file to calibrate with instead.")
    var pointercal: String?

    @Option(help: "Turn the touches clockwise, after calibration: 0, 90, 180 or 270.")
    var rotation = 0

    @Flag(help: "Mirror the touches left-right, after calibration.")
    var flipX = false

    @Flag(help: "Mirror the touches top-bottom, after calibration.")
    var flipY = false

    @Option(help: "Resistive panels: ignore moves smaller than this many device units (off: 0).")
    var jitter: Int32 = 0

    @Option(help: "Single-touch panels: a press counts only from this ABS_PRESSURE on.")
    var minimumPressure: Int32?

    func run() throws {
        let parts = screen.split(separator: "x").compactMap { Double($0) }
        guard parts.count == 2 else { throw ValidationError("--screen: expected WIDTHxHEIGHT such as 800x480, found '\(screen)'") }
        let size = Size(width: parts[0], height: parts[1])
        if follow { return try runFollowing(size) }
        let d = try openTouchscreen(device)
        if grab { try d.grab() }
        // A protocol A panel's events go through libmtdev first.
        let decoder = try TouchscreenDecoder(device: d.description, screen: size, calibration: try calibrationFor(d.description, size),
                                             filters: TouchFilters(jitterUnits: jitter, minimumPressure: minimumPressure))
        var origin: Instant?
        FileHandle.standardError.write(Data("kiosk touches: listening to \(d.path) (\"\(d.description.name)\")\n".utf8))
        let ending = try EventPump.run(d, seconds: duration) { event in
            if origin == nil { origin = event.time }
            decoder.feed(event) { show($0, origin: origin!) }
        }
        var counters = InputCounters(decoding: decoder.counters, filtering: decoder.filterCounters, resyncs: d.resyncCount)
        if ending == .deviceGone {
            say("the device went away")
            if let f = decoder.cancelAll(at: EventPump.monotonicNow()) {
                counters.unplugCancelledTouches += f.touches.count
                show(f, origin: origin ?? f.time)
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
    private func runFollowing(_ size: Size) throws {
        guard pointercal == nil else { throw ValidationError("--pointercal needs the device's axes: use it without --follow") }
        let calibration = try calibrationFor(DeviceDescription(name: ""), size)
        let watcher = try TouchscreenWatcher(wanted: device, grab: grab, screen: size, calibration: calibration,
                                             filters: TouchFilters(jitterUnits: jitter, minimumPressure: minimumPressure))
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
        _ = try EventPump.run(seconds: duration, descriptors: { watcher.fileDescriptors }, wake: { watcher.nextDeadline }) { () throws(InputDeviceError) -> EventPump.Ending? in
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

    private func calibrationFor(_ d: DeviceDescription, _ size: Size) throws -> TouchCalibration {
        var cal = TouchCalibration.identity
        if let calibration {
            cal = try TouchCalibration(matrix: calibration.split(separator: " ").map { Double($0) ?? .nan })
        } else if let pointercal {
            do {
                cal = try TouchCalibration(pointercalFile: pointercal, device: d, screen: (size.width, size.height))
            } catch {
                say("\(error)")
                throw ExitCode(2)
            }
        }
        return try cal.rotated(clockwise: rotation).flipped(horizontally: flipX, vertically: flipY)
    }
}
