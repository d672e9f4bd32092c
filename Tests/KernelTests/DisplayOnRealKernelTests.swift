import Display
import Foundation
import InputEvents
import KioskConfig
import KioskCore
import Render
import Runtime
import Testing

/// The suite's VM, waited for before its test cases run (`KernelHarness.AfterItsVM`); they report its errors.
private func theVM() async { _ = try? await DisplayOnRealKernelTests.run.value }

/// `kiosk show` on virtio-gpu's DRM under a real kernel: the mode is set, pages flip, and what
/// QEMU's scanout shows (the monitor's screendump) is the headless render of the same state.
/// One VM boot serves every test here (Tests/vm/display.sh).
@Suite("Display on a real kernel", .enabled(if: KernelHarness.isAvailable, "needs qemu-system-x86, busybox-static, cpio, kmod, evemu-tools"), .afterItsVM(theVM))
struct DisplayOnRealKernelTests {
    static let tracePath = KernelHarness.root.appendingPathComponent("traces/demo.evemu").path
    static let configPath = KernelHarness.root.appendingPathComponent("config/kiosk.toml").path
    static let screendumpPath = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-screendump-\(UUID().uuidString).ppm").path

    /// The default config with the font beside kiosk in the VM (the VM has no /usr/share/fonts, and
    /// a config naming a font that is not there is refused), upright or for a panel mounted upside down.
    static func config(turned: Bool) -> String {
        let text = (try? String(contentsOfFile: configPath, encoding: .utf8)) ?? ""
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            if turned && line.hasPrefix("rotation = 0") && line.contains("panel is mounted") { return "rotation = 180" }
            if line.hasPrefix("font = ") { return #"font = "DejaVuSans.ttf""# }
            return String(line)
        }.joined(separator: "\n")
    }

    /// The config for a panel mounted upside down: `kiosk show --config` alone must take the
    /// rotation and the font from it.
    static let turnedConfig = config(turned: true)

    static let run = Task<KernelHarness.Run, any Error> {
        let script = try String(contentsOfFile: KernelHarness.root.appendingPathComponent("Tests/vm/display.sh").path, encoding: .utf8)
        return try await KernelHarness.run(
            script: script,
            files: ["trace.evemu": try String(contentsOfFile: tracePath, encoding: .utf8),
                    "kiosk.toml": config(turned: false),
                    "turned.toml": turnedConfig],
            binaries: [KernelHarness.kioskBinary, Font.defaultPath],
            screendump: screendumpPath)
    }

    func console() async throws -> KernelHarness.Run {
        let run = try await Self.run.value
        #expect(run.status == 0, "\(run.console)")
        return run
    }

    @Test func showNamesTheCardConnectorAndModeAndFlipsBothBuffers() async throws {
        let run = try await console()
        #expect(run.console.contains("KIOSK-SHOW-STATUS 0"), "\(run.console)")
        let shown = try #require(run.section("KIOSK-SHOW-BEGIN", "KIOSK-SHOW-END"), "\(run.console)")
        #expect(shown.contains("kiosk show: card0 connector Virtual-1 mode 800x480@"), "\(shown)")
        #expect(shown.contains(", 2 flips\nKIOSK-SHOWN\n"), "\(shown)")
        #expect(run.section("KIOSK-SHOW-LOG-BEGIN", "KIOSK-SHOW-LOG-END")?.contains("restored card0") == true, "\(run.console)")
    }

    @Test func aSecondKioskIsToldThatAnotherProcessHoldsMaster() async throws {
        let run = try await console()
        #expect(run.console.contains("KIOSK-SECOND-STATUS 1"), "\(run.console)")
        let second = try #require(run.section("KIOSK-SECOND-BEGIN", "KIOSK-SECOND-END"), "\(run.console)")
        #expect(second.contains("card0: cannot become DRM master: another process holds DRM master (a compositor or another kiosk is running) (EBUSY)"),
                "\(second)")
    }

    @Test func aModeTheConnectorLacksIsRefusedWithTheModesItOffers() async throws {
        let run = try await console()
        #expect(run.console.contains("KIOSK-BADMODE-STATUS 1"), "\(run.console)")
        let text = try #require(run.section("KIOSK-BADMODE-BEGIN", "KIOSK-BADMODE-END"), "\(run.console)")
        #expect(text.contains("card0: Virtual-1: mode 1234x567 not supported; it offers 800x480@"), "\(text)")
    }

    /// The console's cursor may blink between two screendumps: at most a character cell (8x16) differs.
    static let cursorPixels = 8 * 16

    /// The screen after kiosk show ended on `signal`, against the screen before kiosk: how many
    /// pixels differ, and how many show the kiosk's background. The VM script holds the card open
    /// meanwhile, so the kernel does not put its console back: only kiosk can.
    func screenAfter(_ signal: String) throws -> (differing: Int, kioskBackground: Int, pixels: Int) {
        let base = Self.screendumpPath.replacingOccurrences(of: ".ppm", with: "")
        let before = try PPMImage(try #require(FileManager.default.contents(atPath: base + "-before.ppm"), "no screendump before"))
        let after = try PPMImage(try #require(FileManager.default.contents(atPath: base + "-\(signal).ppm"), "no screendump after SIG\(signal)"))
        #expect(before.width == after.width && before.height == after.height)
        var differing = 0, kioskBackground = 0
        for y in 0..<min(before.height, after.height) {
            for x in 0..<min(before.width, after.width) where before.rgb(x: x, y: y) != after.rgb(x: x, y: y) { differing += 1 }
        }
        for y in 0..<after.height {
            for x in 0..<after.width where after.rgb(x: x, y: y) == (0xee, 0xf0, 0xf3) { kioskBackground += 1 }
        }
        if differing < Self.cursorPixels { try? FileManager.default.removeItem(atPath: base + "-\(signal).ppm") }
        return (differing, kioskBackground, before.width * before.height)
    }

    /// Ended by SIGTERM or SIGINT, kiosk show puts back what the screen showed before, and says
    /// "restored" because it checked.
    @Test(arguments: [("TERM", 15), ("INT", 2)])
    func afterASignalTheScreenShowsWhatItShowedBefore(signal: String, number: Int) async throws {
        let run = try await console()
        #expect(run.console.contains("KIOSK-\(signal)-STATUS 0"), "\(run.console)")
        #expect(run.section("KIOSK-\(signal)-LOG-BEGIN", "KIOSK-\(signal)-LOG-END") == "kiosk show: restored card0\n", "\(run.console)")
        let screen = try screenAfter(signal)
        #expect(screen.differing < Self.cursorPixels, "\(screen.differing) pixels differ from the screen before kiosk")
        #expect(screen.kioskBackground == 0, "the kiosk's frame is still on screen")
    }

    /// A crash mid-show: kiosk's crash handler puts back what the panel showed before, says so on
    /// stderr, and the process still ends by its signal (128 + N).
    @Test(arguments: [("SEGV", 11), ("ABRT", 6)])
    func afterACrashTheScreenShowsWhatItShowedBefore(signal: String, number: Int) async throws {
        let run = try await console()
        #expect(run.console.contains("KIOSK-\(signal)-STATUS \(128 + number)"), "\(run.console)")
        let log = try #require(run.section("KIOSK-\(signal)-LOG-BEGIN", "KIOSK-\(signal)-LOG-END"), "\(run.console)")
        #expect(log.contains("kiosk: crashed on signal \(number); display restored\n"), "\(log)")
        let screen = try screenAfter(signal)
        #expect(screen.differing < Self.cursorPixels, "\(screen.differing) pixels differ from the screen before kiosk")
        #expect(screen.kioskBackground == 0, "the kiosk's frame is still on screen")
    }

    /// SIGKILL, which nothing catches, leaves the screen as kiosk could not put it back: what the
    /// tests above would see if kiosk did not restore it itself.
    @Test func withoutKiosksRestoreTheScreenIsNotPutBack() async throws {
        let run = try await console()
        #expect(run.console.contains("KIOSK-KILL-STATUS 137"), "\(run.console)")
        let screen = try screenAfter("KILL")
        #expect(screen.differing > 20 * Self.cursorPixels, "only \(screen.differing) pixels differ from the screen before kiosk")
    }

    /// `kiosk show --config` with `[display] rotation = 180` and a font: the screen shows the
    /// headless render of the trace turned upside down, drawn with that font.
    @Test func showTakesRotationAndFontFromTheConfig() async throws {
        #expect(Self.turnedConfig.contains("\nrotation = 180\n") && Self.turnedConfig.contains(#"font = "DejaVuSans.ttf""#))
        let run = try await console()
        #expect(run.console.contains("KIOSK-TURNED-STATUS 0"), "\(run.console)")
        let shown = try #require(run.section("KIOSK-TURNED-BEGIN", "KIOSK-TURNED-END"), "\(run.console)")
        #expect(shown.contains(" XRGB8888 rotation 180°, 2 flips\nKIOSK-SHOWN\n"), "\(shown)")
        let path = Self.screendumpPath.replacingOccurrences(of: ".ppm", with: "-turned.ppm")
        let screen = try PPMImage(try #require(FileManager.default.contents(atPath: path), "no screendump at \(path)"))
        // As `kiosk show` replays it: the turned config's [input] turns the touches to match the
        // display, as `kiosk run` would on that kiosk.
        var configuration = try KioskConfiguration.load(path: Self.configPath)
        configuration.runtime.display.rotation = 180
        let trace = try EvemuTrace.parse(try String(contentsOfFile: Self.tracePath, encoding: .utf8), file: Self.tracePath)
        let replay = try Replay(trace: trace, configuration: configuration, traceDecisions: false)
        let shadow = try PixelBuffer(width: 800, height: 480)
        try SceneRenderer().draw(scene: replay.scene, at: replay.endTime, into: shadow)
        let (differing, first) = try screen.differences(from: shadow, rotation: .upsideDown)
        #expect(differing == 0, "\(differing) pixels differ, first at \(first ?? ""); screendump kept at \(path)")
        // Upright, it would not match: the rotation came from the config.
        #expect(try screen.differences(from: shadow).count > 10_000)
        if differing == 0 { try? FileManager.default.removeItem(atPath: path) }
    }

    @Test func theScreenShowsTheHeadlessRenderOfTheSameState() async throws {
        _ = try await console()
        let dump = try #require(FileManager.default.contents(atPath: Self.screendumpPath), "no screendump at \(Self.screendumpPath)")
        let screen = try PPMImage(dump)
        #expect(screen.width == 800 && screen.height == 480)

        let configuration = try KioskConfiguration.load(path: Self.configPath)
        let trace = try EvemuTrace.parse(try String(contentsOfFile: Self.tracePath, encoding: .utf8), file: Self.tracePath)
        let replay = try Replay(trace: trace, scene: configuration.scene, traceDecisions: false)
        let shadow = try PixelBuffer(width: 800, height: 480)
        try SceneRenderer().draw(scene: replay.scene, at: replay.endTime, into: shadow)
        let (differing, first) = try screen.differences(from: shadow)
        #expect(differing == 0, "\(differing) pixels differ, first at \(first ?? ""); screendump kept at \(Self.screendumpPath)")
        if differing == 0 { try? FileManager.default.removeItem(atPath: Self.screendumpPath) }
    }
}

/// A binary PPM (P6, 8 bits a channel), as QEMU's screendump writes it.
struct PPMImage {
    var width: Int
    var height: Int
    var pixels: [UInt8]

    struct Malformed: Error, CustomStringConvertible { var description: String }

    init(_ data: Data) throws {
        let bytes = [UInt8](data)
        var i = 0
        func token() throws -> String {
            while i < bytes.count {
                if bytes[i] == UInt8(ascii: "#") {
                    while i < bytes.count && bytes[i] != 10 { i += 1 }
                } else if bytes[i] == 32 || bytes[i] == 10 || bytes[i] == 13 || bytes[i] == 9 {
                    i += 1
                } else { break }
            }
            let start = i
            while i < bytes.count && !(bytes[i] == 32 || bytes[i] == 10 || bytes[i] == 13 || bytes[i] == 9) { i += 1 }
            guard i > start else { throw Malformed(description: "PPM header ends early") }
            return String(decoding: bytes[start..<i], as: UTF8.self)
        }
        guard try token() == "P6" else { throw Malformed(description: "not a P6 PPM") }
        guard let w = Int(try token()), let h = Int(try token()), try token() == "255" else {
            throw Malformed(description: "PPM header is not width height 255")
        }
        i += 1  // the one whitespace byte before the pixels
        guard bytes.count - i >= w * h * 3 else { throw Malformed(description: "PPM has \(bytes.count - i) pixel bytes, needs \(w * h * 3)") }
        width = w
        height = h
        pixels = Array(bytes[i..<(i + w * h * 3)])
    }

    func rgb(x: Int, y: Int) -> (UInt8, UInt8, UInt8) {
        let k = (y * width + x) * 3
        return (pixels[k], pixels[k + 1], pixels[k + 2])
    }

    /// How many pixels differ by more than 2 levels on a channel from `shadow` as the display
    /// shows it (copied as kiosk does, turned by `rotation`), and where the first one is.
    func differences(from shadow: PixelBuffer, rotation: DisplayRotation = .upright) throws -> (count: Int, first: String?) {
        let expected = try HeadlessDisplay(width: shadow.width, height: shadow.height)
        expected.copy(from: shadow, damage: [Rect(x: 0, y: 0, width: Double(shadow.width), height: Double(shadow.height))], rotation: rotation)
        var count = 0
        var first: String?
        for y in 0..<min(shadow.height, height) {
            for x in 0..<min(shadow.width, width) {
                let a = rgb(x: x, y: y), b = expected.screen.rgb(x: x, y: y)
                if abs(Int(a.0) - Int(b.red)) > 2 || abs(Int(a.1) - Int(b.green)) > 2 || abs(Int(a.2) - Int(b.blue)) > 2 {
                    count += 1
                    if first == nil { first = "(\(x), \(y)): screen \(a), expected \(b)" }
                }
            }
        }
        return (count, first)
    }
}
