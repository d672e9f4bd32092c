import Display
import InputEvents
import KioskConfig
import KioskCore
@testable import Runtime
import Testing

/// A panel turned in software: the picture goes out through `DisplayRotation` at copy time, the
/// touches come back through `TouchCalibration`; a finger must land on what is drawn under it.
@Suite("Display and touch rotation together")
struct RotationMatchTests {
    static let scene = (width: 800, height: 480)

    /// Where the scene point under a finger at panel pixel (`px`, `py`) is, through the same
    /// calibration the loop builds.
    static func touch(panelX px: Int, panelY py: Int, display: DisplayRotation, input: InputSettings) throws -> (x: Double, y: Double) {
        let panel = display.panelSize(width: scene.width, height: scene.height)
        let turn = input.touchRotation(displayRotation: display.degrees)
        let calibration = try TouchCalibration.identity.rotated(clockwise: turn).flipped(horizontally: input.flipX, vertically: input.flipY)
        // The glass reports the pixel's centre in its own (the panel's) coordinates, normalised.
        let (u, v) = calibration.apply((Double(px) + 0.5) / Double(panel.width), (Double(py) + 0.5) / Double(panel.height))
        return (u * Double(scene.width), v * Double(scene.height))
    }

    @Test(arguments: DisplayRotation.allCases)
    func byDefaultATouchLandsOnTheScenePixelDrawnUnderIt(display: DisplayRotation) throws {
        for (x, y) in [(0, 0), (799, 0), (0, 479), (799, 479), (160, 190), (648, 424), (400, 240), (13, 407)] {
            // The copy puts scene pixel (x, y) here on the panel.
            let p = display.panelRect(PixelRect(x: x, y: y, width: 1, height: 1), shadowWidth: Self.scene.width, shadowHeight: Self.scene.height)
            let back = display.shadowPixel(panelX: p.x, panelY: p.y, shadowWidth: Self.scene.width, shadowHeight: Self.scene.height)
            #expect(back.x == x && back.y == y, "the copy's two mappings agree")
            let t = try Self.touch(panelX: p.x, panelY: p.y, display: display, input: InputSettings())
            #expect(abs(t.x - (Double(x) + 0.5)) < 1e-6 && abs(t.y - (Double(y) + 0.5)) < 1e-6,
                    "display \(display): a finger on panel pixel \(p.x),\(p.y) must land on scene pixel \(x),\(y), not \(t)")
        }
    }

    @Test func theSameNumberOnBothSidesIsRightOnlyWhenTheTurnIsItsOwnInverse() throws {
        for display in DisplayRotation.allCases {
            var input = InputSettings()
            input.rotation = display.degrees
            let p = display.panelRect(PixelRect(x: 160, y: 190, width: 1, height: 1), shadowWidth: 800, shadowHeight: 480)
            let t = try Self.touch(panelX: p.x, panelY: p.y, display: display, input: input)
            let lands = abs(t.x - 160.5) < 1e-6 && abs(t.y - 190.5) < 1e-6
            #expect(lands == (display == .upright || display == .upsideDown), "display \(display), input \(display.degrees): \(t)")
        }
    }

    /// flutter-pi#282: a touch controller mounted upside down behind an upright picture.
    @Test func anExplicitTouchRotationIsSetApartFromTheDisplays() throws {
        var input = InputSettings()
        input.rotation = 180
        // The controller reports the top-left corner where the picture's bottom-right is.
        let t = try Self.touch(panelX: 0, panelY: 0, display: .upright, input: input)
        #expect(abs(t.x - 799.5) < 1e-6 && abs(t.y - 479.5) < 1e-6, "\(t)")
        #expect(input.touchRotation(displayRotation: DisplayRotation.clockwise90.degrees) == 180, "given, it is not derived from the display's")
        #expect(InputSettings().touchRotation(displayRotation: DisplayRotation.clockwise90.degrees) == 270)
        #expect(InputSettings().touchRotation(displayRotation: DisplayRotation.clockwise270.degrees) == 90)
    }
}
