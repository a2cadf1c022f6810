/* The blur's inner loops, written once and compiled once per CPU variant: each kernels_*.c file
   defines BL_VARIANT(name) (the variant's suffix) and wraps this file in a target attribute.
   Nothing here may depend on the variant but speed: every variant gives the same bytes. No
   #include here (system headers must stay outside the target region). */

/* No fused multiply-add: the same binary must give the same bytes on every x86-64 machine,
   whichever variant runs. */
#pragma clang fp contract(off)


#if defined(__x86_64__)
/* Denormals (signals decaying into empty areas) are flushed to zero: they are far below an 8-bit
   level, and arithmetic on them is a hundred times slower. */
#define FAST_FLOATS_BEGIN unsigned int saved_csr = _mm_getcsr(); _mm_setcsr(saved_csr | 0x8040);
#define FAST_FLOATS_END _mm_setcsr(saved_csr);
#else
#define FAST_FLOATS_BEGIN
#define FAST_FLOATS_END
#endif

/* aligned_alloc's size must be a multiple of the alignment (C11; sanitizers refuse others). */
static inline void *bl_aligned_alloc(size_t bytes) { return aligned_alloc(64, (bytes + 63) & ~(size_t)63); }

static inline uint8_t to_byte(float v) {
    v += 0.5f;
    v = v < 0.0f ? 0.0f : v;
    v = v > 255.0f ? 255.0f : v;
    return (uint8_t)(int)v;
}

/* 16-bit lanes, as wide as the variant's registers (BL_VECTOR_BYTES, set by its kernels_*.c).
   The vectors are spelled out: from plain loops the compiler widens mulhi to 32-bit lanes. */
typedef uint16_t u16v __attribute__((vector_size(BL_VECTOR_BYTES)));
typedef uint8_t u8v __attribute__((vector_size(BL_VECTOR_BYTES / 2)));
#define U16_LANES (BL_VECTOR_BYTES / 2)
/* Samples a fixed-point FIR step computes together: eight registers of accumulators. */
#define FIXED_VECTORS 8
#define FIXED_BLOCK (FIXED_VECTORS * U16_LANES)

static inline __attribute__((always_inline)) u16v load_u16v(const uint16_t *p) { u16v v; memcpy(&v, p, sizeof v); return v; }
static inline __attribute__((always_inline)) void store_u16v(uint16_t *p, u16v v) { memcpy(p, &v, sizeof v); }
static inline __attribute__((always_inline)) u16v splat_u16v(uint16_t x) { u16v v = {0}; return v + x; }

/* (a * b) >> 16 per 16-bit lane: pmulhuw. */
static inline __attribute__((always_inline)) u16v mul_high(u16v a, u16v b) {
#if BL_VECTOR_BYTES == 64
    return (u16v)_mm512_mulhi_epu16((__m512i)a, (__m512i)b);
#elif BL_VECTOR_BYTES == 32
    return (u16v)_mm256_mulhi_epu16((__m256i)a, (__m256i)b);
#elif defined(__x86_64__)
    return (u16v)_mm_mulhi_epu16((__m128i)a, (__m128i)b);
#else
    u16v r;
    for (int i = 0; i < U16_LANES; i++) r[i] = (uint16_t)(((uint32_t)a[i] * b[i]) >> 16);
    return r;
#endif
}

/* Bytes of two vectors of 16-bit values below 256, in order, as one full register (so a block
   of output is written with full-width stores). */
typedef uint8_t u8w __attribute__((vector_size(BL_VECTOR_BYTES)));
static inline __attribute__((always_inline)) u8w pack_bytes(u16v a, u16v b) {
#if BL_VECTOR_BYTES == 64
    __m512i packed = _mm512_packus_epi16((__m512i)a, (__m512i)b); /* per 128-bit lane: a0 b0 a1 b1 ... */
    return (u8w)_mm512_permutexvar_epi64(_mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7), packed);
#elif BL_VECTOR_BYTES == 32
    return (u8w)_mm256_permute4x64_epi64(_mm256_packus_epi16((__m256i)a, (__m256i)b), 0xD8);
#elif defined(__x86_64__)
    return (u8w)_mm_packus_epi16((__m128i)a, (__m128i)b);
#else
    u8w r;
    for (int i = 0; i < U16_LANES; i++) { r[i] = (uint8_t)a[i]; r[i + U16_LANES] = (uint8_t)b[i]; }
    return r;
#endif
}

/* Registers of output a horizontal step by class computes together. */
#define ROW_VECTORS 4

/* Whether a row is filtered by class (`fixed_row_vectors`) or a tap at a time for eight
   registers: RGBA always (as fast at one tap a class, 11-24% faster from σ 2.5 to 8 on Zen 4,
   AVX2); a mask only where its classes (a register's width of taps each) hold one and a half
   taps on average or more: at one tap a class the 4 registers' step cost masks at σ 2.5-4 about
   5%. */
#define ROW_BY_CLASS(radius, ch) ((ch) == 4 || 2 * (radius) >= 3 * (U16_LANES / (ch)))

/* ROW_VECTORS registers of the horizontal FIR's sums, from the padded samples at `p` to `out`.
   A register holds `taps = U16_LANES / ch` pixels, so tap k + taps's left samples for register v
   are tap k's for register v - 1 (and its right ones tap k's for v + 1): the taps are taken one
   residue class at a time (k, k + taps, k + 2 taps…), four registers of samples kept each side
   and one load each side a tap, instead of two loads a tap and register. Integer sums (wrapping
   16-bit adds of the same products): the order changes no bit. */
static inline __attribute__((always_inline)) void fixed_row_vectors(const bl_fixed_kernel *K, const int radius, const int ch,
                                                                    const int unrolled, const uint16_t *p, uint16_t *out) {
    const int taps = U16_LANES / ch, L = U16_LANES;
    const u16v bias = splat_u16v(K->horizontal_bias), centre = splat_u16v(K->horizontal[0]);
    u16v acc0 = bias + mul_high(load_u16v(p), centre), acc1 = bias + mul_high(load_u16v(p + L), centre);
    u16v acc2 = bias + mul_high(load_u16v(p + 2 * L), centre), acc3 = bias + mul_high(load_u16v(p + 3 * L), centre);
    /* Class `first`: the left samples of step m (tap k = first + m * taps) for register v are
       p[-k * ch + v * L] = left stream m - v, the right ones right stream m - 3 + v. A step loads
       the newest of each into the register that held the oldest: ROW_STEP(k, new, the three
       before it newest first) for each side, the roles turning round every four steps. The
       three before step 0 start as the streams' values one, two and three steps earlier. */
#define ROW_STEP(k, l0, l1, l2, l3, r0, r1, r2, r3)                                               \
    {                                                                                             \
        l0 = load_u16v(p - (k) * ch);                                                             \
        r0 = load_u16v(p + 3 * L + (k) * ch);                                                     \
        const u16v wk = splat_u16v(K->horizontal[k]);                                             \
        acc0 += mul_high(l0 + r3, wk);                                                            \
        acc1 += mul_high(l1 + r2, wk);                                                            \
        acc2 += mul_high(l2 + r1, wk);                                                            \
        acc3 += mul_high(l3 + r0, wk);                                                            \
    }
#define ROW_CLASS(first)                                                                          \
    {                                                                                             \
        u16v la = load_u16v(p + L - (first) * ch), lb = load_u16v(p + 2 * L - (first) * ch);      \
        u16v lc = load_u16v(p + 3 * L - (first) * ch), ld;                                        \
        u16v ra = load_u16v(p + 2 * L + (first) * ch), rb = load_u16v(p + L + (first) * ch);      \
        u16v rc = load_u16v(p + (first) * ch), rd;                                                \
        int k = (first);                                                                          \
        for (; k + 3 * taps <= radius; k += 4 * taps) {                                           \
            ROW_STEP(k, ld, la, lb, lc, rd, ra, rb, rc)                                           \
            ROW_STEP(k + taps, lc, ld, la, lb, rc, rd, ra, rb)                                    \
            ROW_STEP(k + 2 * taps, lb, lc, ld, la, rb, rc, rd, ra)                                \
            ROW_STEP(k + 3 * taps, la, lb, lc, ld, ra, rb, rc, rd)                                \
        }                                                                                         \
        if (k <= radius) ROW_STEP(k, ld, la, lb, lc, rd, ra, rb, rc)                              \
        if (k + taps <= radius) ROW_STEP(k + taps, lc, ld, la, lb, rc, rd, ra, rb)                \
        if (k + 2 * taps <= radius) ROW_STEP(k + 2 * taps, lb, lc, ld, la, rb, rc, rd, ra)        \
    }
    if (unrolled) {
#pragma unroll
        for (int first = 1; first <= taps && first <= radius; first++) ROW_CLASS(first)
    } else {
        for (int first = 1; first <= taps && first <= radius; first++) ROW_CLASS(first)
    }
#undef ROW_CLASS
#undef ROW_STEP
    store_u16v(out, acc0);
    store_u16v(out + L, acc1);
    store_u16v(out + 2 * L, acc2);
    store_u16v(out + 3 * L, acc3);
}

/* One tile of a row through the horizontal fixed-point FIR: 8-bit samples in, Q7 sums out (`tw`
   16-bit values from sample x0, 128 per level, plus BL_FIXED_OFFSET). `padded` holds the tile as
   x * 128 + BL_FIXED_OFFSET with the `pad` samples beyond each side (from the row, or the edge
   rule outside it), so a left + right pair (at most 2 * (255 * 128 + 64) = 65408) fits 16 bits.
   The offset keeps every product off zero, so each truncation loses half a unit on average
   everywhere, empty areas included, and the biases make up for exactly that. */
static inline __attribute__((always_inline)) void fixed_fir_row(const bl_layout *L, const bl_fixed_kernel *K, const int radius,
                                                                const int ch, const int unrolled, const uint8_t *row, int x0, int tw,
                                                                uint16_t *padded, uint16_t *out) {
    const int n = L->row_length, pad = radius * ch;
    uint16_t *p = padded + pad;
    const int left_end = -x0 < tw + pad ? -x0 : tw + pad;                 /* samples before the row */
    const int inside_begin = -x0 > -pad ? -x0 : -pad;
    const int inside_end = n - x0 < tw + pad ? n - x0 : tw + pad;
    for (int i = -pad; i < left_end; i++) {
        int channel = ((x0 + i) % ch + ch) % ch;
        p[i] = (uint16_t)((L->clamp ? row[channel] << 7 : 0) + BL_FIXED_OFFSET);
    }
    for (int i = inside_begin; i < inside_end; i++) p[i] = (uint16_t)((row[x0 + i] << 7) + BL_FIXED_OFFSET);
    for (int i = inside_end > -pad ? inside_end : -pad; i < tw + pad; i++) { /* samples after the row */
        int channel = (x0 + i - n) % ch;
        p[i] = (uint16_t)((L->clamp ? row[n - ch + channel] << 7 : 0) + BL_FIXED_OFFSET);
    }
    for (int i = tw + pad; i < tw + pad + FIXED_BLOCK; i++) p[i] = 0;
    if (ROW_BY_CLASS(radius, ch)) {
        for (int j0 = 0; j0 < tw; j0 += FIXED_BLOCK)
            for (int v = 0; v < FIXED_VECTORS; v += ROW_VECTORS)
                fixed_row_vectors(K, radius, ch, unrolled, p + j0 + v * U16_LANES, out + j0 + v * U16_LANES);
        return;
    }
    const u16v bias = splat_u16v(K->horizontal_bias), centre = splat_u16v(K->horizontal[0]);
    for (int j0 = 0; j0 < tw; j0 += FIXED_BLOCK) {
        u16v acc[FIXED_VECTORS];
        for (int v = 0; v < FIXED_VECTORS; v++) acc[v] = bias + mul_high(load_u16v(p + j0 + v * U16_LANES), centre);
#define FIXED_ROW_TAP(k)                                                                          \
        {                                                                                         \
            const uint16_t *left = p + j0 - (k) * ch, *right = p + j0 + (k) * ch;                 \
            const u16v wk = splat_u16v(K->horizontal[k]);                                         \
            for (int v = 0; v < FIXED_VECTORS; v++)                                               \
                acc[v] += mul_high(load_u16v(left + v * U16_LANES) + load_u16v(right + v * U16_LANES), wk); \
        }
        if (unrolled) {
            /* radius known: every tap inline, its weight in a register (the compiler keeps the
               mask's radius-4 loop rolled otherwise) */
#pragma unroll
            for (int k = 1; k <= radius; k++) FIXED_ROW_TAP(k)
        } else {
            for (int k = 1; k <= radius; k++) FIXED_ROW_TAP(k)
        }
#undef FIXED_ROW_TAP
        for (int v = 0; v < FIXED_VECTORS; v++) store_u16v(out + j0 + v * U16_LANES, acc[v]);
    }
}

/* The vertical pass for one output row: `rows[i]` is the filtered row y - radius + i (2r+1 of
   them), `tw` samples to `out`. */
static inline __attribute__((always_inline)) void fixed_vertical_row(const bl_fixed_kernel *K, const int radius,
                                                                     const uint16_t *const *rows, int tw, uint8_t *out,
                                                                     const uint8_t *next) {
    const u16v bias = splat_u16v(K->vertical_bias), centre = splat_u16v(K->vertical[0]);
    const u16v whole = splat_u16v(K->vertical_centre_whole ? 0xFFFF : 0);
    const uint16_t *mid = rows[radius];
    for (int j0 = 0; j0 < tw; j0 += FIXED_BLOCK) {
        if (next) for (int b = 0; b < FIXED_BLOCK; b += 64) __builtin_prefetch(next + j0 + b);
        /* Q8 sums: the centre weight (Q17) may be 1 or more, split as whole + fraction. */
        u16v acc[FIXED_VECTORS];
        for (int v = 0; v < FIXED_VECTORS; v++) {
            u16v m = load_u16v(mid + j0 + v * U16_LANES);
            acc[v] = bias + (m & whole) + mul_high(m, centre);
        }
        for (int k = 1; k <= radius; k++) {
            const uint16_t *a = rows[radius - k] + j0, *b = rows[radius + k] + j0;
            const u16v wk = splat_u16v(K->vertical[k]);
            for (int v = 0; v < FIXED_VECTORS; v++)
                acc[v] += mul_high(load_u16v(a + v * U16_LANES) + load_u16v(b + v * U16_LANES), wk);
        }
        if (tw - j0 >= FIXED_BLOCK) { /* a whole block: straight to the row, full-width stores */
            for (int v = 0; v < FIXED_VECTORS; v += 2) {
                u8w b = pack_bytes(acc[v] >> 8, acc[v + 1] >> 8);
                memcpy(out + j0 + v * U16_LANES, &b, sizeof b);
            }
        } else {
            uint8_t bytes[FIXED_BLOCK];
            for (int v = 0; v < FIXED_VECTORS; v += 2) {
                u8w b = pack_bytes(acc[v] >> 8, acc[v + 1] >> 8);
                memcpy(bytes + v * U16_LANES, &b, sizeof b);
            }
            memcpy(out + j0, bytes, (size_t)(tw - j0));
        }
    }
}

/* Samples a two-row vertical step computes together per row. */
#define PAIR_VECTORS 2
#define PAIR_BLOCK (PAIR_VECTORS * U16_LANES)

/* The vertical pass for output rows y and y + 1 together: `rows[i]` is the filtered row
   y - radius + i (2r+2 of them). Each filtered row is loaded once for both outputs (row y pairs
   rows y-k and y+k, row y+1 pairs y+1-k and y+1+k), so the ring is read about half as often as
   one row at a time; every sum is the same as `fixed_vertical_row`'s (integer adds). `whole` is
   K->vertical_centre_whole as a constant (one instruction and one register less per block). */
static inline __attribute__((always_inline)) void fixed_vertical_pair_block(const bl_fixed_kernel *K, const int radius,
                                                                            const int unrolled, const int whole, const uint16_t *const *rows,
                                                                            int j0, u8w *b0, u8w *b1) {
    const u16v bias = splat_u16v(K->vertical_bias), centre = splat_u16v(K->vertical[0]);
    u16v acc0[PAIR_VECTORS], acc1[PAIR_VECTORS], low[PAIR_VECTORS], high[PAIR_VECTORS];
    for (int v = 0; v < PAIR_VECTORS; v++) {
        u16v m0 = load_u16v(rows[radius] + j0 + v * U16_LANES), m1 = load_u16v(rows[radius + 1] + j0 + v * U16_LANES);
        acc0[v] = whole ? bias + m0 + mul_high(m0, centre) : bias + mul_high(m0, centre);
        acc1[v] = whole ? bias + m1 + mul_high(m1, centre) : bias + mul_high(m1, centre);
        low[v] = m0;  /* row y + 1 - k for k = 1 */
        high[v] = m1; /* row y + k for k = 1 */
    }
#define PAIR_TAP(k)                                                                               \
    {                                                                                             \
        const uint16_t *a = rows[radius - (k)] + j0, *b = rows[radius + (k) + 1] + j0;            \
        const u16v wk = splat_u16v(K->vertical[k]);                                               \
        for (int v = 0; v < PAIR_VECTORS; v++) {                                                  \
            u16v below = load_u16v(a + v * U16_LANES), above = load_u16v(b + v * U16_LANES);      \
            acc0[v] += mul_high(below + high[v], wk); /* rows y - k and y + k */                  \
            acc1[v] += mul_high(low[v] + above, wk);  /* rows y + 1 - k and y + 1 + k */          \
            low[v] = below;                                                                       \
            high[v] = above;                                                                      \
        }                                                                                         \
    }
    if (unrolled) {
#pragma unroll
        for (int k = 1; k <= radius; k++) PAIR_TAP(k)
    } else { /* two taps a trip: the rows carried from one tap to the next stay in place */
#pragma clang loop unroll_count(2)
        for (int k = 1; k <= radius; k++) PAIR_TAP(k)
    }
#undef PAIR_TAP
    *b0 = pack_bytes(acc0[0] >> 8, acc0[1] >> 8);
    *b1 = pack_bytes(acc1[0] >> 8, acc1[1] >> 8);
}

static inline __attribute__((always_inline)) void fixed_vertical_pair(const bl_fixed_kernel *K, const int radius, const int unrolled, const int whole,
                                                                      const uint16_t *const *rows, int tw, uint8_t *out0,
                                                                      uint8_t *out1, const uint8_t *next0, const uint8_t *next1,
                                                                      uint8_t *next_out) {
    int j0 = 0;
    for (; j0 + PAIR_BLOCK <= tw; j0 += PAIR_BLOCK) { /* whole blocks: full-width stores straight to the rows */
        if (j0 % 64 == 0) {
            if (next0) __builtin_prefetch(next0 + j0);
            if (next1) __builtin_prefetch(next1 + j0);
            if (next_out) { /* the next step's output rows, for writing: their lines are read in now */
                __builtin_prefetch(next_out + j0, 1);
                __builtin_prefetch(next_out + (out1 - out0) + j0, 1);
            }
        }
        u8w b0, b1;
        fixed_vertical_pair_block(K, radius, unrolled, whole, rows, j0, &b0, &b1);
        memcpy(out0 + j0, &b0, sizeof b0);
        memcpy(out1 + j0, &b1, sizeof b1);
    }
    if (j0 < tw) { /* the tile's last samples (the filtered rows hold a whole block there) */
        if (next0) __builtin_prefetch(next0 + j0);
        if (next1) __builtin_prefetch(next1 + j0);
        u8w b0, b1;
        fixed_vertical_pair_block(K, radius, unrolled, whole, rows, j0, &b0, &b1);
        memcpy(out0 + j0, &b0, (size_t)(tw - j0));
        memcpy(out1 + j0, &b1, (size_t)(tw - j0));
    }
}

/* Output rows y to y + 3 together, one vector of samples (at `j0`) of each: `rows[i]` is the
   filtered row y - radius + i (2r+4 of them). At tap k row y + i pairs rows y + i - k and
   y + i + k; from one tap to the next the four lower rows move down by one and the four upper
   ones up by one, so each tap loads two rows for four outputs (a quarter of the ring's traffic of
   one row at a time, half of `fixed_vertical_pair`'s). The same integer sums as
   `fixed_vertical_row`. `out[i]` receives row y + i's sums >> 8. */
static inline __attribute__((always_inline)) void fixed_vertical_quad_block(const bl_fixed_kernel *K, const int radius,
                                                                            const int unrolled, const int whole,
                                                                            const uint16_t *const *rows, int j0, u16v out[4]) {
    const u16v bias = splat_u16v(K->vertical_bias), centre = splat_u16v(K->vertical[0]);
    u16v acc[4], low[4], high[4];
    for (int i = 0; i < 4; i++) {
        const u16v m = load_u16v(rows[radius + i] + j0);
        acc[i] = whole ? bias + m + mul_high(m, centre) : bias + mul_high(m, centre);
        low[i] = m;  /* row y + i - k, for k = 0 */
        high[i] = m; /* row y + i + k */
    }
#define QUAD_TAP(k)                                                                               \
    {                                                                                             \
        const u16v wk = splat_u16v(K->vertical[k]);                                               \
        low[3] = low[2]; low[2] = low[1]; low[1] = low[0];                                        \
        low[0] = load_u16v(rows[radius - (k)] + j0);                                              \
        high[0] = high[1]; high[1] = high[2]; high[2] = high[3];                                  \
        high[3] = load_u16v(rows[radius + 3 + (k)] + j0);                                         \
        for (int i = 0; i < 4; i++) acc[i] += mul_high(low[i] + high[i], wk);                    \
    }
    if (unrolled) {
#pragma unroll
        for (int k = 1; k <= radius; k++) QUAD_TAP(k)
    } else { /* four taps a trip: the rows carried from one tap to the next come back to their registers */
#pragma clang loop unroll_count(4)
        for (int k = 1; k <= radius; k++) QUAD_TAP(k)
    }
#undef QUAD_TAP
    for (int i = 0; i < 4; i++) out[i] = acc[i] >> 8;
}

/* Output rows y to y + 3 (`out` and the three rows n bytes after it), `tw` samples; `next` the
   four source rows the next step filters first, `next_out` its first output row (or NULL). */
static inline __attribute__((always_inline)) void fixed_vertical_quad(const bl_fixed_kernel *K, const int radius, const int unrolled,
                                                                      const int whole, const uint16_t *const *rows, int tw,
                                                                      uint8_t *out, size_t n, const uint8_t *const next[4],
                                                                      uint8_t *next_out) {
    for (int j0 = 0; j0 < tw; j0 += U16_LANES) {
        if (j0 % 64 == 0) {
            for (int i = 0; i < 4; i++)
                if (next[i]) __builtin_prefetch(next[i] + j0);
            if (next_out)
                for (int i = 0; i < 4; i++) __builtin_prefetch(next_out + i * n + j0, 1);
        }
        u16v sums[4];
        fixed_vertical_quad_block(K, radius, unrolled, whole, rows, j0, sums);
        const u8w b01 = pack_bytes(sums[0], sums[1]), b23 = pack_bytes(sums[2], sums[3]);
        if (tw - j0 >= U16_LANES) { /* full-width stores straight to the rows */
            memcpy(out + j0, &b01, U16_LANES);
            memcpy(out + n + j0, (const uint8_t *)&b01 + U16_LANES, U16_LANES);
            memcpy(out + 2 * n + j0, &b23, U16_LANES);
            memcpy(out + 3 * n + j0, (const uint8_t *)&b23 + U16_LANES, U16_LANES);
        } else { /* the tile's last samples (the filtered rows hold a whole block there) */
            const size_t count = (size_t)(tw - j0);
            memcpy(out + j0, &b01, count);
            memcpy(out + n + j0, (const uint8_t *)&b01 + U16_LANES, count);
            memcpy(out + 2 * n + j0, &b23, count);
            memcpy(out + 3 * n + j0, (const uint8_t *)&b23 + U16_LANES, count);
        }
    }
}

/* Rows row_begin..<row_end, one column tile (K->tile_samples wide) after another, so the ring of
   2r+4 filtered rows (2r+2 for the unrolled radii) stays in the core's own cache however wide the
   picture; output rows four at a time (`fixed_vertical_quad`; two, `fixed_vertical_pair`, for the
   unrolled radii), the last one to three of a range as a pair and a row alone. Integer sums: the
   bytes do not depend on the tiling, the grouping of rows or the rows a thread is given. */
static inline __attribute__((always_inline)) void fixed_fir_rows_body(const bl_layout *L, const bl_fixed_kernel *K,
                                                                      const int radius, const int ch, const int unrolled,
                                                                      const uint8_t *source,
                                                                      uint8_t *destination, int row_begin, int row_end) {
    const int h = L->height, n = L->row_length;
    const int tile = K->tile_samples > 0 && K->tile_samples < n ? K->tile_samples : n;
    /* Output rows a step: four for the general radius (`fixed_vertical_quad`: half the ring's
       loads of two), two for the unrolled small ones (there the quad's per-block work outweighs
       the loads it saves: 9% more instructions at radius 4). */
    const int step = unrolled ? 2 : 4;
    const int slots = 2 * radius + step;
    /* A ring row: the tile and a whole block beyond it, in an odd number of 64-byte lines, so
       the rows at one column spread over every set of the L1 cache (a 4 KB stride, from tiles of
       1792 samples, put all 2r+4 in one 8-way set: radius 23 to 25 ran 2.3 times slower). */
    size_t stride = ((size_t)tile + 2 * FIXED_BLOCK) & ~(size_t)(FIXED_BLOCK - 1);
    if (stride * sizeof(uint16_t) / 64 % 2 == 0) stride += 64 / sizeof(uint16_t);
    uint16_t *ring = (uint16_t *)bl_aligned_alloc(sizeof(uint16_t) * stride * (size_t)slots);
    uint16_t *outside = (uint16_t *)bl_aligned_alloc(sizeof(uint16_t) * stride);
    uint16_t *padded = (uint16_t *)bl_aligned_alloc(sizeof(uint16_t) * (stride + 2 * (size_t)radius * ch + FIXED_BLOCK + 32));
    const uint16_t **rows = (const uint16_t **)malloc(sizeof(uint16_t *) * (size_t)slots);
    if (!ring || !outside || !padded || !rows) abort();
    /* Rows beyond a transparent edge: what the horizontal pass makes of an empty row, so a picture
       blurs the same whatever empty margin it has. */
    uint32_t empty = K->horizontal_bias + ((uint32_t)BL_FIXED_OFFSET * K->horizontal[0] >> 16);
    for (int k = 1; k <= radius; k++) empty += (uint32_t)(2 * BL_FIXED_OFFSET) * K->horizontal[k] >> 16;
    for (size_t i = 0; i < stride; i++) outside[i] = (uint16_t)empty;
    for (int x0 = 0; x0 < n; x0 += tile) {
        const int tw = n - x0 < tile ? n - x0 : tile;
        int filtered_up_to = row_begin - radius - 1; /* rows of the image already in the ring */
        for (int y = row_begin; y < row_end; y += step) {
            const int count = row_end - y >= step ? step : row_end - y; /* output rows this step */
            const int last = y + count - 1 + radius;    /* the last filtered row they need */
            /* Horizontally filter the rows these output rows need that are not in the ring yet. */
            int first = y - radius > filtered_up_to + 1 ? y - radius : filtered_up_to + 1;
            for (int k = first; k <= last; k++) {
                if (k < 0 || k >= h) continue;
                fixed_fir_row(L, K, radius, ch, unrolled, source + (size_t)k * n, x0, tw, padded, ring + (size_t)(k % slots) * stride);
            }
            filtered_up_to = last;
            if (y - radius >= 0 && last < h) { /* inside the picture: consecutive slots, one division */
                int slot = (y - radius) % slots;
                for (int i = 0; i < 2 * radius + count; i++) {
                    rows[i] = ring + (size_t)slot * stride;
                    slot = slot + 1 == slots ? 0 : slot + 1;
                }
            } else {
                for (int k = -radius; k <= radius + count - 1; k++) {
                    int r = y + k;
                    if (L->clamp) r = r < 0 ? 0 : (r >= h ? h - 1 : r);
                    rows[k + radius] = (r < 0 || r >= h) ? outside : ring + (size_t)(r % slots) * stride;
                }
            }
            /* The source rows the next step will filter first: fetched while this one is computed. */
            const uint8_t *next[4];
            for (int i = 0; i < 4; i++) next[i] = last + 1 + i < h ? source + (size_t)(last + 1 + i) * n + x0 : 0;
            uint8_t *out = destination + (size_t)y * n + x0;
            if (count == 4) {
                uint8_t *next_out = y + 7 < row_end ? out + 4 * (size_t)n : 0;
                if (K->vertical_centre_whole) fixed_vertical_quad(K, radius, unrolled, 1, rows, tw, out, (size_t)n, next, next_out);
                else fixed_vertical_quad(K, radius, unrolled, 0, rows, tw, out, (size_t)n, next, next_out);
                continue;
            }
            /* Two rows (a small radius's step, or the end of a range), then a last odd one alone. */
            if (count >= 2) {
                uint8_t *next_out = step == 2 && y + 3 < row_end ? out + 2 * (size_t)n : 0;
                if (K->vertical_centre_whole) fixed_vertical_pair(K, radius, unrolled, 1, rows, tw, out, out + n, next[0], next[1], next_out);
                else fixed_vertical_pair(K, radius, unrolled, 0, rows, tw, out, out + n, next[0], next[1], next_out);
            }
            if (count != 2) fixed_vertical_row(K, radius, rows + (count - 1), tw, out + (size_t)(count - 1) * n, next[0]);
        }
    }
    free(ring); free(outside); free(padded); free(rows);
}

/* The tiniest kernels (σ up to about 1.1: radius 1 to 4) are compiled with their radius and
   channel count known, so every tap loop unrolls and its weights stay in registers; larger ones
   run the general loop. The same sums either way. */
static void BL_VARIANT(fixed_fir_rows)(const bl_layout *L, const bl_fixed_kernel *K,
                                       const uint8_t *source, uint8_t *destination, int row_begin, int row_end) {
#define FIXED_CASE(R)                                                                                 \
    case R:                                                                                          \
        if (L->channels == 4) fixed_fir_rows_body(L, K, R, 4, 1, source, destination, row_begin, row_end); \
        else fixed_fir_rows_body(L, K, R, 1, 1, source, destination, row_begin, row_end);                 \
        return;
    switch (K->radius) {
    FIXED_CASE(1) FIXED_CASE(2) FIXED_CASE(3) FIXED_CASE(4)
    default:
        if (L->channels == 4) fixed_fir_rows_body(L, K, K->radius, 4, 0, source, destination, row_begin, row_end);
        else fixed_fir_rows_body(L, K, K->radius, 1, 0, source, destination, row_begin, row_end);
    }
#undef FIXED_CASE
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
    const uint8_t *row[BL_LANES / 4];
    for (int r = 0; r < BL_LANES / 4; r++) row[r] = source + (size_t)(y0 + (r < rows ? r : rows - 1)) * L->row_length;
    /* A pixel of each row a step, its 16 bytes converted and stored as one vector. Vectorized
       across x instead, the loop became scatter stores (vscatterqps), microcoded and slow: on
       AVX-512 it was a third of this pass. */
#pragma clang loop vectorize(disable) interleave(disable)
    for (int x = 0; x < L->width; x++) {
        uint8_t bytes[BL_LANES];
        for (int r = 0; r < BL_LANES / 4; r++) memcpy(bytes + r * 4, row[r] + (size_t)x * 4, 4);
        float *b = block + (size_t)x * BL_LANES;
        for (int l = 0; l < BL_LANES; l++) b[l] = (float)bytes[l];
    }
}

static inline __attribute__((always_inline)) void fill_block_mask(float *block, const uint8_t *source, const bl_layout *L, int y0, int rows) {
    const uint8_t *row[BL_LANES];
    for (int r = 0; r < BL_LANES; r++) row[r] = source + (size_t)(y0 + (r < rows ? r : rows - 1)) * L->row_length;
    int x = 0;
#if defined(__x86_64__) && BL_LANES == 16
    /* 16 samples of each of the 16 rows, transposed in registers (four rounds of unpacking), so
       each x's 16 rows become one vector; a byte at a time they were 16 loads per vector. */
    for (; x + 16 <= L->width; x += 16) {
        __m128i v[16], t[16];
        for (int r = 0; r < 16; r++) v[r] = _mm_loadu_si128((const __m128i *)(row[r] + x));
        for (int k = 0; k < 8; k++) {
            t[k] = _mm_unpacklo_epi8(v[2 * k], v[2 * k + 1]);
            t[k + 8] = _mm_unpackhi_epi8(v[2 * k], v[2 * k + 1]);
        }
        for (int k = 0; k < 4; k++) {
            v[k] = _mm_unpacklo_epi16(t[2 * k], t[2 * k + 1]);
            v[k + 4] = _mm_unpackhi_epi16(t[2 * k], t[2 * k + 1]);
            v[k + 8] = _mm_unpacklo_epi16(t[8 + 2 * k], t[8 + 2 * k + 1]);
            v[k + 12] = _mm_unpackhi_epi16(t[8 + 2 * k], t[8 + 2 * k + 1]);
        }
        for (int k = 0; k < 8; k++) {
            t[2 * k] = _mm_unpacklo_epi32(v[2 * k], v[2 * k + 1]);
            t[2 * k + 1] = _mm_unpackhi_epi32(v[2 * k], v[2 * k + 1]);
        }
        /* Now t[i] for i = 4q + e (e 0 or 1) holds rows 0-7 of samples 4q + 2e and 4q + 2e + 1,
           and t[i + 2] rows 8-15 of the same two. */
        for (int p = 0; p < 8; p++) {
            const int i = (p / 2) * 4 + p % 2;
            const __m128i columns[2] = {_mm_unpacklo_epi64(t[i], t[i + 2]), _mm_unpackhi_epi64(t[i], t[i + 2])};
            for (int c = 0; c < 2; c++) {
                uint8_t bytes[16];
                _mm_storeu_si128((__m128i *)bytes, columns[c]);
                float *b = block + (size_t)(x + 2 * p + c) * BL_LANES;
                for (int r = 0; r < BL_LANES; r++) b[r] = (float)bytes[r];
            }
        }
    }
#endif
    /* The rest a sample of each row a step (not scatter stores; see fill_block_rgba). */
#pragma clang loop vectorize(disable) interleave(disable)
    for (; x < L->width; x++) {
        uint8_t bytes[BL_LANES];
        for (int r = 0; r < BL_LANES; r++) bytes[r] = row[r][x];
        float *b = block + (size_t)x * BL_LANES;
        for (int r = 0; r < BL_LANES; r++) b[r] = (float)bytes[r];
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
        for (int r = 0; r < rows; r++) {
            /* Row r of the strip: 4 pixels × 4 channels, each pixel's 4 floats copied whole. */
            float *d = strip_major(plane, L, y0 + r, s * BL_LANES);
            for (int p = 0; p < 4; p++) {
                const int x = s * 4 + p;
                if (x < L->width) memcpy(d + p * 4, scratch + (size_t)x * BL_LANES + r * 4, 4 * sizeof(float));
                else memset(d + p * 4, 0, 4 * sizeof(float)); /* the last strip's unused lanes stay zero */
            }
        }
    }
}

static inline __attribute__((always_inline)) void store_group_mask(float *plane, const bl_layout *L, int y0, int rows, const float *scratch) {
    const int strips = (L->row_length + BL_LANES - 1) / BL_LANES;
    for (int s = 0; s < strips; s++) {
        for (int r = 0; r < rows; r++) {
            /* Row r of the strip: sample r of 16 pixels (the last strip's unused lanes zero). */
            float *d = strip_major(plane, L, y0 + r, s * BL_LANES);
            float values[BL_LANES];
#pragma clang loop vectorize(disable) interleave(disable)
            for (int p = 0; p < BL_LANES; p++) {
                const int x = s * BL_LANES + p;
                values[p] = x < L->width ? scratch[(size_t)x * BL_LANES + r] : 0.0f;
            }
            memcpy(d, values, sizeof values);
        }
    }
}

static void BL_VARIANT(deriche_horizontal)(const bl_layout *L, const bl_section sections[2],
                           const uint8_t *source, float *plane, int group_begin, int group_end) {
    FAST_FLOATS_BEGIN
    const int w = L->width, ch = L->channels, rows_per_group = BL_LANES / ch;
    float *block = (float *)bl_aligned_alloc(sizeof(float) * (size_t)w * BL_LANES);
    float *scratch = (float *)bl_aligned_alloc(sizeof(float) * (size_t)w * BL_LANES);
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

static void BL_VARIANT(deriche_vertical)(const bl_layout *L, const bl_section sections[2],
                         const float *plane, uint8_t *destination, int strip_begin, int strip_end) {
    FAST_FLOATS_BEGIN
    const int h = L->height, n = L->row_length, ch = L->channels;
    float *scratch = (float *)bl_aligned_alloc(sizeof(float) * (size_t)h * BL_LANES);
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

/* See bl_split_rgb_fn and bl_join_rgb_fn. */
static void BL_VARIANT(split_rgb)(const uint8_t *rgba, size_t count, uint8_t *red, uint8_t *green, uint8_t *blue) {
    for (size_t i = 0; i < count; i++) {
        red[i] = rgba[4 * i];
        green[i] = rgba[4 * i + 1];
        blue[i] = rgba[4 * i + 2];
    }
}

static void BL_VARIANT(join_rgb)(const uint8_t *red, const uint8_t *green, const uint8_t *blue, size_t count,
                                 uint8_t *rgba) {
    for (size_t i = 0; i < count; i++) {
        rgba[4 * i] = red[i];
        rgba[4 * i + 1] = green[i];
        rgba[4 * i + 2] = blue[i];
        rgba[4 * i + 3] = 255;
    }
}

const bl_kernels BL_VARIANT(bl_kernels) = {
    .fixed_fir_rows = BL_VARIANT(fixed_fir_rows),
    .deriche_horizontal = BL_VARIANT(deriche_horizontal),
    .deriche_vertical = BL_VARIANT(deriche_vertical),
    .split_rgb = BL_VARIANT(split_rgb),
    .join_rgb = BL_VARIANT(join_rgb),
};
