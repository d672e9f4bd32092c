import Render

extension Replay {
    /// The scene as it is at the end of the replay, drawn afresh, headless, into a shadow buffer.
    public func finalFrame(format: PixelFormat = .xrgb8888, font: Font? = nil) throws(RenderError) -> PixelBuffer {
        let panel = scene.definition.panel
        let buffer = try PixelBuffer(width: Int(panel.widthPixels), height: Int(panel.heightPixels), format: format)
        let renderer: SceneRenderer
        if let font { renderer = SceneRenderer(font: font) } else { renderer = try SceneRenderer() }
        renderer.draw(scene: scene, at: endTime, into: buffer)
        return buffer
    }

    /// Writes the final frame as a PNG: the loop's own shadow buffer when the replay drew its
    /// frames (built from damage, frame by frame, as on the kiosk), else a fresh drawing.
    public func writeScreenshot(to path: String, format: PixelFormat = .xrgb8888) throws(RenderError) {
        if loop.output != nil, loop.shadow.format == format {
            try loop.shadow.writePNG(to: path)
        } else {
            try finalFrame(format: format).writePNG(to: path)
        }
    }
}
