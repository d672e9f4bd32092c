import Display
import Glibc
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
                    // As many as fit in 16 bits: no two pixels within 80 rows of each other alike.
                    row.storeBytes(of: UInt16(truncatingIfNeeded: y < 256 && x < 256 ? y << 8 | x : y &* 811 &+ x), toByteOffset: x * 2, as: UInt16.self)
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

    /// Sizes and damage that cut tiles (32x64 target pixels) and blocks (4 pixels at 32 bits, 8 at
    /// 16) at every edge: the turned copies go tile by tile and block by block, with the odd pixels
    /// at the edges one by one.
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

    /// What a copy must leave in a target: the naive copy, shadow pixel by shadow pixel, each put
    /// where `panelRect` turns it (when that is inside the target), every other byte as it was.
    func referenceCopy(from shadow: PixelBuffer, to target: PixelTarget, damage: PixelRect, rotation: DisplayRotation) {
        let bpp = shadow.format.bytesPerPixel
        for sy in max(0, damage.y)..<min(shadow.height, damage.y + damage.height) {
            for sx in max(0, damage.x)..<min(shadow.width, damage.x + damage.width) {
                let p = rotation.panelRect(PixelRect(x: sx, y: sy, width: 1, height: 1), shadowWidth: shadow.width, shadowHeight: shadow.height)
                guard p.x < target.width, p.y < target.height else { continue }
                (target.bytes + p.y * target.stride + p.x * bpp).copyMemory(from: shadow.bytes + sy * shadow.stride + sx * bpp, byteCount: bpp)
            }
        }
    }

    /// Copies `damage` into a target of `width`×`height` pixels, `stride` bytes a row, starting
    /// `offset` bytes into its memory, and returns how many bytes of the memory (the target's
    /// padding and the bytes around it included) differ from the naive copy's.
    func wrongBytes(_ shadow: PixelBuffer, width: Int, height: Int, stride: Int, offset: Int = 0, damage: [PixelRect],
                    rotation: DisplayRotation) -> Int {
        let count = offset + stride * height + 64
        let memory = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 64)
        let expected = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 64)
        defer { memory.deallocate(); expected.deallocate() }
        memory.initializeMemory(as: UInt8.self, repeating: 0xee, count: count)
        expected.initializeMemory(as: UInt8.self, repeating: 0xee, count: count)
        let target = PixelTarget(bytes: memory + offset, width: width, height: height, stride: stride, format: shadow.format)
        FrameCopy.copy(from: shadow, to: target, damage: damage.map { Rect(x: Double($0.x), y: Double($0.y), width: Double($0.width), height: Double($0.height)) },
                       rotation: rotation)
        let reference = PixelTarget(bytes: expected + offset, width: width, height: height, stride: stride, format: shadow.format)
        for d in damage { referenceCopy(from: shadow, to: reference, damage: d, rotation: rotation) }
        guard memcmp(memory, expected, count) != 0 else { return 0 }
        return (0..<count).count { memory.load(fromByteOffset: $0, as: UInt8.self) != expected.load(fromByteOffset: $0, as: UInt8.self) }
    }

    /// A whole 800x480 frame, and damage that crosses tiles down and across: a turned panel is 800
    /// rows tall, over three of the 256-row tiles at 32 bits and twelve of the 64-row ones at 16.
    @Test(arguments: DisplayRotation.allCases, [PixelFormat.xrgb8888, .rgb565])
    func aPanelSizedFrameCrossesTilesDownAndAcrossAndGivesTheNaiveCopy(rotation: DisplayRotation, format: PixelFormat) throws {
        let shadow = try numberedShadow(width: 800, height: 480, format: format)
        let size = rotation.panelSize(width: 800, height: 480)
        let stride = size.width * format.bytesPerPixel + 64
        for damage in [[PixelRect(x: 0, y: 0, width: 800, height: 480)],
                       [PixelRect(x: 250, y: 29, width: 301, height: 70), PixelRect(x: 3, y: 200, width: 797, height: 9)]] {
            #expect(wrongBytes(shadow, width: size.width, height: size.height, stride: stride, damage: damage, rotation: rotation) == 0,
                    "\(rotation) \(format) damage \(damage)")
        }
    }

    /// Damage of every width and height from 1 to 17 pixels, at every offset mod 8 across and down:
    /// in the turned target its columns and rows start and end at every place in a block (4 pixels
    /// at 32 bits, 8 at 16), a block's worth or two plus any rest, and at every 16-byte alignment.
    @Test(arguments: DisplayRotation.allCases, [PixelFormat.xrgb8888, .rgb565])
    func damageOfEverySizeAtEveryOffsetGivesTheNaiveCopy(rotation: DisplayRotation, format: PixelFormat) throws {
        let shadow = try numberedShadow(width: 37, height: 35, format: format)
        let size = rotation.panelSize(width: 37, height: 35)
        // A dumb buffer's pitch, a multiple of 64 bytes: the turned copies start their blocks at the target's 16-byte boundaries.
        let stride = (size.width * format.bytesPerPixel + 63) / 64 * 64
        var failures: [String] = []
        for side in 1...17 {
            for offset in 0..<8 {
                // A strip of `side` one way and 17 − side + 3 the other, and a square of `side`.
                for damage in [PixelRect(x: offset, y: 2 * offset + 1, width: side, height: 20 - side),
                               PixelRect(x: 3 * offset + 2, y: offset, width: 20 - side, height: side),
                               PixelRect(x: 19 - offset, y: 17 - 2 * offset, width: side, height: side)] {
                    let wrong = wrongBytes(shadow, width: size.width, height: size.height, stride: stride, damage: [damage], rotation: rotation)
                    if wrong != 0 { failures.append("\(damage): \(wrong) bytes") }
                }
            }
        }
        #expect(failures.isEmpty, "\(rotation) \(format): \(failures.count) damage rectangles copied wrong, first \(failures.prefix(3))")
    }

    /// Targets that are not the turned shadow's size or shape: rows with padding (a dumb buffer's
    /// pitch), rows that start off a 16-byte boundary, larger and smaller than the turned shadow
    /// (cut), across tiles. Every byte of the target's memory is the naive copy's.
    @Test(arguments: DisplayRotation.allCases, [PixelFormat.xrgb8888, .rgb565])
    func targetsOfEveryShapeGetTheNaiveCopy(rotation: DisplayRotation, format: PixelFormat) throws {
        let (width, height) = (133, 77)
        let shadow = try numberedShadow(width: width, height: height, format: format)
        let turned = rotation.panelSize(width: width, height: height)
        let bpp = format.bytesPerPixel
        let damage = [PixelRect(x: 0, y: 0, width: width, height: height), PixelRect(x: 5, y: 3, width: 99, height: 70),
                      PixelRect(x: 64, y: 31, width: 69, height: 46), PixelRect(x: 1, y: 66, width: 130, height: 9),
                      PixelRect(x: -3, y: 70, width: 20, height: 20)] // partly outside the shadow: cut
        // (width, height, stride, offset of the first pixel)
        let targets = [
            (turned.width, turned.height, turned.width * bpp + 6 * bpp, 0),       // padded rows, pitch not a multiple of 16
            (turned.width, turned.height, (turned.width * bpp + 63) / 64 * 64, 0), // a dumb buffer's 64-byte pitch
            (turned.width, turned.height, 256 * bpp, bpp),                        // aligned pitch, first pixel off 16 bytes
            (turned.width, turned.height, 256 * bpp, 3 * bpp),
            (turned.width + 9, turned.height + 23, (turned.width + 9) * bpp, 0),   // larger than the turned shadow
            (turned.width - 11, turned.height - 37, (turned.width - 11) * bpp, 0), // smaller: cut
            (turned.width / 2 + 1, turned.height + 5, 512, 2 * bpp),               // narrower, taller
        ]
        for (w, h, stride, offset) in targets {
            for d in damage {
                let wrong = wrongBytes(shadow, width: w, height: h, stride: stride, offset: offset, damage: [d], rotation: rotation)
                #expect(wrong == 0, "\(rotation) \(format) target \(w)x\(h) stride \(stride) offset \(offset) damage \(d): \(wrong) bytes wrong")
            }
            let wrong = wrongBytes(shadow, width: w, height: h, stride: stride, offset: offset, damage: damage, rotation: rotation)
            #expect(wrong == 0, "\(rotation) \(format) target \(w)x\(h) stride \(stride) offset \(offset), all damage: \(wrong) bytes wrong")
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
