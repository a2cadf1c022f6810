#ifndef BLURLABEL_BLUR_KERNELS_H
#define BLURLABEL_BLUR_KERNELS_H
/* The inner loops of the Gaussian blur: plain C that the compiler vectorizes, compiled once per
   x86-64 CPU variant (baseline SSE2, x86-64-v2, AVX, AVX2, AVX-512) because Swift cannot compile
   one function for several instruction sets. The variant is chosen once, after start, by the
   Swift side (Blur/BlurKernelVariant.swift) from `bl_isa_supported`, and called through the
   `bl_kernels` table of that variant: no ifunc or target_clones, whose resolvers run before
   sanitizer runtimes are up. Every variant gives the same bytes (no fused multiply-add). Planning (which filter, which coefficients, which rows
   go to which thread) stays in Swift (Blur/BlurPlan.swift, Blur/GaussianBlur.swift).

   Data: 8-bit interleaved samples, `row_length` = width * channels bytes a row; an intermediate
   float plane with rows `float_stride` floats apart (a multiple of BL_LANES). Every function
   handles a range of rows, row groups or column strips, and computes each one the same way
   whatever the range, so results never depend on how work is split between threads. */
#include <stddef.h>
#include <stdint.h>

/* Samples filtered together by the recursive passes: a group of rows transposed (horizontal),
   or a strip of 16 samples of every row (vertical). */
#define BL_LANES 16

typedef struct {
    int width, height, channels; /* channels: 1 or 4 */
    int row_length;              /* width * channels */
    int float_stride;            /* >= row_length, a multiple of BL_LANES */
    int clamp;                   /* 1: outside repeats the edge; 0: outside is empty */
} bl_layout;

/* One second-order section of Deriche's filter, causal and anticausal halves. */
typedef struct {
    float n0, n1, m1, m2, p1, p2;
    float causal_gain, anticausal_gain; /* steady-state output for a constant input of 1 */
} bl_section;

/* The most taps each side a fixed-point FIR may have (σ below 9 at ±3.5σ needs 32). */
#define BL_FIXED_MAX_RADIUS 32

/* A symmetric FIR in fixed point, for small sigmas: 16-bit lanes, exact integer arithmetic, so
   twice the lanes of float and the same bytes on every machine. The horizontal pass turns
   samples x (as x * 128) into Q7 sums: bias + Σ mulhi(pair, horizontal[k]) with weights in Q16
   (horizontal[0] the centre, on x alone). The vertical pass turns those into Q8 sums with weights
   in Q17: bias + (centre_whole ? h : 0) + mulhi(h, vertical[0]) + Σ mulhi(pair, vertical[k]),
   and the output byte is the sum >> 8. Each bias holds the rounding (the vertical one also the
   +0.5 level that rounds to nearest). */
/* Added to every sample (x * 128) before the horizontal pass; it comes out as 2 * offset in the
   vertical pass's Q8 sums, where the vertical bias takes it off again. */
#define BL_FIXED_OFFSET 64

typedef struct {
    int radius;
    int tile_samples; /* column tile width in samples, a multiple of channels (0: the whole row) */
    int vertical_centre_whole;
    uint16_t horizontal_bias, vertical_bias;
    uint16_t horizontal[BL_FIXED_MAX_RADIUS + 1];
    uint16_t vertical[BL_FIXED_MAX_RADIUS + 1];
} bl_fixed_kernel;

/* Both passes in one sweep down the rows: the horizontally filtered rows an output row needs are
   kept in a ring of 2*radius+4 rows (four output rows are computed per step; for radius 1-4, two
   rows and a ring of 2*radius+2), so no full-size intermediate plane is made. */
typedef void (*bl_fixed_fir_rows_fn)(const bl_layout *layout, const bl_fixed_kernel *kernel,
                                     const uint8_t *source, uint8_t *destination, int row_begin, int row_end);

/* Deriche's recursive filter, two sections. Horizontal works on groups of BL_LANES/channels
   rows; vertical on strips of BL_LANES samples of a row. */
typedef void (*bl_deriche_horizontal_fn)(const bl_layout *layout, const bl_section sections[2],
                                         const uint8_t *source, float *plane, int group_begin, int group_end);
typedef void (*bl_deriche_vertical_fn)(const bl_layout *layout, const bl_section sections[2],
                                       const float *plane, uint8_t *destination, int strip_begin, int strip_end);

/* An opaque RGBA picture's `count` pixels as three planes of red, green and blue, and back
   (alpha 255): the blur of an opaque picture runs on the planes, a quarter fewer samples. */
typedef void (*bl_split_rgb_fn)(const uint8_t *rgba, size_t count, uint8_t *red, uint8_t *green, uint8_t *blue);
typedef void (*bl_join_rgb_fn)(const uint8_t *red, const uint8_t *green, const uint8_t *blue, size_t count,
                               uint8_t *rgba);

/* One CPU variant's kernels. */
typedef struct {
    bl_fixed_fir_rows_fn fixed_fir_rows;
    bl_deriche_horizontal_fn deriche_horizontal;
    bl_deriche_vertical_fn deriche_vertical;
    bl_split_rgb_fn split_rgb;
    bl_join_rgb_fn join_rgb;
} bl_kernels;

/* The CPU variants, narrowest first. */
typedef enum {
    BL_ISA_BASELINE = 0, /* x86-64: SSE2 (or the target's plain build elsewhere) */
    BL_ISA_V2 = 1,       /* x86-64-v2: SSE4.2, POPCNT */
    BL_ISA_AVX = 2,      /* x86-64-v2 plus AVX (Sandy/Ivy Bridge): no AVX2 */
    BL_ISA_AVX2 = 3,     /* x86-64-v3: AVX2, FMA (not used for arithmetic), BMI2 */
    BL_ISA_AVX512 = 4,   /* x86-64-v4: AVX-512 F, BW, DQ, VL, CD */
    BL_ISA_COUNT = 5
} bl_isa;

/* 1 when this CPU (and its operating system) can run the variant, else 0. */
int bl_isa_supported(int isa);

/* The variant's kernels, or NULL for a variant not built for this target. Only call variants
   for which bl_isa_supported answers 1. */
const bl_kernels *bl_kernels_for(int isa);

/* Micro-architectures whose best table mixes variants (every variant gives the same bytes, so a
   mix does too). */
typedef enum {
    BL_TUNING_NONE = 0, /* the variant's own table */
    BL_TUNING_ZEN4 = 1  /* AMD Zen 4 with AVX-512: the smallest fixed-point FIRs from the AVX2 build */
} bl_tuning;

/* On Zen 4 the FIR's AVX2 build is the faster up to this radius (σ up to about 1.1: the kernels
   compiled with their radius known, two output rows a step), its AVX-512 build beyond (2048²,
   one core: RGBA σ 1 4.3 against 5.0 ms; σ 1.2 6.7 against 6.0, σ 8 22.3 against 18.3; issue 44). */
#define BL_ZEN4_AVX2_FIR_MAX_RADIUS 4

/* The variant whose FIR a Zen 4 table runs for a kernel of `radius`: BL_ISA_AVX2 or BL_ISA_AVX512. */
int bl_zen4_fir_isa(int radius);

/* The tuning for this CPU when `isa` is the variant it runs (asks the CPU's vendor and family only
   when that could change the table: AVX-512). */
int bl_tuning_for(int isa);

/* `isa`'s kernel table with `tuning` applied (a supported variant; BL_TUNING_ZEN4 runs the AVX2
   FIR for small radii, so AVX2 must be supported too, as it is wherever AVX-512 is). */
bl_kernels bl_kernels_tuned(int isa, int tuning);

#endif
