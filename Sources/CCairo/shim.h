#ifndef KIOSK_CCAIRO_SHIM_H
#define KIOSK_CCAIRO_SHIM_H

#include <cairo.h>
#include <cairo-ft.h>
#include <ft2build.h>
#include FT_FREETYPE_H

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

#endif
