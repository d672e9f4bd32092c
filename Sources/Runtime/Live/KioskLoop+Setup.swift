import CLinuxSystem
import Display
import KioskConfig
import KioskCore
import KioskLog
import KioskVersion
import Scene
import TouchInput
#if canImport(Glibc)
import Glibc
#endif

// Reading the settings the loop is built from, opening what they name, and the loop's own files.
extension KioskLoop {

    static func budgets(_ loop: LoopSettings, refresh: Int) -> [Int64] {
        let frame = loop.frameBudgetMilliseconds.map { $0 * 1e6 } ?? 1e9 / Double(max(1, refresh))
        return LoopStats.budgets(frameNanoseconds: Int64(frame), settings: loop)
    }

    static func sceneSize(_ c: KioskConfiguration) -> (width: Int, height: Int) {
        (Int(c.scene.panel.widthPixels), Int(c.scene.panel.heightPixels))
    }

    static func pixelFormat(_ d: DisplaySettings) -> PixelFormat { d.pixelFormat == .rgb565 ? .rgb565 : .xrgb8888 }

    static func openOutput(_ d: DisplaySettings, sceneSize: (width: Int, height: Int),
                           clock: any InstantClock) throws(DisplayError) -> any FrameOutput {
        let format = pixelFormat(d)
        let rotation = DisplayRotation(degrees: d.rotation) ?? .upright
        if d.card == "headless" {
            let size = rotation.panelSize(width: sceneSize.width, height: sceneSize.height)
            do throws(DrawingResourceError) {
                return try HeadlessDisplay(width: size.width, height: size.height, format: format, clock: clock)
            } catch {
                throw DisplayError(.headless(error))
            }
        }
        var request: ModeRequest?
        if let mode = d.mode {
            guard let r = ModeRequest(parsing: mode) else { throw DisplayError(.badMode(mode)) }
            request = r
        }
        return try DRMDisplay(card: d.card, connector: d.connector, mode: request, format: format)
    }

    /// `[input] rotation` when given; else the turn that matches the display's, so a touch lands
    /// on what is drawn under the finger (flutter-pi#282: the two can still be set apart).
    /// The touchscreen `[input]` names, for the scene's size and the display's turn.
    func openInput() {
        liveInput?.open(configuration.runtime.input, screen: Size(width: Double(shadow.width), height: Double(shadow.height)), display: pipeline.rotation,
                        panel: scene.engine.metrics)
    }

    func logStart(_ output: any FrameOutput, rotation turn: DisplayRotation) {
        log.info("kiosk starting", metadata: [
            "kiosk.version": "\(KioskVersion.current)",
            "config.file": "\(options.configPath)", "config.generation": "\(generation)",
            "display": "\(output.summary)", "display.rotation": "\(turn.degrees)",
            "scene.views": "\(configuration.scene.views.count)", "scene.gestures": "\(configuration.scene.gestures.count)",
        ])
        if turn.panelSize(width: shadow.width, height: shadow.height) != (output.width, output.height) {
            log.warning("the scene does not fit the mode: the frame is cut or bordered", metadata: [
                "scene.size": "\(shadow.width)x\(shadow.height)", "display.size": "\(output.width)x\(output.height)",
                "display.rotation": "\(turn.degrees)",
            ])
        }
    }

    /// Signals arrive as a file in the same poll: no handler runs in the middle of a frame.
    func openLoopFiles() throws(KioskLoopError) {
        guard !pollLoop.isOpen else { return }
        signal(SIGPIPE, SIG_IGN)
        do throws(SystemCallError) {
            try pollLoop.open()
        } catch {
            throw .loopFiles(error)
        }
    }

    func closeLoopFiles() { pollLoop.close() }

    // The loop's parts, for the tests and the commands.
    public var output: (any FrameOutput)? { pipeline.output }
    public var shadow: PixelBuffer { pipeline.shadow }
    public internal(set) var stats: LoopStats {
        get { meter.stats }
        set { meter.stats = newValue }
    }
    var input: TouchscreenWatcher? { liveInput?.watcher }
    static var latencyCapacity: Int { InputLatency.capacity }
}

/// Why `kiosk run` could not start.
public enum KioskLoopError: Error, CustomStringConvertible {
    /// The config file is wrong (the error names its file, line and key): exit status 2, as for
    /// each case up to `.display`.
    case config(ConfigError)
    /// `display.rotation` in `file` is not a right angle.
    case rotation(file: String, degrees: Int)
    /// `display.font` in `file` cannot be loaded.
    case font(file: String, DrawingResourceError)
    /// The scene the config describes cannot be built.
    case scene(SceneError)
    /// The display cannot be driven: exit status 1.
    case display(DisplayError)
    /// The loop's own descriptors (signals, timer) cannot be made, such as when the process is out
    /// of file descriptors: exit status 1. Not the display's fault, and not said to be.
    case loopFiles(SystemCallError)

    /// The config, the font or the scene is wrong (exit status 2), not the machine.
    public var isConfig: Bool {
        switch self {
        case .config, .rotation, .font, .scene: true
        case .display, .loopFiles: false
        }
    }

    public var description: String {
        switch self {
        case .config(let error): "\(error)"
        case .rotation(let file, let degrees): "\(file): display.rotation: \(degrees) is not 0, 90, 180 or 270"
        case .font(let file, let error): "\(file): display.font: \(error)"
        case .scene(let error): "\(error)"
        case .display(let error): error.description
        case .loopFiles(let failure): "the loop's signals and timer cannot be set up: \(failure)"
        }
    }
}

extension Logger.Level {
    init(_ level: LogSettings.Level) {
        switch level {
        case .trace: self = .trace
        case .debug: self = .debug
        case .info: self = .info
        case .notice: self = .notice
        case .warning: self = .warning
        case .error: self = .error
        case .critical: self = .critical
        }
    }
}
