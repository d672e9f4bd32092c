import CLinuxSystem
import Display
import Gestures
import InputEvents
import KioskConfig
import KioskCore
import Logging
import Render
import Scene
import TouchInput
#if canImport(Glibc)
import Glibc
#endif

// Reading the settings the loop is built from, and opening the display they name.
extension KioskLoop {

    static func budgets(_ loop: LoopSettings, refresh: Int) -> [Int64] {
        let frame = loop.frameBudgetMilliseconds.map { $0 * 1e6 } ?? 1e9 / Double(max(1, refresh))
        return LoopStats.budgets(frameNanoseconds: Int64(frame), settings: loop)
    }

    static func sceneSize(_ c: KioskConfiguration) -> (width: Int, height: Int) {
        (Int(c.scene.panel.widthPixels), Int(c.scene.panel.heightPixels))
    }

    static func pixelFormat(_ d: DisplaySettings) -> PixelFormat { d.pixelFormat == .rgb565 ? .rgb565 : .xrgb8888 }

    static func openOutput(_ d: DisplaySettings, sceneSize: (width: Int, height: Int),
                           clock: @escaping () -> Instant) throws(DisplayError) -> FrameOutput {
        let format = pixelFormat(d)
        let rotation = DisplayRotation(degrees: d.rotation) ?? .upright
        if d.card == "headless" {
            let size = rotation.panelSize(width: sceneSize.width, height: sceneSize.height)
            do {
                return try HeadlessOutput(width: size.width, height: size.height, format: format, now: clock)
            } catch {
                throw DisplayError("headless: \(error)")
            }
        }
        var request: ModeRequest?
        if let mode = d.mode {
            guard let r = ModeRequest(parsing: mode) else { throw DisplayError("display.mode: '\(mode)' is not WxH or WxH@R") }
            request = r
        }
        return try DRMDisplay(card: d.card, connector: d.connector, mode: request, format: format)
    }

    /// Now on the monotonic clock, the clock evdev timestamps and page-flip events use.
    public static func monotonicNow() -> Instant {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Instant(microseconds: Int64(t.tv_sec) * 1_000_000 + Int64(t.tv_nsec) / 1000)
    }
}
