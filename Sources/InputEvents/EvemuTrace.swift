/// A recorded input trace in evemu's format: the device's description, then its events.
///
/// `parse(_:file:)` reads what Debian's evemu-record writes; `text` writes what evemu-device and
/// evemu-play read, and parsing it gives this trace back.
public struct EvemuTrace: Hashable, Sendable {
    /// The format version the file declared (`# EVEMU 1.3`); 1.0 when it declared none, as evemu reads it.
    public var formatVersion: EvemuFormatVersion
    public var device: DeviceDescription
    /// The LEDs that were on when the trace was recorded (`L:` lines), by `LED_*` code.
    public var ledStates: [EventCode: Int32]
    /// The switches that were set when the trace was recorded (`S:` lines), by `SW_*` code.
    public var switchStates: [EventCode: Int32]
    /// The events with the trace's own timestamps, which evemu-record makes relative to its start.
    public var events: [InputEvent]

    public init(
        device: DeviceDescription, events: [InputEvent] = [], formatVersion: EvemuFormatVersion = .current,
        ledStates: [EventCode: Int32] = [:], switchStates: [EventCode: Int32] = [:]
    ) {
        self.formatVersion = formatVersion
        self.device = device
        self.ledStates = ledStates
        self.switchStates = switchStates
        self.events = events
    }
}

/// The evemu file format version from a `# EVEMU major.minor` first line.
public struct EvemuFormatVersion: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var major: Int
    public var minor: Int

    public init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    /// The version evemu 2.7 writes, and the one `EvemuTrace.text` declares.
    public static let current = EvemuFormatVersion(major: 1, minor: 3)
    /// What evemu assumes of a file that declares no version.
    public static let unversioned = EvemuFormatVersion(major: 1, minor: 0)

    /// From 1.2 on, evemu reads a resolution as the sixth number of an `A:` line.
    public var hasAxisResolution: Bool { self > EvemuFormatVersion(major: 1, minor: 1) }

    public static func < (a: EvemuFormatVersion, b: EvemuFormatVersion) -> Bool {
        (a.major, a.minor) < (b.major, b.minor)
    }

    public var description: String { "\(major).\(minor)" }
}

/// Why an evemu trace could not be read: the file, the line, and what was expected there.
public struct EvemuParseError: Error, Hashable, Sendable, CustomStringConvertible {
    public var file: String
    /// 1-based; one past the last line when the file ended too early.
    public var line: Int
    /// What went wrong, such as `expected 'E: seconds type code value', found 'E: 0.1 0003'`.
    public var message: String

    public init(file: String, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String { "\(file):\(line): \(message)" }
}
