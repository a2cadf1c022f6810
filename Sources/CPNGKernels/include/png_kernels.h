/* The PNG codec's own per-CPU kernels (BlurLabelCodecs): loops that gain from wide registers, built
   once per x86-64 variant like the blur's (CBlurKernels) and chosen by the same CPU survey
   (BlurKernelVariant, which passes its variant's number: 0 baseline, 1 x86-64-v2, 2 AVX, 3 AVX2,
   4 AVX-512, as bl_isa). C for the run-time CPU clones Swift cannot make. */
#ifndef PNG_KERNELS_H
#define PNG_KERNELS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A picture frame's PNG row of
   `width` RGB pixels from RGBA `row` (alpha dropped), Paeth-filtered against RGBA `above` (NULL
   for the first row: zeros above), written at `out` as the filter type byte 4 and 3 * `width`
   bytes (WholePNGWriter, RunDeflate). Exact integer arithmetic: the same bytes in every variant. */
typedef void (*png_paeth_rgb_from_rgba_fn)(const uint8_t *row, const uint8_t *above, int width, uint8_t *out);

/* The `count` bytes of `row` Paeth-filtered against `above` (NULL for the first row: zeros above),
   `bpp` bytes a pixel (1 to 8), written at `out` without a type byte (SmallPNGWriter's rows, a
   label's grey ones above all). The same bytes as PNGRowFilter's Swift loop in every variant. */
typedef void (*png_paeth_row_fn)(const uint8_t *row, const uint8_t *above, int count, int bpp, uint8_t *out);

/* One CPU variant's kernels. */
typedef struct {
    png_paeth_rgb_from_rgba_fn paeth_rgb_from_rgba;
    png_paeth_row_fn paeth_row;
} png_kernels;

/* The variant's kernels (`isa` numbered as bl_isa), or NULL for a variant not built for this
   target. Only call variants the CPU runs (bl_isa_supported). */
const png_kernels *png_kernels_for(int isa);

#ifdef __cplusplus
}
#endif

#endif
