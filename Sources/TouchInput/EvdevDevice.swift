import CEvdev
import InputEvents
import KioskCore
#if canImport(Glibc)
import Glibc
#endif

/// One open evdev device, read through libevdev.
///
/// libevdev keeps the device's state, so after the kernel drops events (`SYN_DROPPED`, its buffer
/// overflowed) it can hand over the events that bring every slot to the current state. `read`
/// passes those on as an ordinary report: a touch that ended during the gap ends, positions jump,
/// and nothing is left stuck down.
public final class EvdevDevice {
    public let path: String
    public let description: DeviceDescription
    /// How often the kernel dropped events and libevdev resynchronised.
    public private(set) var resyncCount = 0
    public private(set) var isGrabbed = false
    /// The file descriptor, for the caller's poll loop.
    /// Closed after libevdev lets go of it (deinit frees the handle first).
    private let file: FileDescriptor
    public var fileDescriptor: Int32 { file.rawValue }
    private let handle: OpaquePointer

    /// Opens a device node: a descriptor, or -1 with `errno` set. `open(2)` but in tests, which
    /// stand in for udev's permissions (as root, a file's mode never refuses).
    public typealias NodeOpener = (String) -> Int32

    /// `open(2)`, read-only and non-blocking.
    public static func openNode(_ path: String) -> Int32 {
        open(path, kiosk_O_RDONLY | kiosk_O_NONBLOCK | kiosk_O_CLOEXEC)
    }

    /// Opens `path` read-only and non-blocking.
    public init(path: String, open opener: NodeOpener = EvdevDevice.openNode) throws(InputDeviceError) {
        self.path = path
        let fd = opener(path)
        guard fd >= 0 else { throw .system(call: "open", path: path, errno: errno) }
        let file = FileDescriptor(owning: fd)
        var device: OpaquePointer?
        let rc = libevdev_new_from_fd(fd, &device)
        guard rc == 0, let device else {
            throw .system(call: "libevdev_new_from_fd", path: path, errno: -rc)
        }
        // Event times on the monotonic clock, the one the loop and latency measurements use.
        _ = libevdev_set_clock_id(device, CLOCK_MONOTONIC)
        self.file = file
        handle = device
        description = Self.describe(device)
    }

    deinit {
        if isGrabbed { _ = libevdev_grab(handle, LIBEVDEV_UNGRAB) }
        libevdev_free(handle)
    }

    /// Takes the device for this process alone (EVIOCGRAB): no console or other reader sees its events.
    public func grab() throws(InputDeviceError) {
        let rc = libevdev_grab(handle, LIBEVDEV_GRAB)
        guard rc == 0 else { throw .system(call: "EVIOCGRAB", path: path, errno: -rc) }
        isGrabbed = true
    }

    public func ungrab() {
        if isGrabbed { _ = libevdev_grab(handle, LIBEVDEV_UNGRAB) }
        isGrabbed = false
    }

    /// Reads every event available now, calling `body` with each; returns when none is left.
    ///
    /// After a `SYN_DROPPED` the events libevdev synthesises to resynchronise are passed on in its
    /// place, ending with a `SYN_REPORT`; the `SYN_DROPPED` itself is counted, not passed on.
    /// Throws `.gone` when the device was removed.
    public func read(_ body: (InputEvent) -> Void) throws(InputDeviceError) {
        var raw = input_event()
        var flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
        while true {
            let rc = libevdev_next_event(handle, flags, &raw)
            if rc == Int32(LIBEVDEV_READ_STATUS_SUCCESS.rawValue) {
                body(Self.event(raw))
            } else if rc == Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue) {
                if flags == LIBEVDEV_READ_FLAG_NORMAL.rawValue {
                    resyncCount += 1
                    flags = LIBEVDEV_READ_FLAG_SYNC.rawValue
                } else {
                    body(Self.event(raw))
                }
            } else if rc == -EAGAIN {
                // In sync mode, -EAGAIN ends the resync; then normal events may follow.
                guard flags == LIBEVDEV_READ_FLAG_SYNC.rawValue else { return }
                flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
            } else if rc == -ENODEV {
                throw .gone(path: path)
            } else {
                throw .system(call: "libevdev_next_event", path: path, errno: -rc)
            }
        }
    }

    private static func event(_ raw: input_event) -> InputEvent {
        InputEvent(
            time: Instant(microseconds: Int64(raw.time.tv_sec) * 1_000_000 + Int64(raw.time.tv_usec)),
            type: EventType(rawValue: raw.type), code: EventCode(rawValue: raw.code), value: raw.value)
    }

    /// What the device says of itself, in the same terms as an evemu header.
    private static func describe(_ device: OpaquePointer) -> DeviceDescription {
        var d = DeviceDescription(
            name: String(cString: libevdev_get_name(device)),
            bus: UInt16(truncatingIfNeeded: libevdev_get_id_bustype(device)),
            vendor: UInt16(truncatingIfNeeded: libevdev_get_id_vendor(device)),
            product: UInt16(truncatingIfNeeded: libevdev_get_id_product(device)),
            version: UInt16(truncatingIfNeeded: libevdev_get_id_version(device)))
        for bit in 0..<Int(INPUT_PROP_CNT) where libevdev_has_property(device, UInt32(bit)) != 0 {
            d.properties.insert(InputProperties(bit: bit))
        }
        for type in 0..<UInt32(EV_CNT) where libevdev_has_event_type(device, type) != 0 {
            let maximum = libevdev_event_type_get_max(type)
            guard maximum >= 0 else { continue }
            for code in 0...UInt32(maximum) where libevdev_has_event_code(device, type, code) != 0 {
                if type == UInt32(EV_ABS), let info = libevdev_get_abs_info(device, code) {
                    d.setAxis(AbsoluteAxis(rawValue: UInt16(code)), AxisInfo(
                        minimum: info.pointee.minimum, maximum: info.pointee.maximum, fuzz: info.pointee.fuzz,
                        flat: info.pointee.flat, resolution: info.pointee.resolution, value: info.pointee.value))
                } else {
                    d.enable(EventCode(rawValue: UInt16(code)), of: EventType(rawValue: UInt16(type)))
                }
            }
        }
        return d
    }
}
