import ArgumentParser
import Display
import Foundation
import KioskConfig
import KioskCore
import Render
import Runtime

struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show a frame of the scene on the real display: check a panel, its mode and its rotation.",
        discussion: """
            Replays the trace (or nothing: the scene as it starts) on the virtual clock, draws the \
            final frame, sets the mode, flips pages so both buffers are used, prints KIOSK-SHOWN \
            once the frame is on screen, waits --seconds (or Ctrl-C, or SIGTERM) and puts the display \
            back, saying "restored" only once it is. The config's [display] section gives the card, \
            connector, mode, pixel format, rotation and font; the options override it.
            Needs DRM master: no other compositor may run. Exit status: 0 on success, 1 when the \
            display cannot be driven, 2 when the trace, the config or the font cannot be read.
            """
    )

    @Option(help: "The evemu recording to replay first; without it the scene is shown as it starts.")
    var trace: String?

    @Option(help: "The kiosk config file (TOML): the scene, and [display]'s card, connector, mode, pixel format, rotation and font; default: /etc/kiosk/kiosk.conf when it exists, else a checkout's config/kiosk.toml.")
    var config: String?

    @Option(help: "The DRM card, e.g. /dev/dri/card1; default: the config's, else the first card with a connected connector.")
    var card: String?

    @Option(help: "The connector, e.g. HDMI-A-1 or DSI-1; default: the config's, else the first connected one.")
    var connector: String?

    @Option(help: "The mode, WxH or WxH@R; default: the config's, else the connector's preferred mode.")
    var mode: String?

    @Option(help: "The dumb buffers' pixel format, xrgb8888 or rgb565; default: the config's.")
    var format: String?

    @Option(help: "How the panel is mounted, 0, 90, 180 or 270 degrees clockwise; default: the config's.")
    var rotation: Int?

    @Option(help: "How long to keep the frame on screen, in seconds.")
    var seconds = 10.0

    @Option(help: "The font file to draw text with; default: the config's.")
    var font: String?

    func run() throws {
        let chosen = ConfigPath.resolve(config)
        chosen.announce("show")
        let config = chosen.path
        let settings: DisplaySettings
        do {
            settings = try KioskConfiguration.load(path: config).runtime.display
        } catch {
            Self.fail("\(error)")
            throw ExitCode(2)
        }
        let degrees = rotation ?? settings.rotation
        guard let turn = DisplayRotation(degrees: degrees) else {
            throw ValidationError("--rotation must be 0, 90, 180 or 270, found \(degrees)")
        }
        let request: ModeRequest?
        if let mode = mode ?? settings.mode {
            guard let r = ModeRequest(parsing: mode) else { throw ValidationError("--mode: expected WxH or WxH@R such as 800x480@60, found '\(mode)'") }
            request = r
        } else {
            request = nil
        }
        let pixelFormat: PixelFormat
        switch (format ?? settings.pixelFormat.rawValue).lowercased() {
        case "xrgb8888": pixelFormat = .xrgb8888
        case "rgb565": pixelFormat = .rgb565
        default: throw ValidationError("--format must be xrgb8888 or rgb565, found '\(format ?? "")'")
        }
        let card = card ?? settings.card
        if card == "headless" {
            Self.fail("\(config): display.card is \"headless\": kiosk show needs a DRM card; pass --card /dev/dri/cardN")
            throw ExitCode(2)
        }
        let replay: Replay
        let fontPath = font ?? settings.font
        do {
            replay = try ReplayJob(tracePath: trace, configPath: config).replay(traceDecisions: false)
            _ = try Font(path: fontPath)
        } catch {
            Self.fail("\(error)")
            throw ExitCode(2)
        }
        // Ctrl-C, SIGTERM and a closed terminal (SIGHUP) are taken by sigtimedwait below, so the
        // display is always put back.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        sigaddset(&signals, SIGHUP)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        do {
            try show(replay, font: fontPath, card: card, connector: connector ?? settings.connector, rotation: turn, mode: request,
                     format: pixelFormat, signals: signals)
        } catch {
            Self.fail("\(error)")
            throw ExitCode(1)
        }
    }

    /// Sets the mode, draws the replay's final frame through the loop's frame pipeline, shows it
    /// through both buffers, holds it, and puts the display back.
    private func show(_ replay: Replay, font: String, card: String?, connector: String?, rotation turn: DisplayRotation,
                      mode request: ModeRequest?, format pixelFormat: PixelFormat, signals: sigset_t) throws(DisplayError) {
        let display = try DRMDisplay(card: card, connector: connector, mode: request, format: pixelFormat)
        defer { display.restore() }
        let panel = replay.scene.definition.panel
        let pipeline: FramePipeline
        do throws(DrawingResourceError) {
            pipeline = try FramePipeline(width: Int(panel.widthPixels), height: Int(panel.heightPixels), format: pixelFormat,
                                         font: font, rotation: turn, output: display)
        } catch {
            throw DisplayError(.frameNotDrawn(error))
        }
        let size = turn.panelSize(width: pipeline.shadow.width, height: pipeline.shadow.height)
        if size.width != display.mode.width || size.height != display.mode.height {
            Self.fail("note: the scene turned \(turn) is \(size.width)x\(size.height) but the mode is \(display.mode): the frame is cut or bordered")
        }
        if case .failed(let error) = pipeline.drawFrame(replay.scene, at: replay.endTime) { throw error }
        // Two flips: each buffer is shown once, and the second gets the frame through buffer age.
        for _ in 0..<2 {
            try pipeline.presentAgain()
            try Self.waitForFlip(display)
        }
        Self.say("kiosk show: \(display.cardName) connector \(display.connectorName) mode \(display.mode) \(display.format) rotation \(turn), \(display.flipCount) flips")
        Self.say("KIOSK-SHOWN")
        var wait = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
        var set = signals
        _ = sigtimedwait(&set, nil, &wait)
        if let problem = display.restore() { throw problem }
        Self.fail("restored \(display.cardName)")
    }

    /// Polls the card until the pending flip's event arrives; never relies on vblank.
    static func waitForFlip(_ display: DRMDisplay) throws(DisplayError) {
        for _ in 0..<50 where display.isFlipPending {
            var p = pollfd(fd: display.fileDescriptor, events: Int16(POLLIN), revents: 0)
            if poll(&p, 1, 100) > 0 { try display.handleEvents() }
        }
        if display.isFlipPending { throw DisplayError(card: display.cardName, .flipTimedOut(seconds: 5)) }
    }

    static func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
    static func fail(_ line: String) { FileHandle.standardError.write(Data("kiosk show: \(line)\n".utf8)) }
}
