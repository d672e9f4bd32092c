#ifndef KIOSK_CCAIRO_SHIM_H
#define KIOSK_CCAIRO_SHIM_H

#include <cairo.h>
#include <cairo-ft.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include <errno.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

/// Frees a FreeType face and the library that loaded it, once cairo drops its last reference.
/// Each kiosk font owns its own library, so the face's glyph slot names the library to free.
static inline void kiosk_ft_face_release(void *face) {
    FT_Face f = (FT_Face)face;
    FT_Library library = f->glyph->library;
    FT_Done_Face(f);
    FT_Done_FreeType(library);
}

/// A cairo font face over `face` that owns it: cairo, which may cache the font face after its last
/// user lets go, frees the FreeType face and its library when it drops the font face for good.
/// Returns NULL, with the face and library freed, when cairo cannot take ownership.
static inline cairo_font_face_t *kiosk_ft_font_face_create(FT_Face face) {
    /* The key under which the font face keeps the FreeType face it was made from. */
    static cairo_user_data_key_t key;
    cairo_font_face_t *font = cairo_ft_font_face_create_for_ft_face(face, 0);
    if (cairo_font_face_set_user_data(font, &key, face, kiosk_ft_face_release) != CAIRO_STATUS_SUCCESS) {
        cairo_font_face_destroy(font);
        kiosk_ft_face_release(face);
        return NULL;
    }
    return font;
}

/// cairo's PNG stream writer into the descriptor `closure` points at, whole, EINTR retried.
static cairo_status_t kiosk_png_write_fd(void *closure, const unsigned char *data, unsigned int length) {
    int fd = *(const int *)closure;
    while (length > 0) {
        ssize_t n = write(fd, data, length);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return CAIRO_STATUS_WRITE_ERROR;
        data += n;
        length -= (unsigned int)n;
    }
    return CAIRO_STATUS_SUCCESS;
}

/// Forks a child that writes `surface` as a PNG (cairo_surface_write_to_png_stream) down `fd`
/// and exits: status 0 when every byte was written, 1 when not. Returns the child's pid to the
/// parent, or -1 with errno set when fork failed.
///
/// Everything the child does is here, in C: a fork of a process with threads (a test runner,
/// getaddrinfo_a's helpers) may copy a lock held by another thread, and the Swift runtime takes
/// locks of its own; cairo's image surfaces, libpng and zlib take none on this path, and glibc's
/// malloc is made safe across fork. The child keeps `fd` as descriptor 3 and closes every other
/// one above 2 (the DRM card, the touchscreen, sockets and other children's pipes are not its to
/// hold), and takes the crash signals' default actions (the parent's crash handler restores the
/// display: never from here). It reads the parent's memory as it was at the fork (copy on write).
static inline pid_t kiosk_png_fork(cairo_surface_t *surface, int fd) {
    pid_t pid = fork();
    if (pid != 0) return pid;
    int crash[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS};
    for (unsigned i = 0; i < sizeof crash / sizeof crash[0]; i++) signal(crash[i], SIG_DFL);
    if (fd != 3) {
        if (dup2(fd, 3) < 0) _exit(1);
        fd = 3;
    }
#ifdef SYS_close_range
    if (syscall(SYS_close_range, 4U, ~0U, 0U) != 0)
#endif
    {
        long most = sysconf(_SC_OPEN_MAX);
        for (long i = 4; i < (most > 0 && most < 65536 ? most : 65536); i++) close((int)i);
    }
    cairo_status_t status = cairo_surface_write_to_png_stream(surface, kiosk_png_write_fd, &fd);
    _exit(status == CAIRO_STATUS_SUCCESS ? 0 : 1);
}

#endif
