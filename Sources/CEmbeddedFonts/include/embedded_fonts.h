#ifndef BLURLABEL_EMBEDDED_FONTS_H
#define BLURLABEL_EMBEDDED_FONTS_H
#include <stddef.h>
#include <stdint.h>

/// One embedded font file: its bytes and their count.
typedef struct {
    const uint8_t *bytes;
    size_t count;
} bl_embedded_font;

/// Fonts compiled into the binary, by index (see embedded_fonts.c for the order).
size_t bl_embedded_font_count(void);
bl_embedded_font bl_embedded_font_at(size_t index);
const char *bl_embedded_font_name(size_t index);

#endif
