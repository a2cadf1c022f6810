#include <fribidi/fribidi.h>

/* FriBiDi's paragraph types are macros Swift cannot import; these name them. */
static inline FriBidiParType bl_fribidi_par_ltr(void) { return FRIBIDI_PAR_LTR; }
static inline FriBidiParType bl_fribidi_par_rtl(void) { return FRIBIDI_PAR_RTL; }
static inline FriBidiParType bl_fribidi_par_on(void) { return FRIBIDI_PAR_ON; }
static inline int bl_fribidi_dir_is_rtl(FriBidiParType type) { return FRIBIDI_IS_RTL(type) ? 1 : 0; }
/* Whether a character of this bidi type can give any character a level other than the paragraph's
   when the paragraph is left to right: a right-to-left or Arabic type (R, AL, AN, RLE, RLO, RLI),
   or an explicit embedding or isolate of either direction. */
static inline int bl_fribidi_type_may_raise_level(FriBidiCharType type) {
    return (FRIBIDI_IS_RTL(type) || FRIBIDI_IS_ARABIC(type) || FRIBIDI_IS_EXPLICIT(type) || FRIBIDI_IS_ISOLATE(type)) ? 1 : 0;
}
