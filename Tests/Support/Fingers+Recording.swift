import KioskCore

extension Fingers {
    /// The reports `gesture` makes, as `TouchFrame`s kept instead of delivered: a benchmark's frames,
    /// made before it measures, so that making them costs nothing in the measured frames. Fingers
    /// are numbered from 0, and the clock starts at `start`.
    public static func frames(startingAt start: Instant = Instant(seconds: 10), _ gesture: (Fingers) -> Void) -> [TouchFrame] {
        final class Kept { var frames: [TouchFrame] = [] }
        let kept = Kept()
        gesture(Fingers(clock: VirtualClock(start)) { kept.frames.append($0) })
        return kept.frames
    }
}
