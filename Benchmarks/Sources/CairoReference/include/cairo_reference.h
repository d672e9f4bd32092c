#ifndef KIOSK_CAIRO_REFERENCE_H
#define KIOSK_CAIRO_REFERENCE_H
// The kiosk's full frame drawn by a plain C program calling cairo directly: the yardstick the
// Swift renderer is measured against (same shapes, same order, same font).

typedef struct {
    double cx, cy, side, rotation;
    double r, g, b;
} reference_square;

typedef struct {
    double background[3];
    double foreground[3];
    reference_square squares[3];
    double button[4];          // x y w h
    double button_color[3];
    const char *button_text;
    double slider[4];
    double slider_color[3];
    double slider_knob_x;
    const char *slider_text;   // the value, written in the band above the slider
    double toggle[4];
    double toggle_color[3];
    double toggle_knob_x;
} reference_scene;

typedef struct reference_renderer reference_renderer;

// Loads the font; NULL when it cannot.
reference_renderer *reference_renderer_create(const char *font_path);
void reference_renderer_destroy(reference_renderer *r);
// Draws the whole frame into XRGB8888 memory.
void reference_draw(reference_renderer *r, unsigned char *data, int width, int height, int stride, const reference_scene *s);
#endif
