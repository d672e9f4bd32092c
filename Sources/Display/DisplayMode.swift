/// A video mode a connector offers: its size in pixels and refresh rate.
public struct DisplayMode: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    /// Refresh in Hz, as the kernel rounds it (`vrefresh`).
    public var refresh: Int
    /// The panel's native mode (`DRM_MODE_TYPE_PREFERRED`).
    public var isPreferred: Bool

    public init(width: Int, height: Int, refresh: Int, isPreferred: Bool = false) {
        self.width = width
        self.height = height
        self.refresh = refresh
        self.isPreferred = isPreferred
    }

    public var description: String { "\(width)x\(height)@\(refresh)" }
}

/// A mode asked for on the command line: `WxH` or `WxH@R`.
public struct ModeRequest: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    /// Nil takes the first mode of that size the connector lists.
    public var refresh: Int?

    public init(width: Int, height: Int, refresh: Int? = nil) {
        self.width = width
        self.height = height
        self.refresh = refresh
    }

    /// Reads `800x480` or `800x480@60`; nil when the text is neither.
    public init?(parsing text: String) {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { return nil }
        let size = parts[0].split(separator: "x", omittingEmptySubsequences: false)
        guard size.count == 2, let w = Int(size[0]), let h = Int(size[1]), w > 0, h > 0 else { return nil }
        var refresh: Int?
        if parts.count == 2 {
            guard let r = Int(parts[1]), r > 0 else { return nil }
            refresh = r
        }
        self.init(width: w, height: h, refresh: refresh)
    }

    public var description: String { refresh.map { "\(width)x\(height)@\($0)" } ?? "\(width)x\(height)" }

    /// The index in `modes` of the mode to set: the requested one, or without a request the
    /// preferred one (else the first, which the kernel sorts best first); nil when none fits.
    public static func choose(_ request: ModeRequest?, from modes: [DisplayMode]) -> Int? {
        guard let request else {
            return modes.firstIndex(where: \.isPreferred) ?? (modes.isEmpty ? nil : 0)
        }
        return modes.firstIndex { m in
            m.width == request.width && m.height == request.height && (request.refresh.map { $0 == m.refresh } ?? true)
        }
    }
}
