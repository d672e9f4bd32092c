import CLinuxSystem
#if canImport(Glibc)
import Glibc
#endif
import KioskCore

/// One kernel uevent as its netlink socket delivers it: `ACTION@DEVPATH`, then `KEY=value`
/// fields, each ended by a NUL byte.
///
/// Read defensively: any bytes make either a uevent or nil, never a trap. Fields without `=`,
/// bytes that are not UTF-8 and a missing final NUL are all taken as they come.
public struct Uevent: Equatable, Sendable {
    public var action: String
    public var devicePath: String
    /// `SUBSYSTEM=`: `drm` for displays.
    public var subsystem: String?
    /// `DEVNAME=`: `dri/card0`.
    public var deviceName: String?
    /// `HOTPLUG=1`: a connector may have changed (the DRM core's hotplug event).
    public var isHotplug = false

    /// A DRM hotplug: some connector of some card may have been plugged or unplugged.
    public var isDisplayHotplug: Bool { subsystem == "drm" && isHotplug }

    /// Nil when `bytes` are not a kernel uevent: udev's own messages start `libudev`, and a
    /// kernel uevent's first field is `ACTION@DEVPATH`.
    public init?(_ bytes: UnsafeRawBufferPointer) {
        var fields = bytes.split(separator: 0, omittingEmptySubsequences: true).makeIterator()
        guard let header = fields.next(), let at = header.firstIndex(of: UInt8(ascii: "@")) else { return nil }
        action = String(decoding: header[header.startIndex..<at], as: UTF8.self)
        devicePath = String(decoding: header[(at + 1)...], as: UTF8.self)
        guard !action.isEmpty else { return nil }
        while let field = fields.next() {
            guard let equals = field.firstIndex(of: UInt8(ascii: "=")) else { continue }
            let key = field[field.startIndex..<equals], value = field[(equals + 1)...]
            if key.elementsEqual("SUBSYSTEM".utf8) {
                subsystem = String(decoding: value, as: UTF8.self)
            } else if key.elementsEqual("DEVNAME".utf8) {
                deviceName = String(decoding: value, as: UTF8.self)
            } else if key.elementsEqual("HOTPLUG".utf8) {
                isHotplug = value.elementsEqual("1".utf8)
            }
        }
    }
}

/// The kernel's device events (a `NETLINK_KOBJECT_UEVENT` socket, as udev reads them), polled by
/// the loop for one thing: a display plugged or unplugged, so an idle kiosk notices without
/// waiting for its next page flip. No udev needed: the kernel sends these itself.
public final class DisplayHotplugSocket {
    private let file: FileDescriptor
    public var fileDescriptor: Int32 { file.rawValue }
    /// A uevent is at most 2 KiB (the kernel's UEVENT_BUFFER_SIZE); what is longer is cut here.
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 8192, alignment: 8)

    /// Throws the call that failed (a sandbox may forbid AF_NETLINK).
    public init() throws(SystemCallError) {
        let fd = socket(AF_NETLINK, kiosk_SOCK_DGRAM_CLOEXEC_NONBLOCK, kiosk_NETLINK_KOBJECT_UEVENT)
        guard fd >= 0 else {
            buffer.deallocate()
            throw SystemCallError(call: "socket(AF_NETLINK, NETLINK_KOBJECT_UEVENT)", errno: .current)
        }
        let file = FileDescriptor(owning: fd)
        var address = sockaddr_nl()
        address.nl_family = sa_family_t(AF_NETLINK)
        // Group 1: the kernel's own events (udev re-sends them on group 2, after its rules).
        address.nl_groups = 1
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_nl>.size)) }
        }
        guard bound == 0 else {
            let code = errno
            buffer.deallocate()
            throw SystemCallError(call: "bind(NETLINK_KOBJECT_UEVENT)", errno: Errno(rawValue: code))
        }
        self.file = file
    }

    deinit {
        buffer.deallocate()
    }

    /// Reads every event waiting, without blocking. True when one was a display hotplug, or when
    /// events were lost (the socket's buffer overflowed): either way the connector is worth
    /// reading again.
    public func readDisplayHotplug() -> Bool {
        var hotplug = false
        while true {
            var sender = sockaddr_nl()
            var length = socklen_t(MemoryLayout<sockaddr_nl>.size)
            let received = systemCall {
                length = socklen_t(MemoryLayout<sockaddr_nl>.size)
                return withUnsafeMutablePointer(to: &sender) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        recvfrom(fileDescriptor, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT), $0, &length)
                    }
                }
            }
            let n: Int
            switch received {
            case .success(let count): n = count
            case .failure(let errno) where errno.rawValue == ENOBUFS: hotplug = true; continue
            case .failure: return hotplug
            }
            guard n > 0 else { return hotplug }
            // Only the kernel (port 0) speaks for devices; anything else is ignored.
            guard sender.nl_pid == 0 else { continue }
            if let event = Uevent(UnsafeRawBufferPointer(rebasing: buffer[..<min(n, buffer.count)])), event.isDisplayHotplug {
                hotplug = true
            }
        }
    }
}
