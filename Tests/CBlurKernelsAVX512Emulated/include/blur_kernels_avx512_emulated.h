/* The AVX-512 variant of the blur kernels, compiled for any x86-64 with its four AVX-512
   instructions emulated by SIMDe (Debian's libsimde-dev), for tests on CPUs without AVX-512. */
#ifndef BLUR_KERNELS_AVX512_EMULATED_H
#define BLUR_KERNELS_AVX512_EMULATED_H

/* The variant's `bl_kernels` table (CBlurKernels' blur_kernels.h), or null where it cannot be
   built (not x86-64, or SIMDe missing). Opaque here so the type stays CBlurKernels' own. */
const void *bl_kernels_avx512_emulated_table(void);

#endif
