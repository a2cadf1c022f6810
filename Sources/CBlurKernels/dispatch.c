/* Which CPU variants this machine runs, and each variant's kernel table. Asked once, after start,
   by the Swift side: no ifunc resolver, so sanitized builds load. */
#include "blur_kernels.h"

extern const bl_kernels bl_kernels_baseline;
#if defined(__x86_64__)
extern const bl_kernels bl_kernels_v2, bl_kernels_avx, bl_kernels_avx2, bl_kernels_avx512;
#endif

int bl_isa_supported(int isa) {
#if defined(__x86_64__)
    __builtin_cpu_init(); /* idempotent; makes the answer independent of constructor order */
    switch (isa) {
    case BL_ISA_BASELINE: return 1;
    case BL_ISA_V2:
        return __builtin_cpu_supports("sse4.2") && __builtin_cpu_supports("popcnt") && __builtin_cpu_supports("ssse3");
    case BL_ISA_AVX: return bl_isa_supported(BL_ISA_V2) && __builtin_cpu_supports("avx");
    case BL_ISA_AVX2:
        return bl_isa_supported(BL_ISA_AVX) && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
               __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2");
    case BL_ISA_AVX512:
        return bl_isa_supported(BL_ISA_AVX2) && __builtin_cpu_supports("avx512f") &&
               __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
               __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512cd");
    default: return 0;
    }
#else
    return isa == BL_ISA_BASELINE;
#endif
}

const bl_kernels *bl_kernels_for(int isa) {
    switch (isa) {
    case BL_ISA_BASELINE: return &bl_kernels_baseline;
#if defined(__x86_64__)
    case BL_ISA_V2: return &bl_kernels_v2;
    case BL_ISA_AVX: return &bl_kernels_avx;
    case BL_ISA_AVX2: return &bl_kernels_avx2;
    case BL_ISA_AVX512: return &bl_kernels_avx512;
#endif
    default: return 0;
    }
}
