/* Each CPU variant's PNG kernel table; which variant runs is BlurKernelVariant's choice. */
#include "png_kernels.h"

extern const png_kernels png_kernels_baseline;
#if defined(__x86_64__)
extern const png_kernels png_kernels_v2, png_kernels_avx, png_kernels_avx2, png_kernels_avx512;
#endif

const png_kernels *png_kernels_for(int isa) {
    switch (isa) {
    case 0: return &png_kernels_baseline;
#if defined(__x86_64__)
    case 1: return &png_kernels_v2;
    case 2: return &png_kernels_avx;
    case 3: return &png_kernels_avx2;
    case 4: return &png_kernels_avx512;
#endif
    default: return 0;
    }
}
