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

    /// Sizes and damage that cut tiles (32 pixels) and blocks (4 pixels) at every edge: the turned
    /// copies go tile by tile and block by block, with the odd pixels at the edges one by one.
    @Test(arguments: DisplayRotation.allCases, [PixelFormat.xrgb8888, .rgb565])
    func aTiledCopyWritesExactlyThePixelsTheRotationSays(rotation: DisplayRotation, format: PixelFormat) throws {
        let (width, height) = (101, 71)
        let shadow = try numberedShadow(width: width, height: height, format: format)
        let size = rotation.panelSize(width: width, height: height)
        for damage in [PixelRect(x: 0, y: 0, width: width, height: height), PixelRect(x: 3, y: 5, width: 66, height: 37),
                       PixelRect(x: 97, y: 1, width: 4, height: 70), PixelRect(x: 31, y: 32, width: 2, height: 3)] {
            let panel = try blankPanel(width: size.width, height: size.height, format: format)
            panel.copy(from: shadow, damage: [Rect(x: Double(damage.x), y: Double(damage.y), width: Double(damage.width), height: Double(damage.height))],
                       rotation: rotation)
            let written = rotation.panelRect(damage, shadowWidth: width, shadowHeight: height)
            var wrong = 0
            for y in 0..<size.height {
                for x in 0..<size.width {
                    let inside = x >= written.x && x < written.x + written.width && y >= written.y && y < written.y + written.height
                    let s = rotation.shadowPixel(panelX: x, panelY: y, shadowWidth: width, shadowHeight: height)
                    let expected = inside ? pixel(shadow, s.x, s.y) : (format == .xrgb8888 ? 0xeeee_eeee : 0xeeee)
                    if pixel(panel.screen, x, y) != expected { wrong += 1 }
                }
            }
            #expect(wrong == 0, "\(rotation) \(format) damage \(damage): \(wrong) pixels wrong")
        }
    }

    /// A panel larger than the turned shadow (a dumb buffer's pitch is wider than its pixels).
    @Test(arguments: [DisplayRotation.clockwise90, .clockwise270], [PixelFormat.xrgb8888, .rgb565])
    func aTurnedCopyIntoAWiderTargetLeavesTheRestAlone(rotation: DisplayRotation, format: PixelFormat) throws {
        let shadow = try numberedShadow(width: 40, height: 36, format: format)
        let panel = try blankPanel(width: 50, height: 45, format: format)
        panel.copy(from: shadow, damage: [Rect(x: 0, y: 0, width: 40, height: 36)], rotation: rotation)
        for y in 0..<45 {
            for x in 0..<50 {
                if x < 36 && y < 40 {
                    let s = rotation.shadowPixel(panelX: x, panelY: y, shadowWidth: 40, shadowHeight: 36)
                    #expect(pixel(panel.screen, x, y) == pixel(shadow, s.x, s.y))
                } else {
                    #expect(pixel(panel.screen, x, y) == (format == .xrgb8888 ? 0xeeee_eeee : 0xeeee))
                }
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
