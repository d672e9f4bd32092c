import KioskCore
import Render

extension Replay {
    /// The scene as it is at the end of the replay, drawn afresh, headless, into a shadow buffer:
    /// in `format` with `font`, or as the replay's config says.
    public func finalFrame(format: PixelFormat? = nil, font: Font? = nil) throws(DrawingResourceError) -> PixelBuffer {
        let panel = scene.definition.panel
        let display = loop.configuration.runtime.display
        let buffer = try PixelBuffer(width: Int(panel.widthPixels), height: Int(panel.heightPixels),
                                     format: format ?? KioskLoop.pixelFormat(display))
        let renderer = if let font { SceneRenderer(font: font) } else { SceneRenderer(font: try Font(path: display.font)) }
        renderer.draw(scene: scene, at: endTime, into: buffer)
        return buffer
    }

    /// Writes the final frame as a PNG: the loop's own shadow buffer when the replay drew its
    /// frames (built from damage, frame by frame, as on the kiosk, in the config's pixel format and
    /// font), else a fresh drawing as the config says.
    public func writeScreenshot(to path: String) throws(DrawingResourceError) {
        if loop.output != nil {
            try loop.shadow.writePNG(to: path)
        } else {
            try finalFrame().writePNG(to: path)
        }
    }
}
