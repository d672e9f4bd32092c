import Foundation
import InputEvents
import KioskCore
import KioskTestSupport
import Testing

@Suite("Touch calibration and orientation")
struct TouchCalibrationTests {
    func close(_ a: (x: Double, y: Double), _ b: (Double, Double)) -> Bool { abs(a.x - b.0) < 1e-9 && abs(a.y - b.1) < 1e-9 }

    @Test func rotationsFollowLibinputsMatrices() throws {
        let r90 = try TouchCalibration.identity.rotated(clockwise: 90)
        #expect(r90.matrix == [0, -1, 1, 1, 0, 0])
        #expect(close(r90.apply(0, 0), (1, 0)), "top left goes to top right")
        #expect(close(try TouchCalibration.identity.rotated(clockwise: 180).apply(0.25, 0.1), (0.75, 0.9)))
        #expect(close(try TouchCalibration.identity.rotated(clockwise: 270).apply(0, 0), (0, 1)))
        let full = try r90.rotated(clockwise: 90).rotated(clockwise: 90).rotated(clockwise: 90)
        #expect(close(full.apply(0.3, 0.7), (0.3, 0.7)))
        #expect(throws: CalibrationError.rotation(45)) { try TouchCalibration.identity.rotated(clockwise: 45) }
    }

    @Test func rotationAppliesAfterTheCalibration() throws {
        // Calibration halves x; then a horizontal flip.
        let c = try TouchCalibration(matrix: [0.5, 0, 0, 0, 1, 0]).flipped(horizontally: true, vertically: false)
        #expect(close(c.apply(1, 0.5), (0.5, 0.5)))
        #expect(close(c.apply(0, 0.5), (1, 0.5)))
    }

    @Test func aPointercalBecomesTheSameMappingInNormalisedTerms() throws {
        // tslib: x_px = (a·X + b·Y + c) / s on a 0..4095 resistive panel calibrated at 800x480.
        let axis = AxisInfo(minimum: 0, maximum: 4095)
        let (a, b, c, d, e, f, s) = (12800.0, 0.0, -204800.0, 0.0, 7680.0, 1_228_800.0, 65536.0)
        let cal = try TouchCalibration(pointercal: "12800 0 -204800 0 7680 1228800 65536 800 480\n", x: axis, y: axis, screen: (800, 480))
        for (rx, ry) in [(0.0, 0.0), (2048.0, 1024.0), (4095.0, 4095.0)] {
            let expected = ((a * rx + b * ry + c) / s, (d * rx + e * ry + f) / s)
            let n = cal.apply(rx / 4096, ry / 4096)
            #expect(abs(n.x * 800 - expected.0) < 1e-6 && abs(n.y * 480 - expected.1) < 1e-6)
        }
        #expect(throws: CalibrationError.self) { try TouchCalibration(pointercal: "1 2 3", x: axis, y: axis, screen: (800, 480)) }
        #expect(throws: CalibrationError.matrixSize(5)) { try TouchCalibration(matrix: [1, 0, 0, 0, 1]) }
    }

    @Test func aSevenIntegerPointercalIsCalibratedAtTheScreensResolution() throws {
        // What ts_calibrate writes without the resolution fields (older tslib): a resistive 0...4095
        // panel whose raw X runs about 200...3900 and Y 300...3800 across an 800x480 screen, with
        // the small cross terms a measured calibration has. x_px = (a·X + b·Y + c) / s.
        let text = "14170 -3 -2834000 5 8988 -2696400 65536\n"
        let (a, b, c, d, e, f, s) = (14170.0, -3.0, -2_834_000.0, 5.0, 8988.0, -2_696_400.0, 65536.0)
        let axis = AxisInfo(minimum: 0, maximum: 4095)
        let seven = try TouchCalibration(pointercal: text, x: axis, y: axis, screen: (800, 480))
        // Without its own resolution it was calibrated at the screen's: the 9-integer form with 800 480.
        // Each side of a comparison made before #expect: Swift 6.0's Testing cannot throw inside it.
        let nine = try TouchCalibration(pointercal: "14170 -3 -2834000 5 8988 -2696400 65536 800 480", x: axis, y: axis, screen: (800, 480))
        let wider = try TouchCalibration(pointercal: text, x: axis, y: axis, screen: (1024, 600))
        #expect(seven == nine)
        #expect(seven != wider)
        for (rx, ry) in [(200.0, 300.0), (2050.0, 2050.0), (3900.0, 3800.0)] {
            let n = seven.apply(rx / 4096, ry / 4096)
            #expect(abs(n.x * 800 - (a * rx + b * ry + c) / s) < 1e-6)
            #expect(abs(n.y * 480 - (d * rx + e * ry + f) / s) < 1e-6)
        }
        // The panel's corners land on the screen's corners, within a pixel.
        let topLeft = seven.apply(200.0 / 4096, 300.0 / 4096), bottomRight = seven.apply(3900.0 / 4096, 3800.0 / 4096)
        #expect(abs(topLeft.x * 800) < 1 && abs(topLeft.y * 480) < 1, "\(topLeft)")
        #expect(abs(bottomRight.x * 800 - 800) < 1 && abs(bottomRight.y * 480 - 480) < 1, "\(bottomRight)")

        // Through the decoder, a touch at raw (2050, 2050) lands where tslib puts it; the decoder
        // maps through pixel centres, which moves it less than a tenth of a pixel.
        var decoder = try TouchDecoder(device: SyntheticTouchscreen.resistive, screen: panel, calibration: seven)
        var frame: TouchFrame?
        for event in [InputEvent(time: .zero, AbsoluteAxis.x, 2050), InputEvent(time: .zero, AbsoluteAxis.y, 2050),
                      InputEvent(time: .zero, KeyCode.touch, 1), .report(at: .zero)] {
            frame = decoder.feed(event) ?? frame
        }
        let p = try #require(frame?.touches.first?.location)
        #expect(abs(p.x - (a * 2050 + b * 2050 + c) / s) < 0.1 && abs(p.y - (d * 2050 + e * 2050 + f) / s) < 0.1, "\(p)")
        // Five or eight numbers are neither form.
        #expect(throws: CalibrationError.self) { try TouchCalibration(pointercal: "14170 -3 -2834000 5 8988", x: axis, y: axis, screen: (800, 480)) }
        #expect(throws: CalibrationError.self) { try TouchCalibration(pointercal: "14170 -3 -2834000 5 8988 -2696400 65536 800", x: axis, y: axis, screen: (800, 480)) }
    }

    /// A panel whose axes do not start at 0: the eGalax recording (Fixtures/), its position on
    /// ABS_Z 30...4040 and ABS_RX 60...4035 as its header says. tslib's pointercal maps raw units,
    /// so the axis minimum is part of the mapping: ignored, every touch would land 6 px right and
    /// 7 px low on this panel.
    @Test func aPointercalOnAPanelWhoseAxesStartAboveZeroMapsRawUnitsAsTslibDoes() throws {
        let trace = try Recording.egalax.trace()
        let (x, y) = (try #require(trace.device.axes[.z]), try #require(trace.device.axes[.rx]))
        #expect((x.minimum, x.maximum, y.minimum, y.maximum) == (30, 4040, 60, 4035), "the header's ranges")
        // Calibrated at 800x480 so that raw 30 is the left edge and 60 the top: x_px = (a·X + c) / s.
        let (a, c, e, f, s) = (13071.0, -392_130.0, 7912.0, -474_720.0, 65536.0)
        let cal = try TouchCalibration(pointercal: "13071 0 -392130 0 7912 -474720 65536 800 480", x: x, y: y, screen: (800, 480))
        var decoder = try TouchDecoder(device: trace.device, screen: panel, positionAxes: (.z, .rx), calibration: cal)
        let frames = decode(trace.events, with: &decoder)
        // The first touch: raw (1909, 2123). The decoder maps through pixel centres, which moves
        // it less than a tenth of a pixel.
        let p = try #require(frames.first?.touches.first?.location)
        #expect(abs(p.x - (a * 1909 + c) / s) < 0.1 && abs(p.y - (e * 2123 + f) / s) < 0.1, "\(p)")
        // The axes' own ends land on the screen's corners.
        let topLeft = cal.apply(0, 0)
        #expect(abs(topLeft.x * 800) < 0.01 && abs(topLeft.y * 480) < 0.01, "raw (30, 60): \(topLeft)")
        let bottomRight = cal.apply(1, 1)
        #expect(abs(bottomRight.x * 800 - (a * 4041 + c) / s) < 1e-6 && abs(bottomRight.y * 480 - (e * 4036 + f) / s) < 1e-6, "\(bottomRight)")
    }

    @Test func aProtocolAPanelIsCalibratedOverItsMultitouchAxes() throws {
        // Touches come from ABS_MT_POSITION_X/Y (through mtdev), not from the pointer axes.
        let mt = AxisInfo(minimum: 0, maximum: 4095)
        let device = DeviceDescription(name: "protocol A panel", properties: .direct, axes: [
            .multitouchPositionX: mt, .multitouchPositionY: mt,
            .x: AxisInfo(minimum: 0, maximum: 799), .y: AxisInfo(minimum: 0, maximum: 479),
        ])
        let text = "12800 0 -204800 0 7680 1228800 65536 800 480\n"
        let cal = try TouchCalibration(pointercal: text, device: device, screen: (800, 480))
        let onMultitouchAxes = try TouchCalibration(pointercal: text, x: mt, y: mt, screen: (800, 480))
        let onSingleTouchAxes = try TouchCalibration(pointercal: text, x: device.axes[.x]!, y: device.axes[.y]!, screen: (800, 480))
        #expect(cal == onMultitouchAxes)
        #expect(cal != onSingleTouchAxes)
    }

    @Test(arguments: [(0, Point(x: 10, y: 20)), (180, Point(x: 789, y: 459)), (90, Point(x: 800 * (1 - 20.5 / 480) - 0.5, y: 480 * (10.5 / 800) - 0.5))])
    func theDecoderAppliesItToEveryTouch(degrees: Int, expected: Point) throws {
        let panel = Fingers(panel: SyntheticTouchscreen.ft5406)
        panel.down(Point(x: 10, y: 20))
        let cal = try TouchCalibration.identity.rotated(clockwise: degrees)
        var decoder = try TouchDecoder(device: panel.trace.device, screen: Size(width: 800, height: 480), calibration: cal)
        var frame: TouchFrame?
        for e in panel.trace.events { frame = decoder.feed(e) ?? frame }
        let p = try #require(frame?.touches.first?.location)
        #expect(abs(p.x - expected.x) < 1e-9 && abs(p.y - expected.y) < 1e-9, "\(p)")
    }

    @Test func aFlippedPanelMapsEdgePixelToEdgePixel() throws {
        let panel = Fingers(panel: SyntheticTouchscreen.ft5406)
        panel.down(Point(x: 0, y: 479))
        let cal = TouchCalibration.identity.flipped(horizontally: true, vertically: true)
        var decoder = try TouchDecoder(device: panel.trace.device, screen: Size(width: 800, height: 480), calibration: cal)
        var frame: TouchFrame?
        for e in panel.trace.events { frame = decoder.feed(e) ?? frame }
        let p = try #require(frame?.touches.first?.location)
        #expect(abs(p.x - 799) < 1e-9 && abs(p.y - 0) < 1e-9, "\(p)")
    }

    @Test(arguments: ["1e400 0 0 0 1 0 1", "inf 0 0 0 1 0 1", "nan 0 0 0 1 0 1", "1 0 0 0 1 0 1 0 480"])
    func aPointercalThatGivesNoUsableMatrixIsRefused(text: String) {
        let axis = AxisInfo(minimum: 0, maximum: 799)
        #expect(throws: CalibrationError.self) { try TouchCalibration(pointercal: text, x: axis, y: axis, screen: (800, 480)) }
    }

    @Test func aPointercalFileIsNamedInItsErrors() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-pointercal-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent("pointercal").path
        let device = SyntheticTouchscreen.ft5406
        #expect {
            try TouchCalibration(pointercalFile: path, device: device, screen: (800, 480))
        } throws: { "\($0)" == "\(path): cannot read the pointercal file: no such file or directory" }
        try Data("1 2 3\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect {
            try TouchCalibration(pointercalFile: path, device: device, screen: (800, 480))
        } throws: { "\($0)" == "\(path):1: pointercal: expected 7 integers 'a b c d e f s' (or 9, with the resolution), found '1 2 3'" }
        try Data("65536 0 0 0 65536 0 65536\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(try TouchCalibration(pointercalFile: path, device: device, screen: (800, 480)).isIdentity)
    }
}
