import Glibc
import KioskCore

/// A panel's backlight through the Linux backlight class (`/sys/class/backlight/<name>/`):
/// `brightness` from 0 to `max_brightness`, and `bl_power` to switch it off and on.
///
/// The Pi's 7" panel appears as `rpi_backlight` (or `10-0045` with the KMS overlay), the Touch
/// Display 2 as `11-0045`; a panel without one (HDMI, virtio-gpu) has none, and the kiosk then
/// offers on and off only (the panel blanked through DPMS, as idle blanking does). Writes are one
/// small `write(2)` to sysfs, which the backlight driver carries out at once: cheap enough for
/// the loop.
public struct Backlight: Sendable, Equatable {
    /// The device's name, the folder's under the class folder.
    public let name: String
    public let directory: String
    /// The driver's `max_brightness`: the value of full brightness.
    public let maxBrightness: Int

    /// `bl_power`'s values (the fbdev blanking levels the backlight class takes).
    static let powerOn = 0  // FB_BLANK_UNBLANK
    static let powerOff = 4  // FB_BLANK_POWERDOWN

    /// The backlight named `name` in `classDirectory`, or, with no name, the first by name; nil
    /// when there is none (no name asked for) — asking for a name that is not there is an error.
    public static func find(named name: String?, in classDirectory: String = "/sys/class/backlight") throws(BacklightError) -> Backlight? {
        if let name {
            return try Backlight(directory: classDirectory + "/" + name, name: name)
        }
        guard let first = entries(of: classDirectory).sorted().first else { return nil }
        return try Backlight(directory: classDirectory + "/" + first, name: first)
    }

    /// Reads `max_brightness` from `directory`; refuses a folder that is not a backlight.
    public init(directory: String, name: String) throws(BacklightError) {
        self.name = name
        self.directory = directory
        let maximum = try Self.readNumber(directory + "/max_brightness")
        guard maximum > 0 else { throw BacklightError(path: directory + "/max_brightness", .noRange(maximum: maximum)) }
        maxBrightness = maximum
    }

    /// The brightness the driver holds now, 0...maxBrightness.
    public func brightness() throws(BacklightError) -> Int {
        try Self.readNumber(directory + "/brightness")
    }

    /// Sets the brightness, clamped to 0...maxBrightness.
    public func setBrightness(_ value: Int) throws(BacklightError) {
        try Self.write(String(min(max(value, 0), maxBrightness)), to: directory + "/brightness")
    }

    /// Whether the backlight is powered (`bl_power` 0); a driver without `bl_power` is on.
    public func isOn() throws(BacklightError) -> Bool {
        let path = directory + "/bl_power"
        guard access(path, F_OK) == 0 else { return true }
        return try Self.readNumber(path) == Self.powerOn
    }

    /// Switches the backlight's power through `bl_power`; a driver without it is left as it is.
    public func setOn(_ on: Bool) throws(BacklightError) {
        let path = directory + "/bl_power"
        guard access(path, F_OK) == 0 else { return }
        try Self.write(String(on ? Self.powerOn : Self.powerOff), to: path)
    }

    /// A 0...1 level as the driver's steps, rounded; the inverse of `level(of:)`.
    public func steps(forLevel level: Double) -> Int {
        guard level.isFinite else { return maxBrightness }
        return Int((min(max(level, 0), 1) * Double(maxBrightness)).rounded())
    }

    /// The driver's steps as a 0...1 level.
    public func level(of steps: Int) -> Double {
        Double(min(max(steps, 0), maxBrightness)) / Double(maxBrightness)
    }

    /// The names in `directory` (the backlights there, for a message naming them).
    public static func entries(of directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if !name.hasPrefix(".") { names.append(name) }
        }
        return names
    }

    static func readNumber(_ path: String) throws(BacklightError) -> Int {
        let text: String
        do {
            text = try TextFile.readText(path, what: "the backlight", limit: 64)
        } catch {
            throw BacklightError(path: path, .unreadable(error))
        }
        guard let value = Int(text.trimmingWhitespace()) else {
            throw BacklightError(path: path, .notANumber(found: String(text.trimmingWhitespace().prefix(20))))
        }
        return value
    }

    /// One `write(2)` of the whole value, as sysfs wants it (no temporary file: sysfs attributes
    /// cannot be renamed over).
    static func write(_ text: String, to path: String) throws(BacklightError) {
        let file: FileDescriptor
        do throws(SystemCallError) {
            file = try FileDescriptor.open(path, O_WRONLY | O_CLOEXEC)
        } catch {
            throw BacklightError(path: path, .cannotOpenForWriting(error.errno))
        }
        let bytes = Array((text + "\n").utf8)
        switch systemCall({ bytes.withUnsafeBytes { Glibc.write(file.rawValue, $0.baseAddress, $0.count) } }) {
        case .success(let written) where written == bytes.count: return
        case .success(let written): throw BacklightError(path: path, .shortWrite(value: text, written: written, of: bytes.count))
        case .failure(let errno): throw BacklightError(path: path, .cannotWrite(value: text, errno))
        }
    }
}

/// A backlight file that could not be read or written: the file and the reason.
public struct BacklightError: Error, Equatable, CustomStringConvertible {
    public enum Problem: Equatable, Sendable {
        case unreadable(FileError)
        case notANumber(found: String)
        /// `max_brightness` is below 1: no range to set.
        case noRange(maximum: Int)
        case cannotOpenForWriting(Errno)
        case cannotWrite(value: String, Errno)
        case shortWrite(value: String, written: Int, of: Int)
    }

    public var path: String
    public var problem: Problem

    public init(path: String, _ problem: Problem) {
        self.path = path
        self.problem = problem
    }

    /// The reason in words, made here at the edge.
    public var reason: String {
        switch problem {
        case .unreadable(let error): error.reason
        case .notANumber(let found): "expected a whole number, found '\(found)'"
        case .noRange(let maximum): "max_brightness is \(maximum); expected 1 or more"
        case .cannotOpenForWriting(let errno): "cannot open for writing: \(errno.reason)"
        case .cannotWrite(let value, let errno): "cannot write '\(value)': \(errno.reason)"
        case .shortWrite(let value, let written, let of): "cannot write '\(value)': short write (\(written) of \(of) bytes)"
        }
    }

    public var description: String { "\(path): \(reason)" }
}

extension String {
    fileprivate func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        let isSpace: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }
        guard let first = scalars.firstIndex(where: { !isSpace($0) }), let last = scalars.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(scalars[first...last])
    }
}
