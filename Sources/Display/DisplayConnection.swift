/// A connector as read again after a hotplug event: is a display attached, and in which modes.
public struct DisplayConnection: Equatable, Sendable {
    /// `Virtual-1`, `HDMI-A-1`.
    public var connector: String
    public var isConnected: Bool
    /// What the display offers now, preferred first; empty while nothing is connected.
    public var modes: [DisplayMode]

    public init(connector: String, isConnected: Bool, modes: [DisplayMode]) {
        self.connector = connector
        self.isConnected = isConnected
        self.modes = modes
    }

    /// Whether the display still offers `mode`'s size (the buffers kiosk draws into).
    public func offers(width: Int, height: Int) -> Bool {
        modes.contains { $0.width == width && $0.height == height }
    }

    /// `800x480@60 1024x768@60`: the log line's words, the first few modes.
    public var modeList: String {
        modes.isEmpty ? "none" : modes.prefix(6).map { "\($0)" }.joined(separator: " ") + (modes.count > 6 ? " ..." : "")
    }
}
