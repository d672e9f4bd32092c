#ifndef KIOSK_CCAIRO_SHIM_H
#define KIOSK_CCAIRO_SHIM_H

#include <cairo.h>
#include <cairo-ft.h>
#include <ft2build.h>
#include FT_FREETYPE_H

/// The key under which a cairo font face keeps the FreeType face it was made from.
static cairo_user_data_key_t kiosk_ft_face_key;

/// Frees a FreeType face and the library that loaded it, once cairo drops its last reference.
/// Each kiosk font owns its own library, so the face's glyph slot names the library to free.
static inline void kiosk_ft_face_release(void *face) {
    FT_Face f = (FT_Face)face;
    FT_Library library = f->glyph->library;
    FT_Done_Face(f);
    FT_Done_FreeType(library);
}

#endif
