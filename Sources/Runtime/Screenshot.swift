import Render

extension Replay {
    /// The scene as it is at the end of the replay, drawn headless into a shadow buffer.
    public func finalFrame(format: PixelFormat = .xrgb8888, font: Font? = nil) throws(RenderError) -> PixelBuffer {
        let panel = scene.definition.panel
        let buffer = try PixelBuffer(width: Int(panel.widthPixels), height: Int(panel.heightPixels), format: format)
        let renderer: SceneRenderer
        if let font { renderer = SceneRenderer(font: font) } else { renderer = try SceneRenderer() }
        renderer.draw(scene: scene, at: endTime, into: buffer)
        return buffer
    }

    /// Draws the final frame and writes it as a PNG.
    public func writeScreenshot(to path: String, format: PixelFormat = .xrgb8888) throws(RenderError) {
        try finalFrame(format: format).writePNG(to: path)
    }
}
