import Display
import Foundation
import KioskCore
import KioskTestSupport
import KioskLog
import Render
@testable import Runtime

/// A live loop as `kiosk run` makes it, for the tests: the default scene, headless unless an output
/// is given, logging at debug into `handler`, reading input from a folder of its own (`folder`).
/// Suites subclass it for their own steps.
class LiveLoopRun {
    let folder: URL
    let handler = InMemoryLogHandler()
    let clock: VirtualClock
    let loop: KioskLoop
    /// The loop stepped on `clock`: every wake-up `runOnce` (EmbeddedLoop.swift).
    let embedded: EmbeddedLoop

    /// `input` (given the folder) and `log` are more lines for the config's `[input]` and `[log]`
    /// sections, each ending in a newline; without `output`, the loop gets a new headless display each time it asks.
    /// `sections` are more sections after `[log]`, each with its header; by default the state file
    /// is off, so no test reads or writes the machine's /var/lib/kiosk.
    init(
        _ name: String, input: (_ folder: URL) -> String = { _ in "" }, log: String = "", sections: String = "\n[state]\nenabled = false\n",
        clock: VirtualClock = VirtualClock(), output given: (any FrameOutput)? = nil, backlightClass: String? = nil
    ) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-\(name)-\(UUID().uuidString.prefix(8))")
        self.folder = folder
        self.clock = clock
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let scene = try String(contentsOfFile: KioskLoopTests.configPath, encoding: .utf8).components(separatedBy: "\n[display]").first ?? ""
        let path = folder.appendingPathComponent("kiosk.conf").path
        try (scene + "\n[input]\ndirectory = \"\(folder.path)\"\n\(input(folder))[log]\nserial = \"none\"\n\(log)\(sections)")
            .write(toFile: path, atomically: true, encoding: .utf8)
        let handler = self.handler
        var logger = Logger(label: "test", factory: { _ in handler })
        logger.logLevel = .debug
        // Never the machine's own backlight: a folder of the test's (absent unless given).
        let backlights = backlightClass ?? folder.appendingPathComponent("no-backlight").path
        loop = try KioskLoop(options: .init(configPath: path, logLevel: .debug, backlightClass: backlights), logger: logger, logPump: nil,
                             output: { _ throws(DisplayError) in
                                 if let given { return given }
                                 do { return try HeadlessDisplay(width: 800, height: 480, format: .xrgb8888, clock: clock) }
                                 catch { throw DisplayError("\(error)") }
                             }, clock: clock)
        embedded = EmbeddedLoop(loop, clock: clock)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// Fingers on the loop: each report goes to `process`, then a wake-up at its time.
    private(set) lazy var fingers = Fingers(clock: clock, firstFinger: 1, deliver: { [unowned self] frame in
        self.loop.process(frame)
        self.embedded.run()
    })

    /// One finger down at `a` a 60th of a second from now, `steps` moves of `step` points to the
    /// right a 60th of a second apart, and lifted one step further on.
    func drag(from a: Point, by steps: Int, step: Double = 4) {
        let finger = fingers.down(a, after: Fingers.frame)[0]
        for i in stride(from: 1, through: steps, by: 1) { fingers.move([finger: Point(x: a.x + Double(i) * step, y: a.y)]) }
        fingers.report([finger: .upAt(Point(x: a.x + Double(steps + 1) * step, y: a.y))], after: Fingers.frame)
    }

    /// The input lines so far, as `level message`.
    var inputLines: [String] {
        handler.entries.filter { $0.metadata.keys.contains { $0.hasPrefix("input.") } }.map { "\($0.level) \($0.message)" }
    }
}

/// A test display that hands everything but what it tests to a headless one.
protocol WrappedOutput: FrameOutput {
    var inner: HeadlessDisplay { get }
}

extension WrappedOutput {
    var width: Int { inner.width }
    var height: Int { inner.height }
    var refreshHz: Int { inner.refreshHz }
    var pollDescriptor: Int32? { nil }
    var flipCount: Int { inner.flipCount }
    func copy(from shadow: PixelBuffer, damage: [Rect], rotation: DisplayRotation) throws(DisplayError) {
        inner.copy(from: shadow, damage: damage, rotation: rotation)
    }
    func present() throws(DisplayError) -> Instant? { try inner.present() }
    func handleEvents(_ flipped: (Instant) -> Void) throws(DisplayError) {}
    func setPower(on: Bool) throws(DisplayError) {}
    func restore() -> DisplayError? { nil }
}
