import InputEvents
import KioskCore
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
        /// Why the device could not be opened (permission, not an evdev node); nil when it was.
        public var openError: InputDeviceError?

        public init(path: String, description: DeviceDescription?, verdict: Result<TouchscreenKind, NotATouchscreen>,
                    openError: InputDeviceError? = nil) {
            self.path = path
            self.description = description
            self.verdict = verdict
            self.openError = openError
        }

        /// Opens `path` to judge it.
        init(opening path: String, open opener: EvdevDevice.NodeOpener = EvdevDevice.openNode) {
            do {
                let device = try EvdevDevice(path: path, open: opener)
                self.init(path: path, description: device.description, verdict: TouchscreenKind.classify(device.description))
            } catch {
                self.init(path: path, description: nil, verdict: .failure(NotATouchscreen("cannot be opened: \(error.cause)")),
                          openError: error)
            }
        }

        var isTouchscreen: Bool { if case .success = verdict { true } else { false } }

        /// Whether it could not be opened for want of permission (EACCES, EPERM).
        var isRefused: Bool { openError?.isOpenRefused ?? false }
    }

    public private(set) var entries: [Entry] = []
    public let directory: String
    private let opener: EvdevDevice.NodeOpener

    /// Scans `directory` for `event*` nodes, in number order.
    public init(directory: String = "/dev/input", open opener: @escaping EvdevDevice.NodeOpener = EvdevDevice.openNode) {
        self.directory = directory
        self.opener = opener
        entries = Self.eventNodes(in: directory).map { Entry(opening: $0, open: opener) }
    }

    /// Devices already judged, for tests of the choice.
    init(directory: String, entries: [Entry]) {
        self.directory = directory
        self.entries = entries
        opener = EvdevDevice.openNode
    }

    /// The device kiosk would use: the one named, or else the first touchscreen.
    ///
    /// `wanted` is a path (a symlink such as `/dev/input/by-id/...` is followed to its node) or a
    /// device name. A named device that cannot be opened throws why (permission denied says which
    /// group the user needs); one that is not a touchscreen says what it lacks.
    public func choose(_ wanted: String? = nil) throws(InputDeviceError) -> Entry {
        guard let wanted else {
            guard let e = entries.first(where: \.isTouchscreen) else {
                throw .noTouchscreen(directory: directory, skipped: skipped)
            }
            return e
        }
        let e: Entry
        if wanted.hasPrefix("/") {
            guard let node = Self.resolve(wanted) else { throw .system(call: "open", path: wanted, errno: ENOENT) }
            // A node outside the directory is judged on its own.
            e = entries.first { $0.path == wanted || $0.path == node || Self.resolve($0.path) == node } ?? Entry(opening: node, open: opener)
        } else {
            let named = entries.filter { $0.description?.name == wanted }
            guard let first = named.first(where: \.isTouchscreen) ?? named.first else {
                throw .noTouchscreen(directory: directory, skipped: ["no device is named \"\(wanted)\""] + skipped)
            }
            e = first
        }
        if let openError = e.openError { throw openError }
        if case .failure(let why) = e.verdict {
            throw .notATouchscreen(path: e.path, name: e.description?.name ?? "?", reason: why.reason)
        }
        return e
    }

    /// What the watcher does with these devices: take one, wait for one, or say why it cannot.
    public enum Outcome {
        /// The touchscreen to open.
        case take(Entry)
        /// Nothing to take yet, and nothing wrong: no touchscreen is plugged in, or the device
        /// asked for is not there (yet). Kiosk waits for one to appear.
        case wait(String)
        /// A device that is there cannot be used: the one asked for is not a touchscreen or cannot
        /// be opened, or (none asked for) devices cannot be opened, any of which may be the panel.
        case problem(String)
        /// Nodes in `settling` that refuse to open (permission) and that nothing else rules out:
        /// udev may not have given them their group yet. Each error names its node.
        case settle([InputDeviceError])
    }

    /// Waiting for a panel is not an error; a device that exists and cannot be used is.
    ///
    /// `settling` holds nodes that have only just appeared: one of them that cannot be opened for
    /// want of permission is not (yet) a problem, since udev sets a new node's group and mode a
    /// moment after the kernel makes it.
    public func outcome(_ wanted: String? = nil, settling: Set<String> = []) -> Outcome {
        do {
            return .take(try choose(wanted))
        } catch {
            switch error {
            case .noTouchscreen:
                // Devices kiosk cannot open may be the touchscreen: always worth an error, unless
                // udev is still setting their permissions.
                let young = entries.filter { $0.isRefused && settling.contains($0.path) }
                let unopened = entries.filter { e in !young.contains { $0.path == e.path } }.compactMap(\.openError)
                if unopened.isEmpty, !young.isEmpty { return .settle(young.compactMap(\.openError)) }
                guard unopened.isEmpty else {
                    return .problem("no touchscreen kiosk can open in \(directory); it cannot open:\n  "
                                    + unopened.map { "\($0)" }.joined(separator: "\n  "))
                }
                guard let wanted else { return .wait("no touchscreen in \(directory) yet") }
                return .wait("no device named \"\(wanted)\" in \(directory) yet")
            case .system(let failure) where failure.errno == .noSuchFile:
                return .wait("\(failure.subject ?? "") is not there yet")
            case .system(let failure) where error.isOpenRefused && settling.contains(failure.subject ?? ""):
                return .settle([error])
            default:
                return .problem("\(error)")
            }
        }
    }

    /// A device looked at and passed over: not a touchscreen, and why.
    public struct Skipped: Equatable, Sendable {
        public var path: String
        public var name: String
        public var reason: String
    }

    /// The devices that are plainly not touchscreens (those that could be opened), in number order.
    public var notTouchscreens: [Skipped] {
        entries.compactMap { e in
            guard e.openError == nil, let d = e.description, case .failure(let why) = e.verdict else { return nil }
            return Skipped(path: e.path, name: d.name, reason: why.reason)
        }
    }

    private var skipped: [String] {
        entries.compactMap { e in
            guard case .failure(let why) = e.verdict else { return nil }
            return "\(e.path)\(e.description.map { " (\"\($0.name)\")" } ?? ""): \(why.reason)"
        }
    }

    /// The path with every symlink followed, or nil when it does not lead to anything.
    static func resolve(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
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
