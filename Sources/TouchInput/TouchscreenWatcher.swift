import CLinuxSystem
import InputEvents
import KioskCore
#if canImport(Glibc)
import Glibc
#endif

/// Keeps a touchscreen open across hotplug: watches the device directory with inotify (no
/// polling), opens the touchscreen when it appears, and releases it when it goes. A device that
/// goes away mid-gesture ends its touches as cancelled, so nothing stays pressed.
///
/// When the directory does not exist yet (early boot), its nearest existing parent is watched
/// until it appears. A device wanted by a symlink (`/dev/input/by-id/...`) is followed to its node,
/// and the symlink's folder is watched too, since udev makes the link after the node.
///
/// A node that has just appeared belongs to root until udev gives it its group (`input`) a moment
/// later, which raises IN_ATTRIB: until then it refuses to open. Such a node is given
/// `permissionGrace` seconds (`settling`, a debug line) and is an error (`problem`) only if it still
/// refuses at the end; `nextDeadline` is that moment, for the loop's poll timeout. Nodes that were
/// there at start have long had their permissions: refusal is an error at once.
public final class TouchscreenWatcher {
    public enum Event: Equatable {
        case frame(TouchFrame)
        case attached(path: String, name: String, kind: TouchscreenKind)
        case detached(path: String, name: String)
        /// No touchscreen to take yet, and nothing wrong: none is plugged in, or the directory or
        /// the device asked for is not there yet. Said once, before the first touchscreen is
        /// taken; an unplug says so itself (`detached`).
        case waiting(String)
        /// A device passed over while waiting, plainly not a touchscreen (a keyboard): said once
        /// per device and reason, before the first touchscreen is taken.
        case skipped(path: String, name: String, reason: String)
        /// Why a device that is there cannot be used: the wanted device cannot be opened
        /// (permission) or is not a touchscreen (what it lacks), devices cannot be opened (one of
        /// them may be the panel), or the chosen one fails to open or calibrate. Each cause is
        /// said once until a touchscreen is taken.
        case problem(String)
        /// A node that has only just appeared refuses to open (permission): udev may not have given
        /// it its group yet. Said once per node; a `problem` if it still refuses after the grace period.
        case settling(path: String, reason: String)
    }

    public let directory: String
    public let wanted: String?
    public let grabs: Bool
    public let screen: Size
    public let calibration: TouchCalibration
    /// Calibration that depends on the device found (a tslib pointercal needs its axis ranges);
    /// when set it replaces `calibration`, and its error is reported as a problem.
    public var calibrate: ((DeviceDescription) throws -> TouchCalibration)?
    public let filters: TouchFilters
    /// How long a new node may refuse to open (permission) before that is an error: udev's time to
    /// give it its group.
    public let permissionGrace: Double
    /// When a node still settling (see `settling`) is to be looked at again; nil when none is.
    /// The loop wakes then and calls `service`.
    public var nextDeadline: Instant? {
        guard let held = decoder?.nextDeadline else { return settlingDeadline }
        return settlingDeadline.map { min($0, held) } ?? held
    }
    /// When a node still settling is to be looked at again.
    private var settlingDeadline: Instant?
    public private(set) var device: EvdevDevice?
    /// The clock the grace period is measured on: the loop's.
    private let clock: any InstantClock
    /// Opens a device node: `open(2)`, or in tests a stand-in for udev's permissions.
    var openNode: EvdevDevice.NodeOpener = EvdevDevice.openNode
    /// Nodes made in the directory since the watcher started, and when they were seen (bounded).
    private var appeared: [String: Instant] = [:]
    /// Nodes said to be settling since the last touchscreen was taken.
    private var saidSettling: Set<String> = []
    private var decoder: TouchscreenDecoder?
    private let inotifyFile: FileDescriptor
    private var inotify: Int32 { inotifyFile.rawValue }
    /// Where inotify's records are read, made once: a 4 KiB temporary buffer is past the
    /// standard library's stack fast path, which may then ask glibc for the stack's bounds
    /// (and glibc reads /proc/self/maps for that) on every wake-up.
    private let inotifyBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: MemoryLayout<inotify_event>.alignment)
    /// The watch on `directory`; -1 while it does not exist.
    private var directoryWatch: Int32 = -1
    /// While `directory` does not exist: the watch on its nearest parent that does.
    private var ancestorWatch: Int32 = -1
    /// Counts of the devices already released, and of attaching and removing.
    private var earlier = InputCounters()
    /// Touch ids go on across devices: a touch id is never used twice in a run.
    private var nextTouchID = 1
    /// Problems said since the last touchscreen was taken: each is said once, not at every rescan.
    private var saidProblems: Set<String> = []
    /// Whether kiosk said it waits, and which devices it passed over (path and reason).
    private var saidWaiting = false
    private var saidSkipped: Set<String> = []

    /// What the directory watch listens for: nodes coming and going, and udev changing their permissions.
    private static let deviceChanges = UInt32(IN_CREATE | IN_DELETE | IN_ATTRIB | IN_MOVED_TO | IN_MOVED_FROM)

    public init(directory: String = "/dev/input", wanted: String? = nil, grab: Bool = true, screen: Size,
                calibration: TouchCalibration = .identity, filters: TouchFilters = .none, permissionGrace: Double = 2,
                clock: any InstantClock = MonotonicClock()) throws(InputDeviceError) {
        self.filters = filters
        self.permissionGrace = permissionGrace
        self.clock = clock
        self.directory = directory
        self.wanted = wanted
        grabs = grab
        self.screen = screen
        self.calibration = calibration
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw .system(call: "inotify_init1", path: directory, errno: errno) }
        inotifyFile = FileDescriptor(owning: fd)
        try watchDirectory()
    }

    deinit {
        inotifyBuffer.deallocate()
    }

    /// The descriptors to poll: the directory watch, and the device when one is open.
    public var fileDescriptors: [Int32] { [inotify] + (device.map { [$0.fileDescriptor] } ?? []) }

    /// The same descriptors without building an array: for a loop that polls every frame.
    public func forEachDescriptor(_ body: (Int32) -> Void) {
        body(inotify)
        if let device { body(device.fileDescriptor) }
    }

    /// Everything counted since the watcher started, across every device.
    public var counters: InputCounters {
        var c = earlier
        if let decoder { c = c + InputCounters(decoding: decoder.counters, filtering: decoder.filterCounters) }
        if let device { c.resyncs += device.resyncCount }
        return c
    }

    /// Fingers on the glass now.
    public var activeTouchCount: Int { decoder?.activeTouchCount ?? 0 }

    /// Whether the device directory exists and is watched; false while waiting for it to appear.
    public var isWatchingDirectory: Bool { directoryWatch >= 0 }

    /// Looks for a touchscreen now; call once at start, then `service` whenever a descriptor is ready.
    public func attach(_ body: (Event) -> Void) {
        guard device == nil else { return }
        guard directoryWatch >= 0 else { return waiting("\(directory) does not exist yet", body) }
        watchLinkFolder()
        let discovery = DeviceDiscovery(directory: directory, open: openNode)
        let entry: DeviceDiscovery.Entry
        let settling = settlingNodes()
        // Every young node that refuses is looked at again when its time is up, whatever else is said.
        settlingDeadline = discovery.entries.filter { $0.isRefused && settling.contains($0.path) }
            .compactMap { appeared[$0.path]?.adding(seconds: permissionGrace) }.min()
        switch discovery.outcome(wanted, settling: settling) {
        case .take(let chosen):
            entry = chosen
            settlingDeadline = nil
        case .settle(let refusals):
            for refusal in refusals {
                guard let path = refusal.failedPath, let seen = appeared[path] else { continue }
                let due = seen.adding(seconds: permissionGrace)
                if settlingDeadline.map({ due < $0 }) ?? true { settlingDeadline = due }
                if saidSettling.insert(path).inserted { body(.settling(path: path, reason: refusal.cause)) }
            }
            return
        case .wait(let reason):
            waiting(reason, body)
            guard earlier.devicesAttached == 0 else { return }
            for s in discovery.notTouchscreens where saidSkipped.count < 64 && saidSkipped.insert(s.path + "\n" + s.reason).inserted {
                body(.skipped(path: s.path, name: s.name, reason: s.reason))
            }
            return
        case .problem(let text):
            return problem(text, body)
        }
        do {
            let d = try EvdevDevice(path: entry.path, open: openNode)
            if grabs { try d.grab() }
            let matrix = try calibrate?(d.description) ?? calibration
            // A protocol A panel's events go through libmtdev first: see TouchscreenDecoder.
            decoder = try TouchscreenDecoder(device: d.description, screen: screen, calibration: matrix, filters: filters,
                                             firstTouchID: nextTouchID)
            device = d
            earlier.devicesAttached += 1
            saidProblems.removeAll()
            saidSettling.removeAll()
            if case .success(let kind) = entry.verdict { body(.attached(path: d.path, name: d.description.name, kind: kind)) }
        } catch {
            problem("\(error)", body)
        }
    }

    /// Reads what is ready: directory changes (a device came or went) and the device's events.
    public func service(_ body: (Event) -> Void) {
        var changed = false
        var watchesLost = false
        do {
            let buffer = inotifyBuffer
            while true {
                let n = read(inotify, buffer.baseAddress, buffer.count)
                guard n > 0 else { break }
                changed = true
                var offset = 0
                while offset + MemoryLayout<inotify_event>.size <= n {
                    let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                    if event.wd == directoryWatch, event.len > 0 {
                        noteNode(event, name: buffer.baseAddress! + offset + MemoryLayout<inotify_event>.size)
                    }
                    if event.mask & UInt32(IN_IGNORED) != 0, event.wd == directoryWatch || event.wd == ancestorWatch {
                        watchesLost = true
                        if event.wd == directoryWatch { directoryWatch = -1 } else { ancestorWatch = -1 }
                    }
                    offset += MemoryLayout<inotify_event>.size + Int(event.len)
                }
            }
        }
        if let d = device {
            do {
                try d.read { event in
                    self.decoder?.feed(event) { body(.frame($0)) }
                }
            } catch {
                detach(body)
            }
        }
        // Touches held back by the minimum duration begin when it is reached, events or not.
        if let held = decoder?.nextDeadline, clock.now >= held { decoder?.advance(to: clock.now) { body(.frame($0)) } }
        // A node that was settling is looked at again when its grace period ends.
        let due = settlingDeadline.map { clock.now >= $0 } ?? false
        guard changed || due else { return }
        // Cleared, or the loop would wake at once again; `attach` sets the next one.
        if due { settlingDeadline = nil }
        if changed, directoryWatch < 0 || watchesLost {
            do { try watchDirectory() } catch { problem("\(error)", body) }
        }
        if let d = device, access(d.path, F_OK) != 0 { detach(body) }
        if device == nil { attach(body) }
    }

    /// Notes when a node appeared in the directory, or forgets it when it goes.
    private func noteNode(_ event: inotify_event, name: UnsafeMutableRawPointer) {
        guard event.mask & UInt32(IN_CREATE | IN_MOVED_TO | IN_DELETE | IN_MOVED_FROM) != 0 else { return }
        let bytes = UnsafeRawBufferPointer(start: name, count: Int(event.len))
        let path = directory + "/" + String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        if event.mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 {
            // Bounded: a directory that keeps changing cannot grow it without end.
            if appeared.count >= 64 { appeared = appeared.filter { clock.now.seconds(since: $0.value) < permissionGrace } }
            if appeared.count < 64 { appeared[path] = clock.now }
        } else if event.mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0 {
            appeared[path] = nil
            saidSettling.remove(path)
        }
    }

    /// The nodes still within their grace period; the others are forgotten.
    private func settlingNodes() -> Set<String> {
        let now = clock.now
        appeared = appeared.filter { now.seconds(since: $0.value) < permissionGrace }
        return Set(appeared.keys)
    }

    private func detach(_ body: (Event) -> Void) {
        guard let d = device else { return }
        var cancelled = 0
        if let decoder, let f = decoder.cancelAll(at: clock.now) {
            cancelled = f.touches.count
            body(.frame(f))
        }
        if let decoder { earlier = earlier + InputCounters(decoding: decoder.counters, filtering: decoder.filterCounters) }
        earlier.resyncs += d.resyncCount
        earlier.unplugCancelledTouches += cancelled
        earlier.devicesRemoved += 1
        nextTouchID = decoder?.nextTouchID ?? nextTouchID
        device = nil
        decoder = nil
        body(.detached(path: d.path, name: d.description.name))
    }

    /// Says that kiosk waits, once, before the first touchscreen: after an unplug the
    /// `detached` event has said it.
    private func waiting(_ reason: String, _ body: (Event) -> Void) {
        guard !saidWaiting, earlier.devicesAttached == 0 else { return }
        saidWaiting = true
        body(.waiting(reason))
    }

    /// Says `text` unless it was said since the last touchscreen was taken.
    private func problem(_ text: String, _ body: (Event) -> Void) {
        guard saidProblems.insert(text).inserted else { return }
        // Bounded: a directory that keeps changing cannot grow it without end.
        if saidProblems.count > 64 { saidProblems = [text] }
        body(.problem(text))
    }

    // MARK: Watches

    /// Watches `directory`, or while it does not exist, the nearest folder above it that does.
    private func watchDirectory() throws(InputDeviceError) {
        // Each round goes at least one folder further down; the bound is only for safety.
        for _ in 0..<64 {
            let wd = inotify_add_watch(inotify, directory, Self.deviceChanges)
            if wd >= 0 {
                directoryWatch = wd
                if ancestorWatch >= 0 { _ = inotify_rm_watch(inotify, ancestorWatch) }
                ancestorWatch = -1
                return
            }
            let error = errno
            guard error == ENOENT else { throw .system(call: "inotify_add_watch", path: directory, errno: error) }
            var ancestor = Self.parent(of: directory)
            while ancestor != "/", ancestor != ".", access(ancestor, F_OK) != 0 { ancestor = Self.parent(of: ancestor) }
            let awd = inotify_add_watch(inotify, ancestor, UInt32(IN_CREATE | IN_MOVED_TO | IN_ONLYDIR))
            guard awd >= 0 else { throw .system(call: "inotify_add_watch", path: ancestor, errno: errno) }
            if ancestorWatch >= 0, ancestorWatch != awd { _ = inotify_rm_watch(inotify, ancestorWatch) }
            ancestorWatch = awd
            // Made between looking and watching, its creation went unseen: look again.
            guard access(Self.child(of: ancestor, towards: directory), F_OK) == 0 else { return }
        }
    }

    /// Watches the folder of a device wanted by a symlink (`/dev/input/by-id`), which udev fills
    /// after the node appears; it may not exist yet, and is tried again at every rescan.
    private func watchLinkFolder() {
        guard let wanted, wanted.hasPrefix("/") else { return }
        let folder = Self.parent(of: wanted)
        guard folder != directory else { return }
        _ = inotify_add_watch(inotify, folder, UInt32(IN_CREATE | IN_DELETE | IN_MOVED_TO | IN_MASK_ADD))
    }

    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The folder right below `ancestor` on the way to `path`.
    static func child(of ancestor: String, towards path: String) -> String {
        var child = path
        while Self.parent(of: child) != ancestor, child != "/", child != "." { child = Self.parent(of: child) }
        return child
    }
}
