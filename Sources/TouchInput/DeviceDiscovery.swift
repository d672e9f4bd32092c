import InputEvents
#if canImport(Glibc)
import Glibc
#endif

/// The input devices in a directory, each judged as a touchscreen or skipped with the reason.
public struct DeviceDiscovery {
    public struct Entry {
        public var path: String
        /// Nil when the device could not be opened.
        public var description: DeviceDescription?
        public var verdict: Result<TouchscreenKind, NotATouchscreen>
    }

    public private(set) var entries: [Entry] = []
    public let directory: String

    /// Scans `directory` for `event*` nodes, in number order.
    public init(directory: String = "/dev/input") {
        self.directory = directory
        for path in Self.eventNodes(in: directory) {
            do {
                let device = try EvdevDevice(path: path)
                entries.append(Entry(path: path, description: device.description,
                                     verdict: TouchscreenKind.classify(device.description)))
            } catch {
                entries.append(Entry(path: path, description: nil, verdict: .failure(NotATouchscreen("\(error)"))))
            }
        }
    }

    /// The device kiosk would use: the one named (by path or by device name), or else the first touchscreen.
    public func choose(_ wanted: String? = nil) throws(InputDeviceError) -> Entry {
        if let wanted {
            guard let e = entries.first(where: { $0.path == wanted || $0.description?.name == wanted }) else {
                if wanted.hasPrefix("/") { throw .system(call: "open", path: wanted, errno: ENOENT) }
                throw .noTouchscreen(directory: directory, skipped: ["no device is named \"\(wanted)\""] + skipped)
            }
            if case .failure(let why) = e.verdict {
                throw .notATouchscreen(path: e.path, name: e.description?.name ?? "?", reason: why.reason)
            }
            return e
        }
        guard let e = entries.first(where: { if case .success = $0.verdict { true } else { false } }) else {
            throw .noTouchscreen(directory: directory, skipped: skipped)
        }
        return e
    }

    private var skipped: [String] {
        entries.compactMap { e in
            guard case .failure(let why) = e.verdict else { return nil }
            return "\(e.path) \(e.description.map { "(\"\($0.name)\")" } ?? ""): \(why.reason)"
        }
    }

    static func eventNodes(in directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var numbers: [Int] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasPrefix("event"), let n = Int(name.dropFirst(5)) { numbers.append(n) }
        }
        return numbers.sorted().map { "\(directory)/event\($0)" }
    }
}
