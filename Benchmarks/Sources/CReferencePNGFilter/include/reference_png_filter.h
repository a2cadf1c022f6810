#ifndef BLURLABEL_REFERENCE_PNG_FILTER_H
#define BLURLABEL_REFERENCE_PNG_FILTER_H
/* The PNG row filter the package used before it moved to Swift (PNGRowFilter.swift), kept for
   `blurlabel-bench png-filter`, which times both on one picture and checks they agree, so the
   choice of Swift can be re-checked on a new toolchain. Not part of the package's products. */
#include <stddef.h>
#include <stdint.h>

/// PNG-filters rows [first, last) of an image into out (row_bytes + 1 bytes per row), choosing
/// for each row the filter with the smallest sum of absolute values (libpng's heuristic).
void reference_png_filter_rows(const uint8_t *rows, size_t row_bytes, int bytes_per_pixel,
                               uint32_t first, uint32_t last, uint8_t *out);

#endif
