/* PNG's row filters that gain from wide registers, written once and compiled once per CPU variant:
   each png_kernels_*.c file defines PNG_VARIANT(name) (the variant's suffix) and wraps this file in
   a target attribute. Exact integer arithmetic: every variant gives the same bytes. No #include
   here (system headers must stay outside the target region). */

/* See png_paeth_rgb_from_rgba_fn. */
static inline __attribute__((always_inline)) int16_t paeth_magnitude(int16_t x) { return x < 0 ? (int16_t)-x : x; }

/* PNG's Paeth residual of `x` with left `a`, above `up` and upper left `c`. */
static inline __attribute__((always_inline)) uint8_t paeth_residual(int16_t x, int16_t a, int16_t up, int16_t c) {
    const int16_t pa = paeth_magnitude((int16_t)(up - c)), pb = paeth_magnitude((int16_t)(a - c));
    const int16_t pc = paeth_magnitude((int16_t)(a + up - c - c));
    const int16_t predictor = (pa <= pb && pa <= pc) ? a : (pb <= pc ? up : c);
    return (uint8_t)(x - predictor);
}

static void PNG_VARIANT(paeth_rgb_from_rgba)(const uint8_t *row, const uint8_t *above, int width, uint8_t *out) {
    /* Residuals of all four channels (a, b, c four bytes apart), then alpha's dropped: two
       plain loops the compiler vectorizes. A row of up to 1024 pixels at a time. */
    static const uint8_t zeros[4096];
    uint8_t residual[4096];
    *out++ = 4;
    for (int x0 = 0; x0 < width; x0 += 1024) {
        const int n = (width - x0 < 1024 ? width - x0 : 1024) * 4;
        const uint8_t *r = row + (size_t)x0 * 4, *b = above ? above + (size_t)x0 * 4 : zeros;
        const uint8_t *rl = x0 > 0 ? r - 4 : zeros, *bl = x0 > 0 && above ? b - 4 : zeros;
        /* The row's first pixel has no left neighbour (a = c = 0); a later piece's has. */
        for (int i = 0; i < 4; i++) residual[i] = paeth_residual(r[i], rl[i], b[i], bl[i]);
        for (int i = 4; i < n; i++) residual[i] = paeth_residual(r[i], r[i - 4], b[i], b[i - 4]);
        /* Four pixels' 16 bytes into 12, as three 32-bit words (little-endian machines). */
        int p = 0;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        for (; p + 4 <= n / 4; p += 4) {
            uint32_t q[4], w[3];
            memcpy(q, residual + p * 4, 16);
            w[0] = (q[0] & 0xFFFFFFu) | (q[1] << 24);
            w[1] = ((q[1] >> 8) & 0xFFFFu) | (q[2] << 16);
            w[2] = ((q[2] >> 16) & 0xFFu) | (q[3] << 8);
            memcpy(out + p * 3, w, 12);
        }
#endif
        for (; p < n / 4; p++) {
            out[p * 3] = residual[p * 4];
            out[p * 3 + 1] = residual[p * 4 + 1];
            out[p * 3 + 2] = residual[p * 4 + 2];
        }
        out += (size_t)n / 4 * 3;
    }
}

static void PNG_VARIANT(paeth_row)(const uint8_t *row, const uint8_t *above, int count, int bpp, uint8_t *out) {
    /* Every input is an unfiltered byte, so each residual is independent of the others: one
       plain loop the compiler vectorizes at the variant's width. */
    if (!above) {
        /* Zeros above: Paeth predicts the left neighbour (or 0 for the first pixel). */
        for (int i = 0; i < bpp && i < count; i++) out[i] = row[i];
        for (int i = bpp; i < count; i++) out[i] = (uint8_t)(row[i] - row[i - bpp]);
        return;
    }
    for (int i = 0; i < bpp && i < count; i++) out[i] = (uint8_t)(row[i] - above[i]);
    for (int i = bpp; i < count; i++) out[i] = paeth_residual(row[i], row[i - bpp], above[i], above[i - bpp]);
}

const png_kernels PNG_VARIANT(png_kernels) = {
    .paeth_rgb_from_rgba = PNG_VARIANT(paeth_rgb_from_rgba),
    .paeth_row = PNG_VARIANT(paeth_row),
};
