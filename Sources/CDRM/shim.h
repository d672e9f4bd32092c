#ifndef KIOSK_CDRM_SHIM_H
#define KIOSK_CDRM_SHIM_H
// libdrm: KMS resources, dumb buffers, page flips and their events.
#include <xf86drm.h>
#include <xf86drmMode.h>
#include <drm_fourcc.h>
#include <fcntl.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

// Function-like macros and ioctl numbers do not import into Swift: re-export them typed.
static const uint32_t kiosk_DRM_FORMAT_XRGB8888 = DRM_FORMAT_XRGB8888;
static const uint32_t kiosk_DRM_FORMAT_RGB565 = DRM_FORMAT_RGB565;
static const uint32_t kiosk_DRM_MODE_PAGE_FLIP_EVENT = DRM_MODE_PAGE_FLIP_EVENT;
static const uint32_t kiosk_DRM_MODE_TYPE_PREFERRED = DRM_MODE_TYPE_PREFERRED;
static const int kiosk_DRM_EVENT_CONTEXT_VERSION = 2;  // page_flip_handler without the CRTC id
static const unsigned long kiosk_DRM_IOCTL_MODE_CREATE_DUMB = DRM_IOCTL_MODE_CREATE_DUMB;
static const unsigned long kiosk_DRM_IOCTL_MODE_MAP_DUMB = DRM_IOCTL_MODE_MAP_DUMB;
static const unsigned long kiosk_DRM_IOCTL_MODE_DESTROY_DUMB = DRM_IOCTL_MODE_DESTROY_DUMB;
static const int kiosk_O_RDWR = O_RDWR;
static const int kiosk_O_NONBLOCK = O_NONBLOCK;
static const int kiosk_O_CLOEXEC = O_CLOEXEC;
static const int kiosk_PROT_READ_WRITE = PROT_READ | PROT_WRITE;
static const int kiosk_MAP_SHARED = MAP_SHARED;
// The crash handler: runs once (the default action is back on entry), on its own stack.
static const int kiosk_SA_RESETHAND_ONSTACK = (int)(SA_RESETHAND | SA_ONSTACK);
static const uint64_t kiosk_DRM_CAP_TIMESTAMP_MONOTONIC = DRM_CAP_TIMESTAMP_MONOTONIC;
static const uint32_t kiosk_DRM_MODE_FLAG_INTERLACE = DRM_MODE_FLAG_INTERLACE;
static const uint32_t kiosk_DRM_MODE_FLAG_DBLSCAN = DRM_MODE_FLAG_DBLSCAN;

// The time of the last vblank of the CRTC at index `pipe` in the card's resources, in
// microseconds of the kernel's vblank clock: drmWaitVBlank, relative, sequence 0, which returns
// at once. 0, or -1 with errno (EOPNOTSUPP: the driver has no vblank interrupts, as virtio-gpu;
// EINVAL: the CRTC is off). The union and the CRTC bits of the request do not import cleanly.
static inline int kiosk_last_vblank(int fd, unsigned pipe, int64_t *microseconds) {
    drmVBlank vbl;
    unsigned type = DRM_VBLANK_RELATIVE;
    if (pipe == 1) type |= DRM_VBLANK_SECONDARY;
    else if (pipe > 1) type |= (pipe << DRM_VBLANK_HIGH_CRTC_SHIFT) & DRM_VBLANK_HIGH_CRTC_MASK;
    vbl.request.type = (drmVBlankSeqType)type;
    vbl.request.sequence = 0;
    vbl.request.signal = 0;
    if (drmWaitVBlank(fd, &vbl) != 0) return -1;
    *microseconds = (int64_t)vbl.reply.tval_sec * 1000000 + (int64_t)vbl.reply.tval_usec;
    return 0;
}
#endif
