import KioskCore

/// A touch frame as one line of text: what `kiosk touches` prints and its tests read back.
public enum TouchFrameText {
    /// `0.016667 1 began 130.0 424.0; 2 moved 200.5 300.0`.
    public static func line(_ frame: TouchFrame, seconds: Double) -> String {
        fixedDecimal(seconds, 6) + " " + touches(frame)
    }

    /// The touches alone, without the time.
    public static func touches(_ frame: TouchFrame) -> String {
        frame.touches.map { "\($0.id.rawValue) \($0.phase) \(fixedDecimal($0.location.x, 1)) \(fixedDecimal($0.location.y, 1))" }
            .joined(separator: "; ")
    }
}
