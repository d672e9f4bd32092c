import Display
import Foundation
import Geometry
import InputEvents
import KioskConfig
import Render
import Runtime
import Testing

/// `kiosk show` on virtio-gpu's DRM under a real kernel: the mode is set, pages flip, and what
/// QEMU's scanout shows (the monitor's screendump) is the headless render of the same state.
/// One VM boot serves every test here (Tests/vm/display.sh).
@Suite("Display on a real kernel", .enabled(if: KernelHarness.isAvailable, "needs qemu-system-x86, busybox-static, cpio, kmod, evemu-tools"))
struct DisplayOnRealKernelTests {
    static let tracePath = KernelHarness.root.appendingPathComponent("traces/demo.evemu").path
    static let configPath = KernelHarness.root.appendingPathComponent("config/kiosk.toml").path
    static let screendumpPath = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-screendump-\(UUID().uuidString).ppm").path

    static let run: Result<KernelHarness.Run, any Error> = Result(catching: {
        let script = try String(contentsOfFile: KernelHarness.root.appendingPathComponent("Tests/vm/display.sh").path, encoding: .utf8)
        return try KernelHarness.run(
            script: script,
            files: ["trace.evemu": try String(contentsOfFile: tracePath, encoding: .utf8),
                    "kiosk.toml": try String(contentsOfFile: configPath, encoding: .utf8)],
            binaries: [KernelHarness.kioskBinary, Font.defaultPath],
            screendump: screendumpPath)
    })

    func console() throws -> KernelHarness.Run {
        let run = try Self.run.get()
        #expect(run.status == 0, "\(run.console)")
        return run
    }

    @Test func showNamesTheCardConnectorAndModeAndFlipsBothBuffers() throws {
        let run = try console()
        #expect(run.console.contains("KIOSK-SHOW-STATUS 0"), "\(run.console)")
        let shown = try #require(run.section("KIOSK-SHOW-BEGIN", "KIOSK-SHOW-END"), "\(run.console)")
        #expect(shown.contains("kiosk show: card0 connector Virtual-1 mode 800x480@"), "\(shown)")
        #expect(shown.contains(", 2 flips\nKIOSK-SHOWN\n"), "\(shown)")
        #expect(run.section("KIOSK-SHOW-LOG-BEGIN", "KIOSK-SHOW-LOG-END")?.contains("restored card0") == true, "\(run.console)")
    }

    @Test func aSecondKioskIsToldThatAnotherProcessHoldsMaster() throws {
        let run = try console()
        #expect(run.console.contains("KIOSK-SECOND-STATUS 1"), "\(run.console)")
        let second = try #require(run.section("KIOSK-SECOND-BEGIN", "KIOSK-SECOND-END"), "\(run.console)")
        #expect(second.contains("card0: cannot become DRM master: master held by another process (a compositor is running?)"), "\(second)")
    }

    @Test func aModeTheConnectorLacksIsRefusedWithTheModesItOffers() throws {
        let run = try console()
        #expect(run.console.contains("KIOSK-BADMODE-STATUS 1"), "\(run.console)")
        let text = try #require(run.section("KIOSK-BADMODE-BEGIN", "KIOSK-BADMODE-END"), "\(run.console)")
        #expect(text.contains("card0: Virtual-1: mode 1234x567 not supported; it offers 800x480@"), "\(text)")
    }

    /// A crash (SIGSEGV) mid-show: what the panel showed before kiosk comes back, as after a
    /// clean exit: the kernel restores the console when the last DRM file closes and master goes
    /// with the process, and kiosk leaves nothing that would stop it.
    @Test func afterACrashTheScreenShowsWhatItShowedBefore() throws {
        let run = try console()
        #expect(run.console.contains("KIOSK-CRASH-STATUS 139"), "\(run.console)")
        let base = Self.screendumpPath.replacingOccurrences(of: ".ppm", with: "")
        let before = try PPMImage(try #require(FileManager.default.contents(atPath: base + "-before.ppm"), "no screendump before"))
        let crashed = try PPMImage(try #require(FileManager.default.contents(atPath: base + "-crashed.ppm"), "no screendump after the crash"))
        #expect(before.width == crashed.width && before.height == crashed.height)
        var differing = 0, kioskBackground = 0
        for y in 0..<min(before.height, crashed.height) {
            for x in 0..<min(before.width, crashed.width) where before.rgb(x: x, y: y) != crashed.rgb(x: x, y: y) { differing += 1 }
        }
        for y in 0..<crashed.height {
            for x in 0..<crashed.width where crashed.rgb(x: x, y: y) == (0xee, 0xf0, 0xf3) { kioskBackground += 1 }
        }
        // A console cursor may blink between the two dumps; the kiosk's frame would differ everywhere.
        #expect(differing < before.width * before.height / 100, "\(differing) pixels differ from the screen before kiosk")
        #expect(kioskBackground == 0, "the kiosk's frame is still on screen")
        try? FileManager.default.removeItem(atPath: base + "-before.ppm")
        try? FileManager.default.removeItem(atPath: base + "-crashed.ppm")
    }

    @Test func theScreenShowsTheHeadlessRenderOfTheSameState() throws {
        _ = try console()
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
    /// shows it (copied upright, as kiosk does), and where the first one is.
    func differences(from shadow: PixelBuffer) throws -> (count: Int, first: String?) {
        let expected = try HeadlessDisplay(width: shadow.width, height: shadow.height)
        expected.copy(from: shadow, damage: [Rect(x: 0, y: 0, width: Double(shadow.width), height: Double(shadow.height))])
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
