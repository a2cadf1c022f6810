/* Which CPU variants this machine runs, and each variant's kernel table. Asked once, after start,
   by the Swift side: no ifunc resolver, so sanitized builds load. */
#include "blur_kernels.h"

extern const bl_kernels bl_kernels_baseline;
#if defined(__x86_64__)
extern const bl_kernels bl_kernels_v2, bl_kernels_avx, bl_kernels_avx2, bl_kernels_avx512;
#endif

#if defined(__x86_64__)
#include <cpuid.h>
#endif

#if defined(__x86_64__) && defined(__GLIBC__) && __has_include(<sys/platform/x86.h>)
/* glibc (2.33 and later) answers from the CPU survey its loader made before main: no CPUID here.
   CPUID traps to the hypervisor on a virtual machine, and libgcc's __builtin_cpu_init, which this
   replaced, ran ten of them in a constructor at every start (Benchmarks/README.md, "One label per process"). ACTIVE means the
   CPU has the feature and the OS saves its registers (AVX, AVX-512 state); GLIBC_TUNABLES
   (glibc.cpu.hwcaps=-AVX2...) can switch one off, and this follows. */
#include <sys/platform/x86.h>
#define BL_HAS(feature) CPU_FEATURE_ACTIVE(feature)
#elif defined(__x86_64__)
#define BL_HAS_BUILTIN 1
#define BL_HAS(feature) bl_builtin_has_##feature()
#endif

#if defined(BL_HAS_BUILTIN)
/* Another C library: the compiler's own CPU survey. */
#define BL_BUILTIN_HAS(feature, name) \
    static int bl_builtin_has_##feature(void) { return __builtin_cpu_supports(name); }
BL_BUILTIN_HAS(SSE4_2, "sse4.2") BL_BUILTIN_HAS(POPCNT, "popcnt") BL_BUILTIN_HAS(SSSE3, "ssse3")
BL_BUILTIN_HAS(AVX, "avx") BL_BUILTIN_HAS(AVX2, "avx2") BL_BUILTIN_HAS(FMA, "fma") BL_BUILTIN_HAS(BMI1, "bmi")
BL_BUILTIN_HAS(BMI2, "bmi2") BL_BUILTIN_HAS(AVX512F, "avx512f") BL_BUILTIN_HAS(AVX512BW, "avx512bw")
BL_BUILTIN_HAS(AVX512DQ, "avx512dq") BL_BUILTIN_HAS(AVX512VL, "avx512vl") BL_BUILTIN_HAS(AVX512CD, "avx512cd")
#endif

int bl_isa_supported(int isa) {
#if defined(__x86_64__)
#if defined(BL_HAS_BUILTIN)
    __builtin_cpu_init(); /* idempotent; makes the answer independent of constructor order */
#endif
    switch (isa) {
    case BL_ISA_BASELINE: return 1;
    case BL_ISA_V2: return BL_HAS(SSE4_2) && BL_HAS(POPCNT) && BL_HAS(SSSE3);
    case BL_ISA_AVX: return bl_isa_supported(BL_ISA_V2) && BL_HAS(AVX);
    case BL_ISA_AVX2:
        return bl_isa_supported(BL_ISA_AVX) && BL_HAS(AVX2) && BL_HAS(FMA) && BL_HAS(BMI1) && BL_HAS(BMI2);
    case BL_ISA_AVX512:
        return bl_isa_supported(BL_ISA_AVX2) && BL_HAS(AVX512F) && BL_HAS(AVX512BW) && BL_HAS(AVX512DQ) &&
               BL_HAS(AVX512VL) && BL_HAS(AVX512CD);
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

/* AMD family 19h with AVX-512 is Zen 4 (Zen 3, the same family, has none): it runs a 512-bit
   instruction as two 256-bit halves, and the fixed-point FIR's AVX-512 build is slower there than
   its AVX2 build for the smallest kernels and faster for the rest (`bl_zen4_fir_isa`). Zen 5
   (family 1Ah) has full-width units and keeps AVX-512 throughout. Two CPUIDs, asked only when
   AVX-512 is the variant in question (each a trap to the hypervisor on a virtual machine). */
static int bl_is_zen4(void) {
#if defined(__x86_64__)
    unsigned int eax, ebx, ecx, edx;
    if (!__get_cpuid(0, &eax, &ebx, &ecx, &edx)) return 0;
    const int amd = ebx == 0x68747541u && edx == 0x69746e65u && ecx == 0x444d4163u; /* "AuthenticAMD" */
    if (!amd || !__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
    unsigned int family = (eax >> 8) & 0xF;
    if (family == 0xF) family += (eax >> 20) & 0xFF;
    return family == 0x19;
#else
    return 0;
#endif
}

int bl_tuning_for(int isa) {
#if defined(__x86_64__)
    if (isa == BL_ISA_AVX512 && bl_is_zen4()) return BL_TUNING_ZEN4;
#endif
    (void)isa;
    return BL_TUNING_NONE;
}

int bl_zen4_fir_isa(int radius) { return radius <= BL_ZEN4_AVX2_FIR_MAX_RADIUS ? BL_ISA_AVX2 : BL_ISA_AVX512; }

#if defined(__x86_64__)
/* Zen 4's fixed-point FIR: each kernel to the build `bl_zen4_fir_isa` names for its radius. */
static void bl_fixed_fir_rows_zen4(const bl_layout *layout, const bl_fixed_kernel *kernel, const uint8_t *source,
                                   uint8_t *destination, int row_begin, int row_end) {
    const bl_kernels *table = bl_zen4_fir_isa(kernel->radius) == BL_ISA_AVX2 ? &bl_kernels_avx2 : &bl_kernels_avx512;
    table->fixed_fir_rows(layout, kernel, source, destination, row_begin, row_end);
}
#endif

bl_kernels bl_kernels_tuned(int isa, int tuning) {
    bl_kernels table = *bl_kernels_for(isa);
#if defined(__x86_64__)
    if (tuning == BL_TUNING_ZEN4 && isa == BL_ISA_AVX512) table.fixed_fir_rows = bl_fixed_fir_rows_zen4;
#endif
    return table;
}
