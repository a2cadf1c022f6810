#include <fribidi/fribidi.h>

/* FriBiDi's paragraph types are macros Swift cannot import; these name them. */
static inline FriBidiParType bl_fribidi_par_ltr(void) { return FRIBIDI_PAR_LTR; }
static inline FriBidiParType bl_fribidi_par_rtl(void) { return FRIBIDI_PAR_RTL; }
static inline FriBidiParType bl_fribidi_par_on(void) { return FRIBIDI_PAR_ON; }
static inline int bl_fribidi_dir_is_rtl(FriBidiParType type) { return FRIBIDI_IS_RTL(type) ? 1 : 0; }
