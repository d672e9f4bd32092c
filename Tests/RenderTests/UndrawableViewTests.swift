import Gestures
import KioskCore
import KioskTestSupport
import Render
import Scene
import Testing

/// The renderer on scenes the config reader refuses (built here in code): a view too large or not
/// a number must neither trap (issue 16, faults 3 and 4), nor hang in cairo (fault 8), nor stop the
/// rest of the scene from being drawn. And a square larger than the cached images, which a pinch
/// can make of an allowed one, is drawn all the same, whole or in damaged parts.
@Suite("The renderer leaves out what cairo cannot draw", .timeLimit(.minutes(1)))
struct UndrawableViewTests {
    static let yellow = Color(red: 245, green: 197, blue: 24)
    static let magenta = Color(red: 214, green: 51, blue: 132)

    /// The canvas, a small yellow square at (60, 60), and `view` in front of them.
    func scene(_ view: ViewDescription) throws -> KioskScene {
        let views = [
            ViewDescription(name: "canvas", kind: .canvas, parent: nil, frame: Rect(x: 0, y: 0, width: 800, height: 480)),
            ViewDescription(name: "small", kind: .square, parent: "canvas", frame: Rect(x: 40, y: 40, width: 40, height: 40), color: Self.yellow),
            view,
        ]
        return try KioskScene(SceneDescription(panel: .raspberryPi7Inch, views: views, gestures: []), recordsEvents: false)
    }

    func drawn(_ scene: KioskScene, clip: [Rect]? = nil) throws -> PixelBuffer {
        let buffer = try PixelBuffer(width: 800, height: 480)
        SceneRenderer(font: try Font()).draw(scene: scene, at: Instant(seconds: 1), into: buffer, clip: clip)
        return buffer
    }

    static func isYellow(_ p: (red: UInt8, green: UInt8, blue: UInt8)) -> Bool { p == (yellow.red, yellow.green, yellow.blue) }

    @Test(arguments: [
        (ViewKind.square, Rect(x: 0, y: 0, width: 1e308, height: 1e308)),  // fault 3
        (.square, Rect(x: 0, y: 0, width: .infinity, height: .infinity)),
        (.square, Rect(x: 0, y: 0, width: 3e9, height: 3e9)),  // fault 4
        (.square, Rect(x: 1e17, y: 0, width: 1, height: 1)),  // fault 1's frame
        (.square, Rect(x: .nan, y: 0, width: 10, height: 10)),
        (.toggle, Rect(x: 0, y: 0, width: 120, height: 1e308)),  // fault 8
        (.toggle, Rect(x: 0, y: 0, width: 120, height: 1e16)),
        (.slider, Rect(x: 0, y: 0, width: 120, height: 1e308)),
        (.button, Rect(x: 0, y: 0, width: 1e308, height: 1e308)),
        (.button, Rect(x: -.infinity, y: 0, width: .infinity, height: 50)),
    ])
    func aViewBeyondWhatCairoDrawsIsLeftOutAndTheRestIsDrawn(kind: ViewKind, frame: Rect) throws {
        let s = try scene(ViewDescription(name: "huge", kind: kind, parent: "canvas", frame: frame, color: Self.magenta))
        let whole = try drawn(s)
        #expect(Self.isYellow(whole.rgb(x: 60, y: 60)), "the small square is drawn")
        #expect(!SceneRenderer.isDrawable(frame))
        // Damage rectangles made of the same numbers are cut to the buffer, not turned into Ints whole.
        let parts = try drawn(s, clip: [frame, Rect(x: 0, y: 0, width: 800, height: 480)])
        #expect(firstDifference(parts, whole) == "none")
    }

    @Test func aSquareTooLargeToKeepAsAnImageIsDrawnStraightIntoTheFrame() throws {
        // 3000 px across: larger than the cached images (2048), the size of a square of 1000 pinched up 3 times.
        let frame = Rect(x: -1100, y: -1260, width: 3000, height: 3000)
        #expect(SceneRenderer.isDrawable(frame))
        let s = try scene(ViewDescription(name: "big", kind: .square, parent: "canvas", frame: frame, color: Self.magenta))
        let whole = try drawn(s)
        for (x, y) in [(400, 240), (0, 0), (799, 479), (60, 60)] {
            #expect(whole.rgb(x: x, y: y) == (Self.magenta.red, Self.magenta.green, Self.magenta.blue), "(\(x), \(y))")
        }
        // In damaged parts as in one piece, pixel for pixel.
        let quarters = [Rect(x: 0, y: 0, width: 400, height: 240), Rect(x: 400, y: 0, width: 400, height: 240),
                        Rect(x: 0, y: 240, width: 400, height: 240), Rect(x: 400, y: 240, width: 400, height: 240)]
        #expect(firstDifference(try drawn(s, clip: quarters), whole) == "none")
    }

    @Test func theLargestSquareAConfigAllowsStaysDrawableWhenPinchedLiftedAndTurned() throws {
        // Edges within +-65536 (the config's limit): a square 131072 px across around the origin.
        let side = 131_072.0
        let reach = side / 2 * KioskScene.scaleRange.upperBound * 4 * 2.0.squareRoot() + 26  // lift_scale at most 4; shadow
        #expect(reach < SceneRenderer.drawableLimit)
        // And drawn so, in a second, not left out: its middle covers the screen.
        let s = try scene(ViewDescription(name: "big", kind: .square, parent: "canvas",
                                          frame: Rect(x: -65536, y: -65536, width: side, height: side), color: Self.magenta))
        #expect(try drawn(s).rgb(x: 400, y: 240) == (Self.magenta.red, Self.magenta.green, Self.magenta.blue))
    }
}
