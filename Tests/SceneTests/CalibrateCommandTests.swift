import Foundation
import InputEvents
import KioskCore
import KioskTestSupport
import Testing

/// `kiosk calibrate` as a process, fed a recording (`--trace`) of a panel whose raw coordinates are
/// a known distortion of the screen, tapped at the targets it shows and then on Save.
@Suite("kiosk calibrate")
struct CalibrateCommandTests {
    static let screen = Size(width: 800, height: 480)
    static let targets = CalibrationTargets.points(screen: screen)
    /// Where the check screen's Save and Retry are (the command's KIOSK-CALIBRATE check line says the same).
    static let save = Point(x: 800 * 0.325, y: 480 * 0.7)
    static let retry = Point(x: 800 * 0.675, y: 480 * 0.7)
    /// The default scene's button, [40, 396, 180, 56].
    static let button = Point(x: 130, y: 424)

    /// A resistive ADS7846 (0..4095) tapped at `points` (screen pixels, through `distortion`), 0.15 s each.
    func taps(_ points: [Point], _ distortion: PanelDistortion, device: DeviceDescription = SyntheticTouchscreen.resistive) -> String {
        let fingers = Fingers(panel: device, screen: Self.screen, clock: VirtualClock(Instant(seconds: 1)))
        for p in points {
            let r = distortion.raw(p)
            let finger = fingers.down(Point(x: r.x * 800, y: r.y * 480))
            for _ in 0..<3 { fingers.move([finger[0]: Point(x: r.x * 800, y: r.y * 480)], after: 0.05) }
            fingers.up(finger, after: 0)
            fingers.wait(0.5)
        }
        return fingers.traceText
    }

    func folderWithConfig() throws -> URL {
        let dir = try KioskExecutable.temporaryFolder("calibrate")
        let config = try String(contentsOf: KioskExecutable.repositoryRoot.appendingPathComponent("config/kiosk.toml"), encoding: .utf8)
        try config.write(to: dir.appendingPathComponent("kiosk.toml"), atomically: true, encoding: .utf8)
        return dir
    }

    @Test(arguments: PanelDistortion.allCases)
    func theWrittenMatrixMapsTheTapsOntoTheTargetsAndAReplayPressesTheButton(_ distortion: PanelDistortion) throws {
        let dir = try folderWithConfig()
        let config = dir.appendingPathComponent("kiosk.toml").path
        let before = try String(contentsOfFile: config, encoding: .utf8)
        let trace = dir.appendingPathComponent("session.evemu")
        try taps(Self.targets + [Self.save], distortion).write(to: trace, atomically: true, encoding: .utf8)
        let r = try KioskExecutable.run(["calibrate", "--config", config, "--trace", trace.path])
        #expect(r.status == 0, "\(r.stderr)")
        // Each target was announced where the test tapped it.
        for (n, t) in Self.targets.enumerated() {
            #expect(r.stderr.contains("KIOSK-CALIBRATE target \(n + 1) x=\(fixedDecimal(t.x, 1)) y=\(fixedDecimal(t.y, 1))"), "\(r.stderr)")
        }
        #expect(r.stderr.contains("KIOSK-CALIBRATE check save=160,288,200,96 retry=440,288,200,96"))
        #expect(r.stdout.contains(distortion == .axesSwapped || distortion == .turned90 ? "axes: swapped" : "axes: not swapped"))
        #expect(r.stdout.contains("ENV{LIBINPUT_CALIBRATION_MATRIX}=\""))
        #expect(r.stdout.contains(" 65536 800 480\n"), "tslib's pointercal")
        // The file: one line more, every other byte as it was; the old file beside it.
        let after = try String(contentsOfFile: config, encoding: .utf8)
        #expect(try String(contentsOfFile: config + ".bak", encoding: .utf8) == before)
        let line = try #require(after.split(separator: "\n").first { $0.hasPrefix("calibration = [") })
        #expect(after.replacingOccurrences(of: line + "\n", with: "") == before)
        let numbers = line.dropFirst("calibration = [".count).dropLast().split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        let matrix = try TouchCalibration(matrix: numbers)
        for t in Self.targets {
            let raw = distortion.raw(t), p = matrix.apply(raw.x, raw.y)
            #expect(abs(p.x * 800 - t.x) < 1 && abs(p.y * 480 - t.y) < 1, "target \(t) lands at \(p.x * 800), \(p.y * 480)")
        }
        // kiosk replay with the written config: a tap on the panel where the button is drawn presses it.
        let tap = dir.appendingPathComponent("button.evemu")
        try taps([Self.button], distortion).write(to: tap, atomically: true, encoding: .utf8)
        let replay = try KioskExecutable.run(["replay", tap.path, "--config", config])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdout.contains(#""view": "button", "event": "primaryActionTriggered""#), "\(replay.stdout)")
    }

    @Test func dryRunPrintsAndWritesNothing() throws {
        let dir = try folderWithConfig()
        let config = dir.appendingPathComponent("kiosk.toml").path
        let before = try String(contentsOfFile: config, encoding: .utf8)
        let trace = dir.appendingPathComponent("session.evemu")
        try taps(Self.targets + [Self.save], .mirrored).write(to: trace, atomically: true, encoding: .utf8)
        let r = try KioskExecutable.run(["calibrate", "--config", config, "--trace", trace.path, "--dry-run"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("dry run: \(config) would get [input] calibration = [-1.11078, 0.0, 1.05539, "), "\(r.stdout)")
        #expect(try String(contentsOfFile: config, encoding: .utf8) == before)
        #expect(!FileManager.default.fileExists(atPath: config + ".bak"))
    }

    @Test func aMissedTargetRejectsTheSessionAndNamesIt() throws {
        let dir = try folderWithConfig()
        let config = dir.appendingPathComponent("kiosk.toml").path
        let before = try String(contentsOfFile: config, encoding: .utf8)
        var points = Self.targets + [Self.save]
        points[4].x -= 60  // the centre, touched 60 px (11.6 mm) to the left: 48 px off after the fit
        let trace = dir.appendingPathComponent("session.evemu")
        try taps(points, .scaledAndOffset).write(to: trace, atomically: true, encoding: .utf8)
        let r = try KioskExecutable.run(["calibrate", "--config", config, "--trace", trace.path])
        #expect(r.status == 1)
        #expect(r.stderr.contains("kiosk calibrate: rejected: target 5 (centre) was missed by 9.2 mm (47.7 px) after the fit"), "\(r.stderr)")
        #expect(r.stderr.contains("more than 5.0 mm: the touches do not agree with each other"))
        #expect(try String(contentsOfFile: config, encoding: .utf8) == before)
    }

    @Test func twoTouchesAtOnceRejectTheSession() throws {
        let dir = try folderWithConfig()
        let config = dir.appendingPathComponent("kiosk.toml").path
        let panel = Fingers(panel: SyntheticTouchscreen.ft5406, screen: Self.screen, clock: VirtualClock(Instant(seconds: 1)))
        panel.down(Self.targets[0])
        panel.down(Point(x: 400, y: 300), after: 0.05)  // a palm on the glass
        panel.up(after: 0.05)
        let trace = dir.appendingPathComponent("session.evemu")
        try panel.traceText.write(to: trace, atomically: true, encoding: .utf8)
        let r = try KioskExecutable.run(["calibrate", "--config", config, "--trace", trace.path])
        #expect(r.status == 1)
        #expect(r.stderr.contains("kiosk calibrate: rejected: two touches at once on target 1 (top left)"), "\(r.stderr)")
    }

    @Test func noAnswerOnTheCheckScreenWritesNothing() throws {
        let dir = try folderWithConfig()
        let config = dir.appendingPathComponent("kiosk.toml").path
        let trace = dir.appendingPathComponent("session.evemu")
        // The targets, then a tap nowhere near Save or Retry 40 s later: past the 30 s check screen.
        var text = taps(Self.targets, .scaledAndOffset)
        let late = taps([Point(x: 700, y: 50)], .scaledAndOffset)
        for line in late.split(separator: "\n") where line.hasPrefix("E: ") {
            let fields = line.split(separator: " ")
            text += "E: \(fixedDecimal(Double(fields[1])! + 40, 6)) \(fields[2...].joined(separator: " "))\n"
        }
        try text.write(to: trace, atomically: true, encoding: .utf8)
        let r = try KioskExecutable.run(["calibrate", "--config", config, "--trace", trace.path])
        #expect(r.status == 1)
        #expect(r.stderr.contains("no answer on the check screen within 30 s; nothing written"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: config + ".bak"))
    }
}
