/* The default fonts, embedded in the binary so they are found from any working directory.
   The files live in the package's top-level Fonts/ folder (added to the include path). */
#define EMBED(name, file)                      \
    .section .rodata.blurlabel_fonts, "a";     \
    .balign 16;                                \
    .global name##_start;                      \
    .global name##_end;                        \
name##_start:                                  \
    .incbin file;                              \
name##_end:

EMBED(bl_font_dejavu_sans, "DejaVuSans.ttf")
EMBED(bl_font_dejavu_sans_bold, "DejaVuSans-Bold.ttf")
EMBED(bl_font_noto_arabic, "NotoSansArabic-Regular.ttf")
EMBED(bl_font_noto_hebrew, "NotoSansHebrew-Regular.ttf")
EMBED(bl_font_noto_devanagari, "NotoSansDevanagari-Regular.ttf")
EMBED(bl_font_noto_thai, "NotoSansThai-Regular.ttf")

#if defined(__linux__) && defined(__ELF__)
.section .note.GNU-stack, "", %progbits
#endif
