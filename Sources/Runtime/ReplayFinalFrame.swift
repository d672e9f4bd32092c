import KioskCore
import Render

extension Replay {
    /// Writes the final frame as a PNG: the loop's own shadow buffer, built from damage frame by
    /// frame as on the kiosk when the replay drew its frames, else drawn now, whole, through the
    /// same pipeline (in the config's pixel format and font) at the time the scene went idle.
    public func writeScreenshot(to path: String) throws(DrawingResourceError) {
        if loop.output == nil { try loop.pipeline.render(scene, at: endTime) }
        try loop.shadow.writePNG(to: path)
    }
}
