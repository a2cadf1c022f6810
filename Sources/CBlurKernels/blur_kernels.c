#include "blur_kernels.h"
#include <stdlib.h>
#include <string.h>

/* No fused multiply-add: the same binary must give the same bytes on every x86-64 machine,
   whichever clone below runs. */
#pragma clang fp contract(off)

#if defined(__x86_64__) && defined(__clang__)
#define BL_MULTIVERSION __attribute__((target_clones("avx2", "default")))
#else
#define BL_MULTIVERSION
#endif

#define FIR_BLOCK 64

#if defined(__x86_64__)
#include <xmmintrin.h>

/* aligned_alloc wants a size that is a multiple of the alignment (C11); round it up. */
static void *aligned_alloc64(size_t size) { return aligned_alloc(64, (size + 63) & ~(size_t)63); }
/* Denormals (signals decaying into empty areas) are flushed to zero: they are far below an 8-bit
   level, and arithmetic on them is a hundred times slower. */
#define FAST_FLOATS_BEGIN unsigned int saved_csr = _mm_getcsr(); _mm_setcsr(saved_csr | 0x8040);
#define FAST_FLOATS_END _mm_setcsr(saved_csr);
#else
#define FAST_FLOATS_BEGIN
#define FAST_FLOATS_END
#endif

static inline uint8_t to_byte(float v) {
    v += 0.5f;
    v = v < 0.0f ? 0.0f : v;
    v = v > 255.0f ? 255.0f : v;
    return (uint8_t)(int)v;
}

/* One row through the horizontal FIR: 8-bit samples in, floats out (row_length of them). */
static inline __attribute__((always_inline)) void fir_row(const bl_layout *L, const float *w, int radius,
                                                          const uint8_t *row, float *padded, float *out) {
    const int ch = L->channels, n = L->row_length, pad = radius * ch;
    float *p = padded + pad;
    for (int i = 0; i < n; i++) p[i] = (float)row[i];
    for (int i = n; i < L->float_stride + FIR_BLOCK; i++) p[i] = 0.0f;
    for (int i = 0; i < pad; i++) {
        int k = i % ch;
        p[i - pad] = L->clamp ? (float)row[k] : 0.0f;
        p[n + i] = L->clamp ? (float)row[n - ch + k] : 0.0f;
    }
    for (int j0 = 0; j0 < n; j0 += FIR_BLOCK) {
        float acc[FIR_BLOCK];
        for (int j = 0; j < FIR_BLOCK; j++) acc[j] = w[0] * p[j0 + j];
        for (int k = 1; k <= radius; k++) {
            const float *left = p + j0 - k * ch, *right = p + j0 + k * ch;
            const float wk = w[k];
            for (int j = 0; j < FIR_BLOCK; j++) acc[j] += wk * (left[j] + right[j]);
        }
        memcpy(out + j0, acc, sizeof acc);
    }
}

BL_MULTIVERSION
void bl_fir_rows(const bl_layout *L, const float *w, int radius,
                 const uint8_t *source, uint8_t *destination, int row_begin, int row_end) {
    FAST_FLOATS_BEGIN
    const int h = L->height, n = L->row_length, ch = L->channels;
    const int slots = 2 * radius + 1;
    const size_t stride = (size_t)L->float_stride + FIR_BLOCK;
    float *ring = (float *)aligned_alloc64(sizeof(float) * stride * (size_t)slots);
    float *zero = (float *)aligned_alloc64(sizeof(float) * stride);
    float *padded = (float *)aligned_alloc64(sizeof(float) * (stride + 2 * (size_t)radius * ch + FIR_BLOCK + 16));
    const float **rows = (const float **)malloc(sizeof(float *) * (size_t)slots);
    if (!ring || !zero || !padded || !rows) abort();
    memset(zero, 0, sizeof(float) * stride);
    int filtered_up_to = row_begin - radius - 1; /* rows of the image already in the ring */
    for (int y = row_begin; y < row_end; y++) {
        /* Horizontally filter the rows this output row needs that are not in the ring yet. */
        int first = y - radius > filtered_up_to + 1 ? y - radius : filtered_up_to + 1;
        for (int k = first; k <= y + radius; k++) {
            if (k < 0 || k >= h) continue;
            fir_row(L, w, radius, source + (size_t)k * n, padded, ring + (size_t)(k % slots) * stride);
        }
        filtered_up_to = y + radius;
        for (int k = -radius; k <= radius; k++) {
            int r = y + k;
            if (L->clamp) r = r < 0 ? 0 : (r >= h ? h - 1 : r);
            rows[k + radius] = (r < 0 || r >= h) ? zero : ring + (size_t)(r % slots) * stride;
        }
        uint8_t *out = destination + (size_t)y * n;
        const float *centre = rows[radius];
        for (int j0 = 0; j0 < n; j0 += FIR_BLOCK) {
            float acc[FIR_BLOCK];
            for (int j = 0; j < FIR_BLOCK; j++) acc[j] = w[0] * centre[j0 + j];
            for (int k = 1; k <= radius; k++) {
                const float *a = rows[radius - k] + j0, *b = rows[radius + k] + j0;
                const float wk = w[k];
                for (int j = 0; j < FIR_BLOCK; j++) acc[j] += wk * (a[j] + b[j]);
            }
            int count = n - j0 < FIR_BLOCK ? n - j0 : FIR_BLOCK;
            if (count == FIR_BLOCK) for (int j = 0; j < FIR_BLOCK; j++) out[j0 + j] = to_byte(acc[j]);
            else for (int j = 0; j < count; j++) out[j0 + j] = to_byte(acc[j]);
        }
    }
    free(ring); free(zero); free(padded); free(rows);
    FAST_FLOATS_END
}

/* One line of LANES independent signals: a causal sweep into `scratch`, then an anticausal
   sweep that adds its half; `finished` receives each output sample through the caller's macro. */
#define DERICHE_LINE(LANES, COUNT, LOAD, FINISH)                                                       \
    do {                                                                                        \
        const bl_section s = sections[0], t = sections[1];                                      \
        float x1[LANES], a1[LANES], a2[LANES], b1[LANES], b2[LANES];             \
        const float *first = LOAD(0), *last = LOAD((COUNT) - 1);                                 \
        for (int l = 0; l < LANES; l++) {                                                    \
            float e = L->clamp ? first[l] : 0.0f;                                               \
            x1[l] = e; a1[l] = a2[l] = e * s.causal_gain; b1[l] = b2[l] = e * t.causal_gain;    \
        }                                                                                       \
        for (int i = 0; i < (COUNT); i++) {                                                     \
            const float *x = LOAD(i);                                                           \
            float *out = scratch + (size_t)i * LANES;                                        \
            for (int l = 0; l < LANES; l++) {                                                \
                float ya = (s.n0 * x[l] + s.n1 * x1[l] + s.p2 * a2[l]) + s.p1 * a1[l];            \
                float yb = (t.n0 * x[l] + t.n1 * x1[l] + t.p2 * b2[l]) + t.p1 * b1[l];            \
                a2[l] = a1[l]; a1[l] = ya; b2[l] = b1[l]; b1[l] = yb; x1[l] = x[l];             \
                out[l] = ya + yb;                                                               \
            }                                                                                   \
        }                                                                                       \
        float xn1[LANES], xn2[LANES], result[LANES];                                  \
        for (int l = 0; l < LANES; l++) {                                                    \
            float e = L->clamp ? last[l] : 0.0f;                                                \
            xn1[l] = xn2[l] = e; a1[l] = a2[l] = e * s.anticausal_gain;                         \
            b1[l] = b2[l] = e * t.anticausal_gain;                                              \
        }                                                                                       \
        for (int i = (COUNT) - 1; i >= 0; i--) {                                                \
            const float *x = LOAD(i);                                                           \
            const float *causal = scratch + (size_t)i * LANES;                               \
            for (int l = 0; l < LANES; l++) {                                                \
                float za = (s.m1 * xn1[l] + s.m2 * xn2[l] + s.p2 * a2[l]) + s.p1 * a1[l];         \
                float zb = (t.m1 * xn1[l] + t.m2 * xn2[l] + t.p2 * b2[l]) + t.p1 * b1[l];         \
                a2[l] = a1[l]; a1[l] = za; b2[l] = b1[l]; b1[l] = zb;                           \
                xn2[l] = xn1[l]; xn1[l] = x[l];                                                 \
                result[l] = causal[l] + (za + zb);                                              \
            }                                                                                   \
            FINISH(i, result);                                                                  \
        }                                                                                       \
    } while (0)

/* Transposing helpers for the horizontal recursive pass, one per channel count so every loop
   has a constant trip count (and none becomes a call to memcpy). */
static inline __attribute__((always_inline)) void fill_block_rgba(float *block, const uint8_t *source, const bl_layout *L, int y0, int rows) {
    for (int x = 0; x < L->width; x++) {
        float *b = block + (size_t)x * BL_LANES;
        for (int r = 0; r < BL_LANES / 4; r++) {
            const uint8_t *p = source + (size_t)(y0 + (r < rows ? r : rows - 1)) * L->row_length + (size_t)x * 4;
            b[r * 4 + 0] = (float)p[0]; b[r * 4 + 1] = (float)p[1];
            b[r * 4 + 2] = (float)p[2]; b[r * 4 + 3] = (float)p[3];
        }
    }
}

static inline __attribute__((always_inline)) void fill_block_mask(float *block, const uint8_t *source, const bl_layout *L, int y0, int rows) {
    const uint8_t *row[BL_LANES];
    for (int r = 0; r < BL_LANES; r++) row[r] = source + (size_t)(y0 + (r < rows ? r : rows - 1)) * L->row_length;
    for (int x = 0; x < L->width; x++) {
        float *b = block + (size_t)x * BL_LANES;
        for (int r = 0; r < BL_LANES; r++) b[r] = (float)row[r][x];
    }
}

/* The recursive passes keep their intermediate plane strip-major: strip s (samples 16s to
   16s+15 of every row) is one contiguous block of height × BL_LANES floats, so the vertical pass
   streams through memory instead of striding a whole row (32 KB) per step. */
static inline float *strip_major(float *plane, const bl_layout *L, int y, int sample) {
    return plane + ((size_t)(sample / BL_LANES) * (size_t)L->height + (size_t)y) * BL_LANES + sample % BL_LANES;
}

/* A filtered group (scratch: width × BL_LANES floats, x-major) into the strip-major plane:
   each strip's rows of the group are one contiguous run, written whole. */
static inline __attribute__((always_inline)) void store_group_rgba(float *plane, const bl_layout *L, int y0, int rows, const float *scratch) {
    const int strips = (L->row_length + BL_LANES - 1) / BL_LANES;
    for (int s = 0; s < strips; s++) {
        float block[BL_LANES / 4][BL_LANES]; /* [row][4 pixels × 4 channels] */
        for (int p = 0; p < 4; p++) {
            int x = s * 4 + p;
            const float *v = scratch + (size_t)(x < L->width ? x : 0) * BL_LANES;
            float keep = x < L->width ? 1.0f : 0.0f; /* the last strip's unused lanes stay zero */
            for (int r = 0; r < BL_LANES / 4; r++)
                for (int c = 0; c < 4; c++) block[r][p * 4 + c] = v[r * 4 + c] * keep;
        }
        for (int r = 0; r < rows; r++) memcpy(strip_major(plane, L, y0 + r, s * BL_LANES), block[r], sizeof block[r]);
    }
}

static inline __attribute__((always_inline)) void store_group_mask(float *plane, const bl_layout *L, int y0, int rows, const float *scratch) {
    const int strips = (L->row_length + BL_LANES - 1) / BL_LANES;
    for (int s = 0; s < strips; s++) {
        float block[BL_LANES][BL_LANES]; /* [row][16 pixels] */
        for (int p = 0; p < BL_LANES; p++) {
            int x = s * BL_LANES + p;
            const float *v = scratch + (size_t)(x < L->width ? x : 0) * BL_LANES;
            float keep = x < L->width ? 1.0f : 0.0f;
            for (int r = 0; r < BL_LANES; r++) block[r][p] = v[r] * keep;
        }
        for (int r = 0; r < rows; r++) memcpy(strip_major(plane, L, y0 + r, s * BL_LANES), block[r], sizeof block[r]);
    }
}

BL_MULTIVERSION
void bl_deriche_horizontal(const bl_layout *L, const bl_section sections[2],
                           const uint8_t *source, float *plane, int group_begin, int group_end) {
    FAST_FLOATS_BEGIN
    const int w = L->width, ch = L->channels, rows_per_group = BL_LANES / ch;
    float *block = (float *)aligned_alloc64(sizeof(float) * (size_t)w * BL_LANES);
    float *scratch = (float *)aligned_alloc64(sizeof(float) * (size_t)w * BL_LANES);
    if (!block || !scratch) abort();
    for (int g = group_begin; g < group_end; g++) {
        const int y0 = g * rows_per_group;
        const int rows = L->height - y0 < rows_per_group ? L->height - y0 : rows_per_group;
        if (ch == 4) fill_block_rgba(block, source, L, y0, rows);
        else fill_block_mask(block, source, L, y0, rows);
#define LOAD_BLOCK(i) (block + (size_t)(i) * BL_LANES)
#define STORE_ROWS(i, v) memcpy(scratch + (size_t)(i) * BL_LANES, v, sizeof(float) * BL_LANES);
        DERICHE_LINE(BL_LANES, w, LOAD_BLOCK, STORE_ROWS);
        if (ch == 4) store_group_rgba(plane, L, y0, rows, scratch);
        else store_group_mask(plane, L, y0, rows, scratch);
#undef LOAD_BLOCK
#undef STORE_ROWS
    }
    free(block);
    free(scratch);
    FAST_FLOATS_END
}

/* Premultiplied colour never exceeds alpha; the recursive filter's tiny negative lobes could
   otherwise push a channel one level over. */
static inline __attribute__((always_inline)) void clamp_colour_to_alpha(float *v) {
    for (int l = 0; l < BL_LANES; l++) {
        float a = v[(l & ~3) + 3];
        v[l] = v[l] < a ? v[l] : a;
    }
}

BL_MULTIVERSION
void bl_deriche_vertical(const bl_layout *L, const bl_section sections[2],
                         const float *plane, uint8_t *destination, int strip_begin, int strip_end) {
    FAST_FLOATS_BEGIN
    const int h = L->height, n = L->row_length, ch = L->channels;
    float *scratch = (float *)aligned_alloc64(sizeof(float) * (size_t)h * BL_LANES);
    if (!scratch) abort();
    for (int strip = strip_begin; strip < strip_end; strip++) {
        const int j = strip * BL_LANES;
        const int count = n - j < BL_LANES ? n - j : BL_LANES;
        const float *column = plane + (size_t)strip * (size_t)h * BL_LANES;
#define LOAD_PLANE(i) (column + (size_t)(i) * BL_LANES)
#define STORE_BYTES(i, v)                                                                       \
        {                                                                                       \
            uint8_t *q = destination + (size_t)(i) * n + j;                                     \
            if (ch == 4) clamp_colour_to_alpha(v);                                             \
            if (count == BL_LANES) { for (int l = 0; l < BL_LANES; l++) q[l] = to_byte((v)[l]); } \
            else { for (int l = 0; l < count; l++) q[l] = to_byte((v)[l]); }                   \
        }
        DERICHE_LINE(BL_LANES, h, LOAD_PLANE, STORE_BYTES);
#undef LOAD_PLANE
#undef STORE_BYTES
    }
    free(scratch);
    FAST_FLOATS_END
}
