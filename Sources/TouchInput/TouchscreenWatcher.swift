import CLinuxSystem
import Geometry
import Gestures
import InputEvents
#if canImport(Glibc)
import Glibc
#endif

/// Keeps a touchscreen open across hotplug: watches the device directory with inotify (no
/// polling), opens the touchscreen when it appears, and releases it when it goes. A device that
/// goes away mid-gesture ends its touches as cancelled, so nothing stays pressed.
public final class TouchscreenWatcher {
    public enum Event: Equatable {
        case frame(TouchFrame)
        case attached(path: String, name: String, kind: TouchscreenKind)
        case detached(path: String, name: String)
        /// A device appeared that could not be used yet (udev may still be setting its permissions).
        case problem(String)
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
    public private(set) var device: EvdevDevice?
    private var decoder: TouchscreenDecoder?
    private let inotify: Int32
    /// Resyncs of devices already released, so the total survives hotplug.
    private var earlierResyncs = 0
    /// Touch ids go on across devices: a touch id is never used twice in a run.
    private var nextTouchID = 1

    public init(directory: String = "/dev/input", wanted: String? = nil, grab: Bool = true, screen: Size,
                calibration: TouchCalibration = .identity, filters: TouchFilters = .none) throws(InputDeviceError) {
        self.filters = filters
        self.directory = directory
        self.wanted = wanted
        grabs = grab
        self.screen = screen
        self.calibration = calibration
        inotify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard inotify >= 0 else { throw .system(call: "inotify_init1", path: directory, errno: errno) }
        guard inotify_add_watch(inotify, directory, UInt32(IN_CREATE | IN_DELETE | IN_ATTRIB)) >= 0 else {
            let e = errno
            close(inotify)
            throw .system(call: "inotify_add_watch", path: directory, errno: e)
        }
    }

    deinit { close(inotify) }

    /// The descriptors to poll: the directory watch, and the device when one is open.
    public var fileDescriptors: [Int32] { [inotify] + (device.map { [$0.fileDescriptor] } ?? []) }

    /// The same descriptors without building an array: for a loop that polls every frame.
    public func forEachDescriptor(_ body: (Int32) -> Void) {
        body(inotify)
        if let device { body(device.fileDescriptor) }
    }

    /// Times the kernel dropped events and the device was resynchronised.
    public var resyncCount: Int { earlierResyncs + (device?.resyncCount ?? 0) }

    /// Fingers on the glass now.
    public var activeTouchCount: Int { decoder?.decoder.activeTouchCount ?? 0 }

    /// Events the decoder dropped or could not use (bad data, slot overflow) on the current device.
    public var droppedEvents: Int {
        guard let c = decoder?.decoder.counters else { return 0 }
        return c.droppedEvents + c.ignoredSlots
    }

    /// Looks for a touchscreen now; call once at start, then `service` whenever a descriptor is ready.
    public func attach(_ body: (Event) -> Void) {
        guard device == nil else { return }
        let discovery = DeviceDiscovery(directory: directory)
        guard let entry = try? discovery.choose(wanted) else { return }
        do {
            let d = try EvdevDevice(path: entry.path)
            if grabs { try d.grab() }
            let matrix = try calibrate?(d.description) ?? calibration
            // A protocol A panel's events go through libmtdev first: see TouchscreenDecoder.
            decoder = try TouchscreenDecoder(device: d.description, screen: screen, calibration: matrix, filters: filters,
                                             firstTouchID: nextTouchID)
            device = d
            if case .success(let kind) = entry.verdict { body(.attached(path: d.path, name: d.description.name, kind: kind)) }
        } catch {
            body(.problem("\(error)"))
        }
    }

    /// Reads what is ready: directory changes (a device came or went) and the device's events.
    public func service(_ body: (Event) -> Void) {
        var changed = false
        withUnsafeTemporaryAllocation(byteCount: 4096, alignment: 8) { buffer in
            while read(inotify, buffer.baseAddress, buffer.count) > 0 { changed = true }
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
        if changed {
            if let d = device, access(d.path, F_OK) != 0 { detach(body) }
            if device == nil { attach(body) }
        }
    }

    private func detach(_ body: (Event) -> Void) {
        guard let d = device else { return }
        if let decoder, let f = decoder.cancelAll(at: EventPump.monotonicNow()) {
            body(.frame(f))
        }
        earlierResyncs += d.resyncCount
        nextTouchID = decoder?.decoder.nextTouchID ?? nextTouchID
        device = nil
        decoder = nil
        body(.detached(path: d.path, name: d.description.name))
    }
}
