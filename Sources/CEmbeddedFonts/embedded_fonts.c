#include "embedded_fonts.h"

#define DECLARE(name) extern const uint8_t name##_start[]; extern const uint8_t name##_end[];
DECLARE(bl_font_dejavu_sans)
DECLARE(bl_font_dejavu_sans_bold)
DECLARE(bl_font_noto_arabic)
DECLARE(bl_font_noto_hebrew)
DECLARE(bl_font_noto_devanagari)
DECLARE(bl_font_noto_thai)

#define ENTRY(name, file) { name##_start, name##_end, file }
static const struct { const uint8_t *start; const uint8_t *end; const char *file; } table[] = {
    ENTRY(bl_font_dejavu_sans, "DejaVuSans.ttf"),
    ENTRY(bl_font_dejavu_sans_bold, "DejaVuSans-Bold.ttf"),
    ENTRY(bl_font_noto_arabic, "NotoSansArabic-Regular.ttf"),
    ENTRY(bl_font_noto_hebrew, "NotoSansHebrew-Regular.ttf"),
    ENTRY(bl_font_noto_devanagari, "NotoSansDevanagari-Regular.ttf"),
    ENTRY(bl_font_noto_thai, "NotoSansThai-Regular.ttf"),
};

size_t bl_embedded_font_count(void) { return sizeof table / sizeof table[0]; }

bl_embedded_font bl_embedded_font_at(size_t index) {
    bl_embedded_font font = { 0, 0 };
    if (index < bl_embedded_font_count()) {
        font.bytes = table[index].start;
        font.count = (size_t)(table[index].end - table[index].start);
    }
    return font;
}

const char *bl_embedded_font_name(size_t index) {
    return index < bl_embedded_font_count() ? table[index].file : "";
}
