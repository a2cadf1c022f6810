#ifndef BLURLABEL_PNG_SHIM_H
#define BLURLABEL_PNG_SHIM_H
/* A small C layer over libpng that owns libpng's setjmp/longjmp error handling, so no
   longjmp ever crosses a Swift frame. Only plain C types cross this boundary. */
#include <stddef.h>
#include <stdint.h>

typedef enum {
    BLPNG_OK = 0,
    BLPNG_NOT_PNG = 1,       /* the signature is not PNG's */
    BLPNG_CORRUPT = 2,       /* libpng rejected the data; message says why */
    BLPNG_TRUNCATED = 3,     /* the data ended before the image did */
    BLPNG_TOO_LARGE = 4,     /* width x height over the caller's pixel limit */
    BLPNG_NO_MEMORY = 5,
    BLPNG_BAD_ARGUMENT = 6
} blpng_status;

typedef struct {
    uint8_t *rgba;          /* straight (not premultiplied) RGBA8, width*height*4 bytes; free with blpng_free */
    uint32_t width;
    uint32_t height;
    int color_type;         /* the file's PNG colour type */
    int bit_depth;          /* the file's bit depth */
    int interlaced;         /* 1 for Adam7 */
    int opaque;             /* 1 when the file has no alpha channel and no tRNS: every alpha is 255 */
    char message[200];      /* on failure: what libpng said */
} blpng_decoded;

/// Decodes a whole PNG held in memory into straight RGBA8, refusing images over max_pixels.
blpng_status blpng_decode(const uint8_t *data, size_t size, uint64_t max_pixels, blpng_decoded *out);

/// The same, writing the pixels into a caller's buffer of at least width*height*4 bytes
/// (out->rgba stays NULL).
blpng_status blpng_decode_into(const uint8_t *data, size_t size, uint64_t max_pixels,
                               uint8_t *pixels, size_t capacity, blpng_decoded *out);

/// The width and height a PNG's IHDR declares, without decoding; 0 on success, -1 when the data
/// is not a PNG or its chunks cannot be whole (the full decode then says why).
int blpng_peek_size(const uint8_t *data, size_t size, uint32_t *width, uint32_t *height);

/// Straight RGBA to premultiplied, in place, rounded to nearest.
void blpng_premultiply(uint8_t *rgba, size_t pixels);

typedef struct {
    uint8_t *bytes;         /* the encoded file; free with blpng_free */
    size_t count;
    char message[200];
} blpng_encoded;

typedef struct {
    uint32_t width;
    uint32_t height;
    int color_type;               /* PNG_COLOR_TYPE_* value: 0 grey, 2 RGB, 3 palette, 4 grey+alpha, 6 RGBA */
    int bit_depth;                /* 1, 2, 4 or 8 */
    const uint8_t *rows;          /* packed rows, row_bytes apart */
    size_t row_bytes;
    const uint8_t *palette_rgb;   /* palette_count * 3 bytes, palette only */
    int palette_count;
    const uint8_t *palette_alpha; /* tRNS entries, trans_count of them (may be 0) */
    int trans_count;
    int compression_level;        /* zlib level 0-9 */
    int filters;                  /* PNG_FILTER_* mask, or 0 for libpng's choice */
    int strategy;                 /* zlib strategy: 0 default, 1 filtered, 3 run-length (Z_RLE) */
    int window_bits;              /* zlib window asked of libpng, 9-15 (PNGEncoder.windowBits) */
} blpng_encode_request;

/// Encodes one image to PNG bytes in memory.
blpng_status blpng_encode(const blpng_encode_request *request, blpng_encoded *out);

void blpng_free(void *pointer);

#endif
