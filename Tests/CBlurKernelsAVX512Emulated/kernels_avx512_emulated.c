/* CBlurKernels' kernels_body.h compiled as its AVX-512 variant is (64-byte vectors: its blocks,
   tiles, tails and packing order), for a CPU without AVX-512: the body's four AVX-512 intrinsics
   are taken from SIMDe, an independent implementation of their documented results, and the
   compiler splits the 64-byte vector arithmetic into what the CPU has. A test compares its bytes
   with the baseline variant's, so the AVX-512 variant's source is checked on every machine;
   only the compiler's own AVX-512 code generation needs an AVX-512 CPU to check. */
#include "blur_kernels_avx512_emulated.h"
#include "blur_kernels.h"
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && __has_include(<simde/x86/avx512.h>)
#include <immintrin.h>
#include <simde/x86/avx512.h>
/* 64-byte vectors passed between inline functions on a CPU target without AVX-512: the compiler
   notes the ABI difference, which does not matter inside one file. */
#pragma clang diagnostic ignored "-Wpsabi"

/* Between the compiler's 64-byte vector types and SIMDe's: same bytes, copied. */
#define BL_TO_SIMDE(v) ({ simde__m512i converted_; memcpy(&converted_, &(v), 64); converted_; })
static inline __m512i bl_from_simde(simde__m512i v) { __m512i r; memcpy(&r, &v, 64); return r; }

/* vpmulhuw on 32 lanes: SIMDe 0.7 has it for 16 lanes, and it works lane by lane. */
static inline __m512i bl_emulated_mulhi_epu16(__m512i a, __m512i b) {
    simde__m256i a_half[2], b_half[2], r_half[2];
    memcpy(a_half, &a, 64);
    memcpy(b_half, &b, 64);
    for (int i = 0; i < 2; i++) r_half[i] = simde_mm256_mulhi_epu16(a_half[i], b_half[i]);
    __m512i r;
    memcpy(&r, r_half, 64);
    return r;
}
static inline __m512i bl_emulated_packus_epi16(__m512i a, __m512i b) {
    return bl_from_simde(simde_mm512_packus_epi16(BL_TO_SIMDE(a), BL_TO_SIMDE(b)));
}
static inline __m512i bl_emulated_permutexvar_epi64(__m512i index, __m512i a) {
    return bl_from_simde(simde_mm512_permutexvar_epi64(BL_TO_SIMDE(index), BL_TO_SIMDE(a)));
}
static inline __m512i bl_emulated_setr_epi64(long long e0, long long e1, long long e2, long long e3,
                                              long long e4, long long e5, long long e6, long long e7) {
    return bl_from_simde(simde_mm512_setr_epi64(e0, e1, e2, e3, e4, e5, e6, e7));
}
#undef _mm512_mulhi_epu16
#undef _mm512_packus_epi16
#undef _mm512_permutexvar_epi64
#undef _mm512_setr_epi64
#define _mm512_mulhi_epu16 bl_emulated_mulhi_epu16
#define _mm512_packus_epi16 bl_emulated_packus_epi16
#define _mm512_permutexvar_epi64 bl_emulated_permutexvar_epi64
#define _mm512_setr_epi64 bl_emulated_setr_epi64

#define BL_VECTOR_BYTES 64
#define BL_VARIANT(name) name##_avx512_emulated
#include "../../Sources/CBlurKernels/kernels_body.h"

const void *bl_kernels_avx512_emulated_table(void) { return &bl_kernels_avx512_emulated; }
#else
const void *bl_kernels_avx512_emulated_table(void) { return 0; }
#endif
