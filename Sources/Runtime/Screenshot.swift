import Render

extension Replay {
    /// Draws the scene as it is at the end of the replay, headless, and writes it as a PNG.
    public func writeScreenshot(to path: String, format: PixelFormat = .xrgb8888) throws(RenderError) {
        let panel = scene.definition.panel
        let buffer = try PixelBuffer(width: Int(panel.widthPixels), height: Int(panel.heightPixels), format: format)
        try SceneRenderer().draw(scene: scene, at: endTime, into: buffer)
        try buffer.writePNG(to: path)
    }
}
