import ArgumentParser
import Display
import Foundation
import Gestures
import InputEvents
import KioskConfig
import KioskCore
import Render
import Runtime
import TouchInput

struct CalibrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibrate",
        abstract: "Calibrate the touchscreen: touch five targets, check the result, and save [input] calibration in the config.",
        discussion: """
            Stop the service first (sudo systemctl stop kiosk): calibrate takes the display (DRM \
            master) and the touchscreen (grabbed) as kiosk run does. It shows five targets one at \
            a time (the corners inset by a tenth, then the centre), reads the panel's own \
            positions (the config's calibration off, its rotation and flips kept), fits \
            libinput's matrix by least squares and prints each target's error in pixels and mm. \
            The check screen's crosshair follows the finger through the new matrix: tap Save to \
            write it into the config in place (every other line kept; the old file as .bak), or \
            Retry. With no answer within --check-timeout, nothing is written. It also prints the \
            matrix as a udev LIBINPUT_CALIBRATION_MATRIX line and as tslib's pointercal.
            Standard error carries a line "KIOSK-CALIBRATE target N x=X y=Y" for each target shown \
            and "KIOSK-CALIBRATE check save=X,Y,W,H retry=X,Y,W,H" for the check screen, in screen \
            pixels, for scripts and tests.
            Exit status: 0 saved (or printed, with --dry-run); 1 rejected, retried out, no answer, \
            or the display or touchscreen cannot be used; 2 a bad config or trace.
            """
    )

    @Option(help: "The kiosk config file (TOML) to read and write; default: /etc/kiosk/kiosk.conf when it exists, else a checkout's config/kiosk.toml.")
    var config: String?

    @Option(help: "The touchscreen, by path or name; default: the config's [input] device, else the first touchscreen.")
    var device: String?

    @Option(help: "Play the touches of this evemu recording instead of a live touchscreen (for tests and for a session recorded on the kiosk).")
    var trace: String?

    @Option(help: "The DRM card; default: the config's. \"headless\" draws nothing (the default with --trace).")
    var card: String?

    @Flag(help: "Print the matrix and the file's new line; write nothing.")
    var dryRun = false

    @Option(help: "Reject the session when a target is missed by more than this many millimetres after the fit.")
    var maximumMiss = 5.0

    @Option(help: "Seconds the check screen waits for Save or Retry before giving up (nothing is written).")
    var checkTimeout = 30.0

    @Option(help: "Sessions begun by Retry before giving up.")
    var attempts = 5

    func run() throws {
        let chosen = ConfigPath.resolve(config)
        chosen.announce("calibrate")
        let configuration: KioskConfiguration
        do {
            configuration = try KioskConfiguration.load(path: chosen.path)
        } catch {
            fail("\(error)")
            throw ExitCode(2)
        }
        let panel = configuration.scene.panel
        let screen = Size(width: panel.widthPixels, height: panel.heightPixels)
        let runtime = configuration.runtime
        let orientation: TouchCalibration
        do {
            orientation = try runtime.input.touchOrientation(displayRotation: runtime.display.rotation)
        } catch {
            fail("\(chosen.path): [input]: \(error)")
            throw ExitCode(2)
        }
        let source = try openSource(runtime.input)
        let display = try openDisplay(runtime.display, screen: screen, headless: source.isTrace && card == nil)
        let flow = CalibrationFlow(screen: screen, orientation: orientation, millimetresPerPixel: (panel.widthMillimetres / panel.widthPixels,
                                   panel.heightMillimetres / panel.heightPixels), maximumMiss: maximumMiss, checkTimeout: checkTimeout,
                                   attempts: attempts, font: runtime.display.font, show: display.show)
        let decoder: TouchscreenDecoder
        do {
            decoder = try TouchscreenDecoder(device: source.device, screen: screen)
        } catch {
            fail("\(error)")
            throw ExitCode(2)
        }
        flow.start()
        let outcome = source.play(decoder, flow)
        display.close()
        switch outcome {
        case .save(let fit):
            try save(fit, flow: flow, path: chosen.path, device: source.device, screen: screen, orientation: orientation)
        case .failed(let why):
            fail(why)
            throw ExitCode(1)
        }
    }

    private func save(_ fit: CalibrationFit, flow: CalibrationFlow, path: String, device: DeviceDescription, screen: Size,
                      orientation: TouchCalibration) throws {
        let whole = fit.calibration.then(orientation)
        let multitouch = device.isMultitouchB || device.isMultitouchA
        let (xa, ya) = multitouch ? (AbsoluteAxis.multitouchPositionX, AbsoluteAxis.multitouchPositionY) : (.x, .y)
        say("udev (libinput, with the touches' rotation and flips): \(whole.udevLine)")
        if let x = device.axes[xa], let y = device.axes[ya] {
            say("tslib pointercal (the same, in the panel's units, for \(Int(screen.width))x\(Int(screen.height))): \(whole.pointercal(x: x, y: y, screen: screen))")
        }
        let line = "calibration = [" + fit.calibration.matrix.map(CalibrationWriter.formatted).joined(separator: ", ") + "]"
        do {
            if dryRun {
                // Read back as a save would, so a dry run finds what a save would refuse.
                _ = try CalibrationWriter.rewritten(fit.calibration.matrix, config: path)
                say("dry run: \(path) would get [input] \(line); nothing written")
            } else {
                let backup = try CalibrationWriter.save(fit.calibration.matrix, config: path)
                say("saved [input] \(line) in \(path); the old file is \(backup)")
            }
        } catch {
            fail("\(error)")
            throw ExitCode(2)
        }
    }

    // MARK: Input

    /// Where the touches come from: a live touchscreen, grabbed, or a recording.
    struct Source {
        var device: DeviceDescription
        var isTrace: Bool
        var play: (TouchscreenDecoder, CalibrationFlow) -> CalibrationFlow.Outcome
    }

    private func openSource(_ input: InputSettings) throws -> Source {
        if let trace {
            let parsed: EvemuTrace
            do {
                parsed = try EvemuTrace.parse(bytes: TextFile.read(trace, what: "the trace", limit: 256 << 20), file: trace)
            } catch {
                fail("\(error)")
                throw ExitCode(2)
            }
            return Source(device: parsed.device, isTrace: true) { decoder, flow in
                for event in parsed.events {
                    if let outcome = flow.tick(at: event.time) { return outcome }
                    var outcome: CalibrationFlow.Outcome?
                    decoder.feed(event) { frame in if outcome == nil { outcome = flow.handle(frame) } }
                    if let outcome { return outcome }
                }
                return flow.endOfInput()
            }
        }
        let d = try openTouchscreen(device ?? input.device, directory: input.directory)
        do {
            try d.grab()
        } catch {
            fail("\(d.path): \(error); is the kiosk running? Stop it first: sudo systemctl stop kiosk")
            throw ExitCode(1)
        }
        say("touchscreen \(d.path) (\"\(d.description.name)\")")
        return Source(device: d.description, isTrace: false) { decoder, flow in
            var outcome: CalibrationFlow.Outcome?
            do {
                let ending = try PollLoop.run(seconds: nil, descriptors: { [d.fileDescriptor] }, wake: { flow.deadline }) {
                    () throws(InputDeviceError) -> PollLoop.Ending? in
                    do throws(InputDeviceError) {
                        try d.read { event in
                            decoder.feed(event) { frame in if outcome == nil { outcome = flow.handle(frame) } }
                        }
                    } catch .gone {
                        return .deviceGone
                    }
                    if outcome == nil { outcome = flow.tick(at: MonotonicClock.now) }
                    return outcome == nil ? nil : .timeLimit
                }
                if let outcome { return outcome }
                return .failed(ending == .deviceGone ? "the touchscreen went away; nothing written" : "stopped; nothing written")
            } catch {
                return .failed("\(d.path): \(error)")
            }
        }
    }

    // MARK: Display

    /// The panel, or nothing (headless): `show` draws a frame on it.
    struct Screen {
        var show: (PixelBuffer) -> Void
        var close: () -> Void
    }

    private func openDisplay(_ settings: DisplaySettings, screen: Size, headless: Bool) throws -> Screen {
        let card = self.card ?? settings.card
        if headless || card == RuntimeSectionNames.headless { return Screen(show: { _ in }, close: {}) }
        let format: PixelFormat = settings.pixelFormat == .rgb565 ? .rgb565 : .xrgb8888
        let turn = DisplayRotation(degrees: settings.rotation) ?? .upright
        do {
            let display = try DRMDisplay(card: card, connector: settings.connector, mode: settings.mode.flatMap(ModeRequest.init(parsing:)),
                                         format: format)
            let whole = [Rect(x: 0, y: 0, width: screen.width, height: screen.height)]
            return Screen(show: { buffer in
                do {
                    try display.copy(from: buffer, damage: whole, rotation: turn)
                    try display.present()
                    try ShowCommand.waitForFlip(display)
                } catch {
                    fail("\(error)")
                }
            }, close: { _ = display.restore() })
        } catch {
            fail("\(error); is the kiosk running? Stop it first: sudo systemctl stop kiosk")
            throw ExitCode(1)
        }
    }

    private func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
    private func fail(_ line: String) { FileHandle.standardError.write(Data("kiosk calibrate: \(line)\n".utf8)) }
}

enum RuntimeSectionNames {
    static let headless = "headless"
}
