import Display
import KioskCore
import Render
import Scene

/// One frame's path from the scene to the glass: damage (what changed since the last frame),
/// render (cairo into the shadow buffer, clipped to the damage), copy (the damage, turned as the
/// panel is mounted, into the back buffer) and present (a page flip queued).
///
/// `kiosk run` and `kiosk replay` draw through it in `KioskLoop`, `kiosk show` on its own, and the
/// loop benchmark through the loop: a frame is drawn the same way everywhere.
public final class FramePipeline {
    public enum Outcome {
        /// Nothing changed on screen: nothing was drawn or presented.
        case unchanged
        /// Presented; `shownAt` is when it reached the screen if it did at once, nil while its
        /// page flip is pending.
        case presented(shownAt: Instant?)
        /// The copy or the present failed: the display is lost.
        case failed(DisplayError)
    }

    /// Nil: a replay that draws nothing.
    public let output: (any FrameOutput)?
    /// `output` when it knows when its vblanks fall (KioskLoop+Pacing.swift): looked up once, not every frame.
    public let paced: (any PacedOutput)?
    /// The frame as drawn, in the scene's orientation: what screenshots write.
    public private(set) var shadow: PixelBuffer
    public let rotation: DisplayRotation
    /// Nil when there is no output, until a replay's screenshot asks for a frame (`drawWhole`).
    var renderer: SceneRenderer?
    /// The config's font, read when the first frame is drawn; nil when the renderer was given.
    private let fontPath: String?
    private var damage: DamageTracker
    /// Reused every frame: drawing allocates nothing of its own in steady state.
    private var rects: [Rect] = []

    /// A shadow buffer of `width`x`height` in `format`; the font is read only when there is an output.
    public init(width: Int, height: Int, format: PixelFormat, font: String, rotation: DisplayRotation,
                output: (any FrameOutput)?) throws(DrawingResourceError) {
        shadow = try PixelBuffer(width: width, height: height, format: format)
        fontPath = font
        renderer = output == nil ? nil : SceneRenderer(font: try Font(path: font))
        damage = DamageTracker(width: width, height: height)
        self.rotation = rotation
        self.output = output
        paced = output as? any PacedOutput
        rects.reserveCapacity(64)
    }

    /// A pipeline with no output that draws with `renderer`, upright: the renderer benchmarks'
    /// (`Benchmarks/Benchmarks/RenderFrame`), which measure `render(_:at:)` frame by frame, with a
    /// renderer made as they need (every square rasterised by cairo, for one).
    public init(width: Int, height: Int, format: PixelFormat, renderer: SceneRenderer) throws(DrawingResourceError) {
        shadow = try PixelBuffer(width: width, height: height, format: format)
        fontPath = nil
        self.renderer = renderer
        damage = DamageTracker(width: width, height: height)
        rotation = .upright
        output = nil
        paced = nil
        rects.reserveCapacity(64)
    }

    /// Draws what changed in `scene` at `now` and presents it; `meter` times the animation (damage),
    /// render and present stages.
    func drawFrame(_ scene: KioskScene, at now: Instant, meter: StageMeter?) -> Outcome {
        guard let output, let renderer else { return .unchanged }
        guard render(scene, at: now, with: renderer, meter: meter) else { return .unchanged }
        let start = meter?.start()
        let shown: Instant?
        do {
            try output.copy(from: shadow, damage: rects, rotation: rotation)
            shown = try output.present()
        } catch {
            return .failed(error)
        }
        if let start { meter?.end(.present, since: start) }
        return .presented(shownAt: shown)
    }

    /// The damage and render stages: what changed in `scene` at `now`, found and drawn into the
    /// shadow buffer (`rects`); false when nothing changed.
    private func render(_ scene: KioskScene, at now: Instant, with renderer: SceneRenderer, meter: StageMeter?) -> Bool {
        var start = meter?.start()
        damage.damage(for: scene, at: now, into: &rects)
        if let start { meter?.end(.animation, since: start) }
        guard !rects.isEmpty else { return false }
        start = meter?.start()
        renderer.draw(scene: scene, at: now, into: shadow, clip: rects)
        if let start { meter?.end(.render, since: start) }
        return true
    }

    /// Draws what changed in `scene` at `now` into the shadow buffer, without presenting it: the
    /// renderer benchmarks' frame, and a replay's screenshot when the replay drew nothing (its first
    /// frame is the whole scene). The font is read on the first call when there is no output.
    /// Returns false when nothing changed.
    @discardableResult
    public func render(_ scene: KioskScene, at now: Instant) throws(DrawingResourceError) -> Bool {
        if let renderer { return render(scene, at: now, with: renderer, meter: nil) }
        let made = SceneRenderer(font: try Font(path: fontPath ?? Font.defaultPath))
        renderer = made
        return render(scene, at: now, with: made, meter: nil)
    }

    /// Draws what changed in `scene` at `now` and presents it.
    public func drawFrame(_ scene: KioskScene, at now: Instant) -> Outcome {
        drawFrame(scene, at: now, meter: nil)
    }

    /// Presents the frame already drawn once more, into the other buffer (`kiosk show` shows it
    /// from both); the display adds what that buffer missed.
    @discardableResult
    public func presentAgain() throws(DisplayError) -> Instant? {
        guard let output else { return nil }
        try output.copy(from: shadow, damage: [], rotation: rotation)
        return try output.present()
    }

    /// The next frame is drawn whole: the display was lost, woken, or the scene replaced.
    public func invalidate() { damage.invalidate() }

    /// A renderer for a reloaded config's font, made before anything changes; nil without an output.
    func renderer(font: String) throws(DrawingResourceError) -> SceneRenderer? {
        renderer == nil ? nil : SceneRenderer(font: try Font(path: font))
    }

    /// A reloaded config's scene size: the shadow buffer is made afresh when it changed.
    func resize(width: Int, height: Int) throws(DrawingResourceError) {
        guard width != shadow.width || height != shadow.height else { return }
        shadow = try PixelBuffer(width: width, height: height, format: shadow.format)
        damage = DamageTracker(width: width, height: height)
    }

    /// A reloaded scene: drawn whole with `renderer` (nil: the same), its cached square images forgotten.
    func replaceScene(renderer new: SceneRenderer?) {
        if let new { renderer = new }
        renderer?.forgetSquareImages()
        damage.invalidate()
    }
}
