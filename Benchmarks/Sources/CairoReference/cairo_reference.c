#include "cairo_reference.h"
#include <cairo.h>
#include <cairo-ft.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include <math.h>
#include <stdlib.h>

struct reference_renderer {
    FT_Library library;
    FT_Face face;
    cairo_font_face_t *font;
};

reference_renderer *reference_renderer_create(const char *font_path) {
    reference_renderer *r = calloc(1, sizeof *r);
    if (FT_Init_FreeType(&r->library) || FT_New_Face(r->library, font_path, 0, &r->face)) { free(r); return NULL; }
    r->font = cairo_ft_font_face_create_for_ft_face(r->face, 0);
    return r;
}

void reference_renderer_destroy(reference_renderer *r) {
    cairo_font_face_destroy(r->font);
    FT_Done_Face(r->face);
    FT_Done_FreeType(r->library);
    free(r);
}

static void rounded_rect(cairo_t *cr, double x, double y, double w, double h, double rad) {
    double q = M_PI / 2;
    if (rad > w / 2) rad = w / 2;
    if (rad > h / 2) rad = h / 2;
    if (rad < 0) rad = 0;
    cairo_new_sub_path(cr);
    cairo_arc(cr, x + w - rad, y + rad, rad, -q, 0);
    cairo_arc(cr, x + w - rad, y + h - rad, rad, 0, q);
    cairo_arc(cr, x + rad, y + h - rad, rad, q, 2 * q);
    cairo_arc(cr, x + rad, y + rad, rad, 2 * q, 3 * q);
    cairo_close_path(cr);
}

static void knob(cairo_t *cr, double x, double y, double radius) {
    cairo_arc(cr, x, y + 1.5, radius + 1, 0, 2 * M_PI);
    cairo_set_source_rgba(cr, 0, 0, 0, 0.18);
    cairo_fill(cr);
    cairo_arc(cr, x, y, radius, 0, 2 * M_PI);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_fill(cr);
}

void reference_draw(reference_renderer *r, unsigned char *data, int width, int height, int stride, const reference_scene *s) {
    cairo_surface_t *surface = cairo_image_surface_create_for_data(data, CAIRO_FORMAT_RGB24, width, height, stride);
    cairo_t *cr = cairo_create(surface);
    cairo_set_source_rgb(cr, s->background[0], s->background[1], s->background[2]);
    cairo_paint(cr);
    for (int i = 0; i < 3; i++) {
        const reference_square *q = &s->squares[i];
        double rad = fmin(12, q->side * 0.1);
        cairo_save(cr);
        cairo_translate(cr, q->cx, q->cy);
        for (int k = 0; k < 10; k++) {
            double spread = 1 + k * 0.6;
            cairo_save(cr);
            cairo_translate(cr, 0, 2);
            cairo_rotate(cr, q->rotation);
            rounded_rect(cr, -q->side / 2 - spread, -q->side / 2 - spread, q->side + 2 * spread, q->side + 2 * spread, rad + spread);
            cairo_set_source_rgba(cr, 0, 0, 0, 0.022);
            cairo_fill(cr);
            cairo_restore(cr);
        }
        cairo_rotate(cr, q->rotation);
        rounded_rect(cr, -q->side / 2, -q->side / 2, q->side, q->side, rad);
        cairo_set_source_rgb(cr, q->r, q->g, q->b);
        cairo_fill(cr);
        cairo_restore(cr);
    }
    cairo_set_font_face(cr, r->font);
    // Button.
    const double *b = s->button;
    rounded_rect(cr, b[0], b[1] + 2, b[2], b[3], 12);
    cairo_set_source_rgba(cr, 0, 0, 0, 0.14);
    cairo_fill(cr);
    rounded_rect(cr, b[0], b[1], b[2], b[3], 12);
    cairo_set_source_rgb(cr, s->button_color[0], s->button_color[1], s->button_color[2]);
    cairo_fill(cr);
    cairo_set_font_size(cr, 22);
    cairo_text_extents_t te;
    cairo_font_extents_t fe;
    cairo_text_extents(cr, s->button_text, &te);
    cairo_font_extents(cr, &fe);
    cairo_move_to(cr, round(b[0] + b[2] / 2 - (te.x_bearing + te.width / 2)), round(b[1] + b[3] / 2 + (fe.ascent - fe.descent) / 2));
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_show_text(cr, s->button_text);
    cairo_new_path(cr);
    // Slider: its value in the band above it, then track, fill and knob.
    const double *sl = s->slider;
    cairo_save(cr);
    cairo_rectangle(cr, sl[0], sl[1] - 30, sl[2], 30);
    cairo_clip(cr);
    cairo_set_font_size(cr, 22);
    cairo_text_extents(cr, s->slider_text, &te);
    cairo_font_extents(cr, &fe);
    cairo_move_to(cr, round(sl[0] + sl[2] / 2 - (te.x_bearing + te.width / 2)), round(sl[1] - 2 - fe.descent));
    cairo_set_source_rgba(cr, s->foreground[0], s->foreground[1], s->foreground[2], 0.85);
    cairo_show_text(cr, s->slider_text);
    cairo_new_path(cr);
    cairo_restore(cr);
    double kr = sl[3] / 2, track = 8, cy = sl[1] + sl[3] / 2, x0 = sl[0] + kr, x1 = sl[0] + sl[2] - kr;
    rounded_rect(cr, x0 - track / 2, cy - track / 2, x1 - x0 + track, track, track / 2);
    cairo_set_source_rgba(cr, s->foreground[0], s->foreground[1], s->foreground[2], 0.22);
    cairo_fill(cr);
    rounded_rect(cr, x0 - track / 2, cy - track / 2, s->slider_knob_x - x0 + track, track, track / 2);
    cairo_set_source_rgb(cr, s->slider_color[0], s->slider_color[1], s->slider_color[2]);
    cairo_fill(cr);
    knob(cr, s->slider_knob_x, cy, kr * 0.55);
    // Switch.
    const double *t = s->toggle;
    rounded_rect(cr, t[0], t[1], t[2], t[3], t[3] / 2);
    cairo_set_source_rgb(cr, 0.62, 0.64, 0.67);
    cairo_fill(cr);
    knob(cr, s->toggle_knob_x, t[1] + t[3] / 2, t[3] / 2 - 4);
    cairo_destroy(cr);
    cairo_surface_flush(surface);
    cairo_surface_destroy(surface);
}
