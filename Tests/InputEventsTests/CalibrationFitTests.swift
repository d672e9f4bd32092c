import InputEvents
import KioskCore
import KioskTestSupport
import Testing

/// A panel whose raw coordinates are a known distortion of the screen, tapped exactly on five targets.
@Suite("The calibration fit")
struct CalibrationFitTests {
    static let screen = Size(width: 800, height: 480)
    static let targets = CalibrationTargets.points(screen: screen)
    static let mmPerPixel = (x: 154.2 / 800, y: 85.9 / 480)

    @Test(arguments: PanelDistortion.allCases)
    func theMatrixMapsEachTapOntoItsTarget(_ distortion: PanelDistortion) throws {
        let raw = Self.targets.map(distortion.raw)
        let fit = try CalibrationFit(raw: raw, targets: Self.targets, screen: Self.screen, millimetresPerPixel: Self.mmPerPixel)
        for (r, t) in zip(raw, Self.targets) {
            let p = fit.calibration.apply(r.x, r.y)
            #expect(abs(p.x * 800 - t.x) < 1e-6 && abs(p.y * 480 - t.y) < 1e-6)
        }
        #expect(fit.residualPixels.allSatisfy { $0 < 1e-6 })
        #expect(fit.axesSwapped == (distortion == .axesSwapped || distortion == .turned90))
        // Turned 90°: the screen's x runs against the panel's y.
        #expect(fit.mirroredX == (distortion == .mirrored || distortion == .turned90))
        #expect(!fit.mirroredY)
    }

    @Test func theTouchesRotationIsUndoneSoTheMatrixIsWhatTheConfigTakes() throws {
        // The config turns touches 180 after the matrix; the fit must aim before that turn.
        let after = try TouchCalibration.identity.rotated(clockwise: 180)
        let raw = Self.targets.map(PanelDistortion.scaledAndOffset.raw)
        let fit = try CalibrationFit(raw: raw, targets: Self.targets, screen: Self.screen, after: after, millimetresPerPixel: Self.mmPerPixel)
        let whole = fit.calibration.then(after)
        for (r, t) in zip(raw, Self.targets) {
            let p = whole.apply(r.x, r.y)
            #expect(abs(p.x * 800 - t.x) < 1e-6 && abs(p.y * 480 - t.y) < 1e-6)
        }
    }

    @Test func aMissedTargetShowsInItsResidualInPixelsAndMillimetres() throws {
        var raw = Self.targets.map(PanelDistortion.scaledAndOffset.raw)
        raw[4].x += 40.0 / 800 * 0.85  // the centre tapped 40 px right
        let fit = try CalibrationFit(raw: raw, targets: Self.targets, screen: Self.screen, millimetresPerPixel: Self.mmPerPixel)
        let worst = fit.residualPixels.indices.max { fit.residualPixels[$0] < fit.residualPixels[$1] }!
        #expect(worst == 4)
        #expect(fit.residualPixels[4] > 20)
        #expect(abs(fit.residualMillimetres[4] - fit.residualPixels[4] * 154.2 / 800) < 0.5)
    }

    @Test func tapsOnOneLineGiveNoMatrix() {
        // A resistive panel whose Y wire is broken: every tap reads the same raw y.
        let raw = Self.targets.map { Point(x: $0.x / 800, y: 0.5) }
        #expect(throws: CalibrationFitError.degenerate) {
            try CalibrationFit(raw: raw, targets: Self.targets, screen: Self.screen, millimetresPerPixel: Self.mmPerPixel)
        }
    }

    @Test func theUdevLineAndPointercalSayTheSameMapping() throws {
        let cal = try TouchCalibration(matrix: [0.5, 0.25, 0.125, -0.5, 1, 0.0625])
        #expect(cal.udevLine == #"ENV{LIBINPUT_CALIBRATION_MATRIX}="0.5 0.25 0.125 -0.5 1.0 0.0625""#)
        let axis = AxisInfo(minimum: 0, maximum: 4095)
        let text = cal.pointercal(x: axis, y: axis, screen: Self.screen)
        // Read back through tslib's own convention: the same mapping within a pixel.
        let back = try TouchCalibration(pointercal: text, x: axis, y: axis, screen: (800, 480))
        for (u, v) in [(0.0, 0.0), (0.3, 0.8), (1.0, 1.0)] {
            let (p, q) = (cal.apply(u, v), back.apply(u, v))
            #expect(abs(p.x - q.x) * 800 < 0.01 && abs(p.y - q.y) * 480 < 0.01)
        }
        #expect(text.hasSuffix(" 65536 800 480"))
    }
}
