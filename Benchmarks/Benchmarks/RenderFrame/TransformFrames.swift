import Benchmark
import CairoReference
import Foundation
import Gestures
import KioskConfig
import KioskCore
import KioskTestSupport
import Render
import Runtime
import Scene

/// Issue 14's goal 1: a frame where all three squares are pinched and turned at once, drawn from
/// its damage as `kiosk run` draws it, against plain C cairo redrawing the same frames whole.
func transformBenchmarks() {
    Benchmark("transform frame: three squares pinched and turned at once, XRGB8888", closure: { (benchmark: Benchmark, f: TransformFrames) in
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { f.step() }
        benchmark.stopMeasurement()
    }, setup: { () throws -> TransformFrames in try TransformFrames(.xrgb8888) })

    // The same frames as exact as plain C draws them: every square rasterised afresh, clipped alike.
    Benchmark("transform frame, squares rasterised afresh (Swift renderer, exact)", closure: { (benchmark: Benchmark, f: TransformFrames) in
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { f.step() }
        benchmark.stopMeasurement()
    }, setup: { () throws -> TransformFrames in try TransformFrames(.xrgb8888, cachesTransforms: false) })

    Benchmark("transform frame, RGB565", closure: { (benchmark: Benchmark, f: TransformFrames) in
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { f.step() }
        benchmark.stopMeasurement()
    }, setup: { () throws -> TransformFrames in try TransformFrames(.rgb565) })

    Benchmark("transform frame, full redraw (plain C calling cairo)", closure: { (benchmark: Benchmark, f: TransformFrames) in
        guard let reference = reference_renderer_create(Font.defaultPath) else { fatalError("cannot load \(Font.defaultPath)") }
        defer { reference_renderer_destroy(reference) }
        let scenes = f.referenceScenes()
        let buffer = f.buffer
        "\(f.buttonText)".withCString { text in
            f.sliderText.withCString { value in
                var all = scenes
                for k in all.indices {
                    all[k].button_text = text
                    all[k].slider_text = value
                }
                var k = 0
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations {
                    reference_draw(reference, buffer.bytes.assumingMemoryBound(to: UInt8.self), 800, 480, Int32(buffer.stride), &all[k])
                    k = (k + 1) % all.count
                }
                benchmark.stopMeasurement()
            }
        }
    }, setup: { () throws -> TransformFrames in try TransformFrames(.xrgb8888) })
}

/// The default scene with two fingers on each square, spreading, closing and turning them back
/// and forth: a cycle of `period` frames, replayed frame after frame.
final class TransformFrames {
    let scene: KioskScene
    /// Damage and render as `kiosk run` draws a frame (its copy to the panel and flip aside).
    let pipeline: FramePipeline
    var buffer: PixelBuffer { pipeline.shadow }
    var now = Instant(seconds: 1)
    static let period = 120
    private var frames: [TouchFrame] = []
    private var next = 0

    init(_ format: PixelFormat, cachesTransforms: Bool = true) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let config = try KioskConfiguration.load(path: root.appendingPathComponent("config/kiosk.toml").path)
        scene = try KioskScene(config.scene, recordsEvents: false)
        pipeline = try FramePipeline(width: 800, height: 480, format: format,
                                     renderer: SceneRenderer(font: try Font(), cachesTransforms: cachesTransforms))
        try pipeline.render(scene, at: now)
        let centers = scene.views.compactMap(\.square).map(\.center)
        let d = Point(x: 30, y: 0)
        let recorded = Fingers.frames(startingAt: now) { fingers in
            let down = fingers.report(down: centers.flatMap { [$0 - d, $0 + d] })
            for i in 0..<Self.period {
                // Spread to 1.3 times and back, turned up to 0.8 rad and back, along one cycle.
                let t = Double(i) / Double(Self.period) * 2 * Double.pi
                let turned = (d * (1 + 0.15 * (1 - cos(t)))).rotated(by: 0.8 * sin(t))
                var moves: [Int: Point] = [:]
                for (k, c) in centers.enumerated() {
                    moves[down[2 * k]] = c - turned
                    moves[down[2 * k + 1]] = c + turned
                }
                fingers.move(moves, after: 0)
            }
        }
        scene.handle(recorded[0])
        frames = Array(recorded.dropFirst())
        // One cycle to warm up: the gestures begin, the caches fill.
        for _ in 0..<Self.period { step() }
    }

    /// One frame: the fingers move on, the damage is found and redrawn.
    func step() {
        now.microseconds += 16_667
        frames[next].time = now
        scene.handle(frames[next])
        next = (next + 1) % frames.count
        try! pipeline.render(scene, at: now)
    }

    var buttonText: String {
        let button = scene.views.lazy.compactMap(\.button).first!
        return "\(button.label) · \(button.taps)"
    }

    var sliderText: String { SceneRenderer.sliderValueText(scene.views.lazy.compactMap(\.slider).first!.value) }

    /// Each frame of one cycle as plain numbers for the C reference: the squares where they are,
    /// as large as they are drawn, turned as they are. Made once, on the first call.
    func referenceScenes() -> [reference_scene] {
        if let references { return references }
        let made = makeReferenceScenes()
        references = made
        return made
    }

    private var references: [reference_scene]?

    private func makeReferenceScenes() -> [reference_scene] {
        func rgb(_ c: Color) -> (Double, Double, Double) { (Double(c.red) / 255, Double(c.green) / 255, Double(c.blue) / 255) }
        let theme = scene.definition.views[0].themes[0]
        var base = reference_scene()
        base.background = rgb(theme.background)
        base.foreground = rgb(theme.foreground)
        for v in scene.views {
            let f = (v.baseFrame.minX, v.baseFrame.minY, v.baseFrame.width, v.baseFrame.height)
            switch v.kind {
            case .button: (base.button, base.button_color) = (f, rgb(v.color))
            case .slider: (base.slider, base.slider_color, base.slider_knob_x) = (f, rgb(v.color), v.knobCenter().x)
            case .toggle: (base.toggle, base.toggle_color, base.toggle_knob_x) = (f, rgb(v.color), v.knobCenter().x)
            default: break
            }
        }
        var scenes: [reference_scene] = []
        for _ in 0..<Self.period {
            step()
            var squares: [reference_square] = []
            for v in scene.views {
                guard let q = v.square else { continue }
                let c = rgb(v.color)
                squares.append(reference_square(cx: q.center.x, cy: q.center.y, side: q.side * q.scale, rotation: q.rotation, r: c.0, g: c.1, b: c.2))
            }
            var s = base
            s.squares = (squares[0], squares[1], squares[2])
            scenes.append(s)
        }
        return scenes
    }
}
