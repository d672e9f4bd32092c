import CDRM
import Glibc
import KioskCore

/// A dumb buffer (`DRM_IOCTL_MODE_CREATE_DUMB`) with a framebuffer over it, mapped for writing.
final class DumbBuffer {
    private let card: DRMCard
    let handle: UInt32
    let framebuffer: UInt32
    let target: PixelTarget
    private let size: Int

    init(card: DRMCard, width: Int, height: Int, format: PixelFormat) throws(DisplayError) {
        self.card = card
        var create = drm_mode_create_dumb()
        create.width = UInt32(width)
        create.height = UInt32(height)
        create.bpp = UInt32(format.bytesPerPixel * 8)
        try drmCall(card.name, "DRM_IOCTL_MODE_CREATE_DUMB", on: "\(width)x\(height) \(format)") {
            drmIoctl(card.fd, kiosk_DRM_IOCTL_MODE_CREATE_DUMB, &create)
        }
        handle = create.handle
        size = Int(create.size)
        let fourcc = format == .xrgb8888 ? kiosk_DRM_FORMAT_XRGB8888 : kiosk_DRM_FORMAT_RGB565
        var handles: (UInt32, UInt32, UInt32, UInt32) = (create.handle, 0, 0, 0)
        var pitches: (UInt32, UInt32, UInt32, UInt32) = (create.pitch, 0, 0, 0)
        var offsets: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
        var fb: UInt32 = 0
        do throws(DisplayError) {
            try drmCall(card.name, "drmModeAddFB2", on: "\(width)x\(height) \(format)") {
                withUnsafePointer(to: &handles) { h in
                    withUnsafePointer(to: &pitches) { p in
                        withUnsafePointer(to: &offsets) { o in
                            drmModeAddFB2(card.fd, UInt32(width), UInt32(height), fourcc,
                                          UnsafeRawPointer(h).assumingMemoryBound(to: UInt32.self),
                                          UnsafeRawPointer(p).assumingMemoryBound(to: UInt32.self),
                                          UnsafeRawPointer(o).assumingMemoryBound(to: UInt32.self), &fb, 0)
                        }
                    }
                }
            }
        } catch {
            Self.destroy(handle: create.handle, fd: card.fd)
            throw error
        }
        framebuffer = fb
        var map = drm_mode_map_dumb()
        map.handle = create.handle
        let memory: UnsafeMutableRawPointer
        do throws(DisplayError) {
            try drmCall(card.name, "DRM_IOCTL_MODE_MAP_DUMB") { drmIoctl(card.fd, kiosk_DRM_IOCTL_MODE_MAP_DUMB, &map) }
            let m = mmap(nil, Int(create.size), kiosk_PROT_READ_WRITE, kiosk_MAP_SHARED, card.fd, off_t(map.offset))
            guard let m, m != MAP_FAILED else {
                throw DisplayError(card: card.name, SystemCallError(call: "mmap", subject: "of a \(create.size)-byte dumb buffer", errno: .current))
            }
            memory = m
        } catch {
            drmModeRmFB(card.fd, fb)
            Self.destroy(handle: create.handle, fd: card.fd)
            throw error
        }
        target = PixelTarget(bytes: memory, width: width, height: height, stride: Int(create.pitch), format: format)
    }

    deinit {
        munmap(target.bytes, size)
        drmModeRmFB(card.fd, framebuffer)
        Self.destroy(handle: handle, fd: card.fd)
    }

    private static func destroy(handle: UInt32, fd: Int32) {
        var d = drm_mode_destroy_dumb()
        d.handle = handle
        _ = drmIoctl(fd, kiosk_DRM_IOCTL_MODE_DESTROY_DUMB, &d)
    }
}
