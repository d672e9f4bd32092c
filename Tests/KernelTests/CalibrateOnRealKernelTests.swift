import Foundation
import InputEvents
import KioskCore
import KioskTestSupport
import Render
import Testing

/// The suite's VM, waited for before its test cases run (`KernelHarness.AfterItsVM`); they report its errors.
private func theVM() async { _ = try? await CalibrateOnRealKernelTests.run.value }

/// `kiosk calibrate` on a real kernel: a uinput resistive panel whose raw coordinates are a known
/// distortion of the screen, the targets on virtio-gpu, taps played where the KIOSK-CALIBRATE
/// lines say each target is, then on Save. One VM boot serves all four distortions
/// (Tests/vm/calibrate.sh).
@Suite("kiosk calibrate on a real kernel", .enabled(if: KernelHarness.isAvailable, "needs qemu-system-x86, busybox-static, cpio, kmod, evemu-tools"), .afterItsVM(theVM))
struct CalibrateOnRealKernelTests {
    /// Name, then raw = (a·x + b·y + c, d·x + e·y + f) over normalised screen (x, y).
    static let distortions: [(name: String, raw: [Double])] = [
        ("scaled", [0.85, 0, 0.06, 0, 0.78, 0.1]),
        ("swapped", [0, 0.9, 0.05, 0.86, 0, 0.08]),
        ("turned", [0, 0.9, 0.04, -0.92, 0, 0.97]),
        ("mirrored", [-0.9, 0, 0.95, 0, 0.9, 0.05]),
    ]
    static let targets = CalibrationTargets.points(screen: Size(width: 800, height: 480))

    static let run = Task<KernelHarness.Run, any Error> {
        let script = try String(contentsOfFile: KernelHarness.root.appendingPathComponent("Tests/vm/calibrate.sh").path, encoding: .utf8)
        let config = try String(contentsOfFile: KernelHarness.root.appendingPathComponent("config/kiosk.toml").path, encoding: .utf8)
            .replacingOccurrences(of: #"font = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf""#, with: #"font = "DejaVuSans.ttf""#)
        return try await KernelHarness.run(script: script, files: [
            "panel.evemu": EvemuTrace(device: SyntheticTouchscreen.resistive).text,
            "distortions.txt": distortions.map { "\($0.name) " + $0.raw.map { "\($0)" }.joined(separator: " ") }.joined(separator: "\n") + "\n",
            "kiosk.toml": config,
        ], binaries: [KernelHarness.kioskBinary, Font.defaultPath])
    }

    func section(_ name: String) async throws -> String {
        let run = try await Self.run.value
        return try #require(run.section("KIOSK-\(name)-BEGIN", "KIOSK-\(name)-END"), "\(run.console.suffix(4000))")
    }

    @Test(arguments: distortions.map(\.name))
    func theWrittenMatrixMapsEachTapOntoItsTarget(_ name: String) async throws {
        let run = try await Self.run.value
        #expect(run.console.contains("KIOSK-CALIBRATE-STATUS \(name) 0"), "\(run.console.suffix(4000))")
        let out = try await section("OUT-\(name)")
        let err = try await section("ERR-\(name)")
        #expect(err.contains("KIOSK-CALIBRATE check save="), "\(err)")
        #expect(out.contains("saved [input] calibration = ["), "\(out)")
        #expect(out.contains(name == "swapped" || name == "turned" ? "axes: swapped" : "axes: not swapped"), "\(out)")
        let config = try await section("CONFIG-\(name)")
        let line = try #require(config.split(separator: "\n").first { $0.hasPrefix("calibration = [") })
        let numbers = line.dropFirst("calibration = [".count).dropLast().split(separator: ",")
            .compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        let matrix = try TouchCalibration(matrix: numbers)
        let d = try #require(Self.distortions.first { $0.name == name }).raw
        for t in Self.targets {
            // The panel's raw units, as the VM's tap wrote them (int(u·4096)), normalised as the decoder does.
            let u = (d[0] * t.x / 800 + d[1] * t.y / 480 + d[2]), v = (d[3] * t.x / 800 + d[4] * t.y / 480 + d[5])
            let (rx, ry) = ((u * 4096).rounded(.towardZero) / 4096, (v * 4096).rounded(.towardZero) / 4096)
            let p = matrix.apply(rx, ry)
            #expect(abs(p.x * 800 - t.x) < 1 && abs(p.y * 480 - t.y) < 1, "\(name): target \(t) lands at \(p.x * 800), \(p.y * 480)")
        }
    }

    /// `kiosk replay` on this machine with the config the VM's session wrote: a tap on the panel
    /// where the button is drawn presses it.
    @Test(arguments: distortions.map(\.name))
    func aReplayWithTheWrittenConfigPressesTheButton(_ name: String) async throws {
        let dir = try KioskExecutable.temporaryFolder("calibrated-\(name)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = try await section("CONFIG-\(name)")
            .replacingOccurrences(of: #"font = "DejaVuSans.ttf""#, with: #"font = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf""#)
        try config.write(to: dir.appendingPathComponent("kiosk.toml"), atomically: true, encoding: .utf8)
        let d = try #require(Self.distortions.first { $0.name == name }).raw
        let panel = Fingers(panel: SyntheticTouchscreen.resistive, clock: VirtualClock(Instant(seconds: 1)))
        let raw = Point(x: (d[0] * 130 / 800 + d[1] * 424 / 480 + d[2]) * 800, y: (d[3] * 130 / 800 + d[4] * 424 / 480 + d[5]) * 480)
        panel.up(panel.down(raw), after: 0.1)
        try panel.traceText.write(to: dir.appendingPathComponent("tap.evemu"), atomically: true, encoding: .utf8)
        let r = try await KernelHarness.kiosk(["replay", "tap.evemu", "--config", "kiosk.toml"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains(#""view": "button", "event": "primaryActionTriggered""#), "\(name): \(r.stdout)")
    }

    /// What `kiosk touches --config` prints is where the gestures get the touch: on the button; `--raw` is the panel's units.
    @Test(arguments: distortions.map(\.name))
    func touchesWithTheWrittenConfigPutsATapOnTheButton(_ name: String) async throws {
        let calibrated = try await section("TOUCHES-calibrated-\(name)")
        let began = try #require(calibrated.split(separator: "\n").first { $0.contains(" began ") }, "\(calibrated)")
        let fields = began.split(separator: " ")
        let (x, y) = (try #require(Double(fields[fields.count - 2])), try #require(Double(fields[fields.count - 1])))
        #expect(abs(x - 130) < 1.5 && abs(y - 424) < 1.5, "\(name): \(began)")
        let calibratedLog = try await section("TOUCHES-ERR-calibrated-\(name)")
        #expect(calibratedLog.contains("calibration ["))
        let raw = try await section("TOUCHES-raw-\(name)")
        let rawBegan = try #require(raw.split(separator: "\n").first { $0.contains(" began ") }, "\(raw)")
        let d = try #require(Self.distortions.first { $0.name == name }).raw
        let expectedX = ((d[0] * 130 / 800 + d[1] * 424 / 480 + d[2]) * 4096).rounded(.towardZero)
        #expect(rawBegan.contains(" \(fixedDecimal(expectedX, 1)) "), "\(name): raw \(rawBegan), expected x \(expectedX)")
    }
}
