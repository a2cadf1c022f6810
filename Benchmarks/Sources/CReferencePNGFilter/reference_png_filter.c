#include "reference_png_filter.h"
#include <stdlib.h>
#include <string.h>


/* Each filter in its own simple loop, so the compiler can vectorize it. */
static unsigned filter_cost(const uint8_t *f, size_t n) {
    unsigned sum = 0;
    for (size_t i = 0; i < n; i++) { uint8_t v = f[i]; sum += v < 128 ? v : 256u - v; }
    return sum;
}

void reference_png_filter_rows(const uint8_t *rows, size_t row_bytes, int bpp, uint32_t first, uint32_t last, uint8_t *out) {
    uint8_t *zero = (uint8_t *)calloc(row_bytes + 8, 1);
    uint8_t *candidates = (uint8_t *)malloc(row_bytes * 5);
    if (!candidates || !zero) abort();
    const size_t p = (size_t)bpp;
    for (uint32_t y = first; y < last; y++) {
        const uint8_t *row = rows + (size_t)y * row_bytes;
        const uint8_t *up = y > 0 ? row - row_bytes : zero;
        uint8_t *none = candidates, *sub = candidates + row_bytes, *upf = candidates + 2 * row_bytes;
        uint8_t *avg = candidates + 3 * row_bytes, *pae = candidates + 4 * row_bytes;
        memcpy(none, row, row_bytes);
        for (size_t i = 0; i < p && i < row_bytes; i++) {
            sub[i] = row[i];
            upf[i] = (uint8_t)(row[i] - up[i]);
            avg[i] = (uint8_t)(row[i] - (up[i] >> 1));
            pae[i] = (uint8_t)(row[i] - up[i]); /* a = c = 0: Paeth picks b */
        }
        for (size_t i = p; i < row_bytes; i++) sub[i] = (uint8_t)(row[i] - row[i - p]);
        for (size_t i = p; i < row_bytes; i++) upf[i] = (uint8_t)(row[i] - up[i]);
        for (size_t i = p; i < row_bytes; i++) avg[i] = (uint8_t)(row[i] - ((row[i - p] + up[i]) >> 1));
        for (size_t i = p; i < row_bytes; i++) {
            int a = row[i - p], b = up[i], c = up[i - p];
            int pa = abs(b - c), pb = abs(a - c), pc = abs(a + b - 2 * c);
            int predictor = (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c);
            pae[i] = (uint8_t)(row[i] - predictor);
        }
        unsigned best_sum = filter_cost(none, row_bytes);
        int best = 0;
        for (int k = 1; k < 5; k++) {
            unsigned sum = filter_cost(candidates + (size_t)k * row_bytes, row_bytes);
            if (sum < best_sum) { best_sum = sum; best = k; }
        }
        uint8_t *dst = out + (size_t)(y - first) * (row_bytes + 1);
        dst[0] = (uint8_t)best;
        memcpy(dst + 1, candidates + (size_t)best * row_bytes, row_bytes);
    }
    free(candidates);
    free(zero);
}
