import Gestures

/// A touch frame as one line of text: what `kiosk touches` prints and its tests read back.
public enum TouchFrameText {
    /// `0.016667 1 began 130.0 424.0; 2 moved 200.5 300.0`.
    public static func line(_ frame: TouchFrame, seconds: Double) -> String {
        fixed(seconds, 6) + " " + touches(frame)
    }

    /// The touches alone, without the time.
    public static func touches(_ frame: TouchFrame) -> String {
        frame.touches.map { "\($0.id.rawValue) \($0.phase) \(fixed($0.location.x, 1)) \(fixed($0.location.y, 1))" }
            .joined(separator: "; ")
    }

    static func fixed(_ v: Double, _ digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let r = (abs(v) * scale).rounded()
        let whole = Int(r / scale), frac = Int(r - Double(whole) * scale)
        var f = String(frac)
        while f.count < digits { f = "0" + f }
        return (v < 0 && r != 0 ? "-" : "") + "\(whole).\(f)"
    }
}
