import Display
import KioskCore
import Testing

/// Copying the shadow buffer to the panel: only damaged pixels, turned as the panel is mounted.
struct FrameCopyTests {
    /// A shadow whose every pixel is distinct: 0x00YYYXXX.
    func numberedShadow(width: Int, height: Int, format: PixelFormat = .xrgb8888) throws -> PixelBuffer {
        let shadow = try PixelBuffer(width: width, height: height, format: format)
        for y in 0..<height {
            for x in 0..<width {
                let row = shadow.bytes + y * shadow.stride
                if format == .xrgb8888 {
                    row.storeBytes(of: UInt32(y << 12 | x), toByteOffset: x * 4, as: UInt32.self)
                } else {
                    row.storeBytes(of: UInt16(y << 8 | x), toByteOffset: x * 2, as: UInt16.self)
                }
            }
        }
        return shadow
    }

    func pixel(_ b: PixelBuffer, _ x: Int, _ y: Int) -> UInt32 {
        b.format == .xrgb8888
            ? (b.bytes + y * b.stride).load(fromByteOffset: x * 4, as: UInt32.self)
            : UInt32((b.bytes + y * b.stride).load(fromByteOffset: x * 2, as: UInt16.self))
    }

    /// A panel filled with a value no shadow pixel has, to see which pixels were written.
    func blankPanel(width: Int, height: Int, format: PixelFormat = .xrgb8888) throws -> HeadlessDisplay {
        let panel = try HeadlessDisplay(width: width, height: height, format: format)
        panel.screen.bytes.initializeMemory(as: UInt8.self, repeating: 0xee, count: panel.screen.stride * height)
        return panel
    }

    @Test(arguments: DisplayRotation.allCases, [PixelFormat.xrgb8888, .rgb565])
    func aWholeCopyPutsEveryShadowPixelWhereTheRotationSays(rotation: DisplayRotation, format: PixelFormat) throws {
        let shadow = try numberedShadow(width: 7, height: 4, format: format)
        let size = rotation.panelSize(width: 7, height: 4)
        let panel = try blankPanel(width: size.width, height: size.height, format: format)
        panel.copy(from: shadow, damage: [Rect(x: 0, y: 0, width: 7, height: 4)], rotation: rotation)
        for y in 0..<4 {
            for x in 0..<7 {
                let p = rotation.panelRect(PixelRect(x: x, y: y, width: 1, height: 1), shadowWidth: 7, shadowHeight: 4)
                #expect(pixel(panel.screen, p.x, p.y) == pixel(shadow, x, y), "shadow (\(x), \(y)) → panel (\(p.x), \(p.y))")
            }
        }
    }

    @Test func ninetyDegreesTurnsClockwiseLikeTheTouchRotation() throws {
        // The shadow's top-left corner lands at the panel's top-right, as (x, y) → (1 − y, x) for touches.
        let r = DisplayRotation.clockwise90.panelRect(PixelRect(x: 0, y: 0, width: 1, height: 1), shadowWidth: 800, shadowHeight: 480)
        #expect(r == PixelRect(x: 479, y: 0, width: 1, height: 1))
        let s = DisplayRotation.clockwise90.shadowPixel(panelX: 479, panelY: 0, shadowWidth: 800, shadowHeight: 480)
        #expect(s == (0, 0))
    }

    @Test(arguments: DisplayRotation.allCases)
    func onlyTheDamagedPixelsAreWritten(rotation: DisplayRotation) throws {
        let shadow = try numberedShadow(width: 40, height: 30)
        let size = rotation.panelSize(width: 40, height: 30)
        let panel = try blankPanel(width: size.width, height: size.height)
        // Fractional damage covers every pixel it touches.
        let damage = Rect(x: 3.5, y: 2.2, width: 10, height: 5.1)
        panel.copy(from: shadow, damage: [damage], rotation: rotation)
        let covered = rotation.panelRect(PixelRect(x: 3, y: 2, width: 11, height: 6), shadowWidth: 40, shadowHeight: 30)
        var written = 0
        for y in 0..<size.height {
            for x in 0..<size.width where pixel(panel.screen, x, y) != 0xeeee_eeee {
                written += 1
                #expect(x >= covered.x && x < covered.x + covered.width && y >= covered.y && y < covered.y + covered.height)
            }
        }
        #expect(written == 11 * 6)
    }

    @Test func damageOutsideTheShadowOrThePanelIsCut() throws {
        let shadow = try numberedShadow(width: 20, height: 10)
        let panel = try blankPanel(width: 16, height: 10)
        panel.copy(from: shadow, damage: [Rect(x: -5, y: -5, width: 100, height: 100), Rect(x: 50, y: 50, width: 4, height: 4)], rotation: .upright)
        #expect(pixel(panel.screen, 15, 9) == pixel(shadow, 15, 9))
        #expect(pixel(panel.screen, 0, 0) == pixel(shadow, 0, 0))
    }

    @Test func pixelRectCoversEveryPixelARectTouches() {
        let bounds = PixelRect(x: 0, y: 0, width: 800, height: 480)
        #expect(PixelRect(covering: Rect(x: 0.5, y: 1.5, width: 2, height: 1), within: bounds) == PixelRect(x: 0, y: 1, width: 3, height: 2))
        #expect(PixelRect(covering: Rect(x: 790, y: 470, width: 50, height: 50), within: bounds) == PixelRect(x: 790, y: 470, width: 10, height: 10))
        #expect(PixelRect(covering: Rect(x: 900, y: 0, width: 5, height: 5), within: bounds) == nil)
    }
}
