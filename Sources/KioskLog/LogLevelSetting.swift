import Synchronization

/// The level every kiosk logger follows, changed at runtime when the config is reloaded (SIGHUP).
///
/// An atomic, not a lock: every log call on the real-time loop reads it.
public final class LogLevelSetting: Sendable {
    private static let levels = Logger.Level.allCases
    private let index: Atomic<UInt8>

    public init(_ level: Logger.Level) {
        index = Atomic(Self.encode(level))
    }

    public var level: Logger.Level {
        get { Self.levels[Int(index.load(ordering: .relaxed))] }
        set { index.store(Self.encode(newValue), ordering: .relaxed) }
    }

    private static func encode(_ level: Logger.Level) -> UInt8 {
        UInt8(levels.firstIndex(of: level)!)
    }
}
