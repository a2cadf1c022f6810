#include "blpng.h"
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- shared error handling: libpng calls these, we longjmp back to our own setjmp only ---- */

typedef struct {
    char *message;
    size_t capacity;
    int truncated;
} error_sink;

static void on_error(png_structp png, png_const_charp text) {
    error_sink *sink = (error_sink *)png_get_error_ptr(png);
    if (sink && sink->message && sink->message[0] == '\0') {
        strncpy(sink->message, text ? text : "unknown libpng error", sink->capacity - 1);
        sink->message[sink->capacity - 1] = '\0';
    }
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp text) {
    (void)png; (void)text; /* warnings are not errors; ancillary problems are handled by crc actions */
}

/* ---- decoding ---- */

typedef struct {
    const uint8_t *data;
    size_t size;
    size_t offset;
    error_sink *sink;
} memory_reader;

static void read_from_memory(png_structp png, png_bytep out, png_size_t count) {
    memory_reader *reader = (memory_reader *)png_get_io_ptr(png);
    if (count > reader->size - reader->offset) {
        reader->sink->truncated = 1;
        png_error(png, "the file ends before the image does (truncated)");
    }
    memcpy(out, reader->data + reader->offset, count);
    reader->offset += count;
}

static blpng_status decode_impl(const uint8_t *data, size_t size, uint64_t max_pixels, blpng_decoded *out,
                                uint8_t *target, size_t target_capacity);
static blpng_status check_chunks(const uint8_t *data, size_t size, char *message, size_t capacity);

blpng_status blpng_decode(const uint8_t *data, size_t size, uint64_t max_pixels, blpng_decoded *out) {
    return decode_impl(data, size, max_pixels, out, NULL, 0);
}

blpng_status blpng_decode_into(const uint8_t *data, size_t size, uint64_t max_pixels,
                               uint8_t *pixels, size_t capacity, blpng_decoded *out) {
    return decode_impl(data, size, max_pixels, out, pixels, capacity);
}

int blpng_peek_size(const uint8_t *data, size_t size, uint32_t *width, uint32_t *height) {
    if (size < 24 || png_sig_cmp((png_const_bytep)data, 0, 8) != 0 || memcmp(data + 12, "IHDR", 4) != 0) return -1;
    char unused[200];
    if (check_chunks(data, size, unused, sizeof unused) != BLPNG_OK) return -1; /* the full decode reports it */
    *width = (uint32_t)data[16] << 24 | (uint32_t)data[17] << 16 | (uint32_t)data[18] << 8 | data[19];
    *height = (uint32_t)data[20] << 24 | (uint32_t)data[21] << 16 | (uint32_t)data[22] << 8 | data[23];
    return 0;
}

void blpng_premultiply(uint8_t *rgba, size_t pixels) {
    for (size_t i = 0; i < pixels; i++) {
        uint8_t *p = rgba + i * 4;
        unsigned a = p[3];
        if (a == 255) continue;
        for (int c = 0; c < 3; c++) {
            unsigned t = p[c] * a + 128;
            p[c] = (uint8_t)((t + (t >> 8)) >> 8);
        }
    }
}

static uint32_t be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Walks the chunk list before libpng sees it, so that nothing is allocated for what the input
   cannot hold: a chunk whose length runs past the end of the data is a truncated file (libpng
   would first allocate the length it claims: 2 GB for a 44-byte file), and an image whose IHDR
   asks for more raw bytes than its IDAT data could inflate to (deflate expands at most 1032:1)
   is refused before its pixels are allocated. Returns BLPNG_OK when decoding may go ahead. */
static blpng_status check_chunks(const uint8_t *data, size_t size, char *message, size_t capacity) {
    size_t offset = 8;
    uint64_t image_data = 0;
    uint32_t width = 0, height = 0;
    int bits_per_pixel = 0, have_header = 0;
    while (size - offset >= 8) {
        uint32_t length = be32(data + offset);
        const uint8_t *type = data + offset + 4;
        if (length > 0x7fffffffu) {
            snprintf(message, capacity, "chunk at byte %zu claims %u bytes, over PNG's limit of 2^31-1", offset, length);
            return BLPNG_CORRUPT;
        }
        if ((uint64_t)length + 12 > size - offset) {
            snprintf(message, capacity, "chunk '%.4s' at byte %zu claims %u bytes, but only %zu remain",
                     (const char *)type, offset, length, size - offset - 8);
            return BLPNG_TRUNCATED;
        }
        if (memcmp(type, "IHDR", 4) == 0 && length >= 13) {
            static const int channels[7] = { 1, 0, 3, 1, 2, 0, 4 };
            const uint8_t *h = data + offset + 8;
            width = be32(h);
            height = be32(h + 4);
            int depth = h[8], colour = h[9];
            bits_per_pixel = colour <= 6 ? channels[colour] * depth : 0;
            have_header = 1;
        } else if (memcmp(type, "IDAT", 4) == 0) {
            image_data += length;
        } else if (memcmp(type, "IEND", 4) == 0) {
            break;
        }
        offset += (size_t)length + 12;
    }
    if (have_header && bits_per_pixel > 0 && width > 0 && height > 0) {
        /* The least raw data any such image needs: one filter byte and its packed pixels per row. */
        uint64_t raw = (uint64_t)height * (1 + ((uint64_t)width * (uint64_t)bits_per_pixel + 7) / 8);
        if (raw > image_data * 1032 + 1024) {
            snprintf(message, capacity, "%ux%u image needs at least %llu bytes of pixel data, but its %llu compressed bytes cannot hold them",
                     (unsigned)width, (unsigned)height, (unsigned long long)raw, (unsigned long long)image_data);
            return BLPNG_TRUNCATED;
        }
    }
    return BLPNG_OK;
}

static blpng_status decode_impl(const uint8_t *data, size_t size, uint64_t max_pixels, blpng_decoded *out,
                                uint8_t *target, size_t target_capacity) {
    if (!data || !out) return BLPNG_BAD_ARGUMENT;
    memset(out, 0, sizeof *out);
    if (size < 8 || png_sig_cmp((png_const_bytep)data, 0, 8) != 0) {
        strcpy(out->message, "not a PNG file (bad signature)");
        return BLPNG_NOT_PNG;
    }
    /* PNG puts IHDR first: refuse oversized images before libpng reads anything else. */
    if (size >= 24 && memcmp(data + 12, "IHDR", 4) == 0) {
        uint32_t w = (uint32_t)data[16] << 24 | (uint32_t)data[17] << 16 | (uint32_t)data[18] << 8 | data[19];
        uint32_t h = (uint32_t)data[20] << 24 | (uint32_t)data[21] << 16 | (uint32_t)data[22] << 8 | data[23];
        if ((uint64_t)w * (uint64_t)h > max_pixels) {
            out->width = w;
            out->height = h;
            snprintf(out->message, sizeof out->message, "%ux%u is over the limit of %llu pixels",
                     (unsigned)w, (unsigned)h, (unsigned long long)max_pixels);
            return BLPNG_TOO_LARGE;
        }
    }
    blpng_status precheck = check_chunks(data, size, out->message, sizeof out->message);
    if (precheck != BLPNG_OK) return precheck;
    error_sink sink = { out->message, sizeof out->message, 0 };
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &sink, on_error, on_warning);
    if (!png) return BLPNG_NO_MEMORY;
    png_infop info = png_create_info_struct(png);
    if (!info) { png_destroy_read_struct(&png, NULL, NULL); return BLPNG_NO_MEMORY; }

    memory_reader reader = { data, size, 0, &sink };
    /* volatile: these change between setjmp and a possible longjmp */
    uint8_t *volatile pixels = NULL;
    png_bytep *volatile rows = NULL;
    volatile blpng_status status = BLPNG_CORRUPT;

    if (setjmp(png_jmpbuf(png))) {
        free(rows);
        if (pixels != target) free(pixels);
        png_destroy_read_struct(&png, &info, NULL);
        if (sink.truncated) return BLPNG_TRUNCATED;
        return status;
    }
    png_set_read_fn(png, &reader, read_from_memory);
    png_set_crc_action(png, PNG_CRC_ERROR_QUIT, PNG_CRC_ERROR_QUIT);
    png_set_user_limits(png, 0x7fffffff, 0x7fffffff);
    png_read_info(png, info);

    png_uint_32 width = 0, height = 0;
    int bit_depth = 0, color_type = 0, interlace = 0;
    png_get_IHDR(png, info, &width, &height, &bit_depth, &color_type, &interlace, NULL, NULL);
    out->width = width;
    out->height = height;
    out->color_type = color_type;
    out->bit_depth = bit_depth;
    out->interlaced = interlace == PNG_INTERLACE_ADAM7;
    out->opaque = !(color_type & PNG_COLOR_MASK_ALPHA) && !png_get_valid(png, info, PNG_INFO_tRNS);
    if ((uint64_t)width * (uint64_t)height > max_pixels) {
        snprintf(out->message, sizeof out->message, "%ux%u is over the limit of %llu pixels",
                 (unsigned)width, (unsigned)height, (unsigned long long)max_pixels);
        status = BLPNG_TOO_LARGE;
        png_longjmp(png, 1);
    }

    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    if (bit_depth == 16) png_set_scale_16(png);
    if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER); /* no-op when alpha is already there */
    png_set_interlace_handling(png);
    png_read_update_info(png, info);

    size_t row_bytes = png_get_rowbytes(png, info);
    if (row_bytes != (size_t)width * 4) {
        strcpy(out->message, "unexpected row layout after conversion to RGBA");
        png_longjmp(png, 1);
    }
    if (target && target_capacity < row_bytes * height) {
        strcpy(out->message, "the buffer given is too small for the image");
        png_longjmp(png, 1);
    }
    pixels = target ? target : (uint8_t *)malloc(row_bytes * height);
    rows = (png_bytep *)malloc(sizeof(png_bytep) * height);
    if (!pixels || !rows) {
        strcpy(out->message, "out of memory");
        status = BLPNG_NO_MEMORY;
        png_longjmp(png, 1);
    }
    for (png_uint_32 y = 0; y < height; y++) rows[y] = pixels + (size_t)y * row_bytes;
    png_read_image(png, rows);
    png_read_end(png, NULL);

    free(rows);
    png_destroy_read_struct(&png, &info, NULL);
    out->rgba = target ? NULL : pixels;
    return BLPNG_OK;
}

/* ---- encoding ---- */

typedef struct {
    uint8_t *bytes;
    size_t count;
    size_t capacity;
    int failed;
} memory_writer;

static void write_to_memory(png_structp png, png_bytep data, png_size_t count) {
    memory_writer *writer = (memory_writer *)png_get_io_ptr(png);
    if (writer->count + count > writer->capacity) {
        size_t capacity = writer->capacity ? writer->capacity : 4096;
        while (capacity < writer->count + count) capacity *= 2;
        uint8_t *grown = (uint8_t *)realloc(writer->bytes, capacity);
        if (!grown) { writer->failed = 1; png_error(png, "out of memory"); }
        writer->bytes = grown;
        writer->capacity = capacity;
    }
    memcpy(writer->bytes + writer->count, data, count);
    writer->count += count;
}

static void flush_memory(png_structp png) { (void)png; }

blpng_status blpng_encode(const blpng_encode_request *request, blpng_encoded *out) {
    if (!request || !out || !request->rows || request->width == 0 || request->height == 0) return BLPNG_BAD_ARGUMENT;
    memset(out, 0, sizeof *out);
    error_sink sink = { out->message, sizeof out->message, 0 };
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &sink, on_error, on_warning);
    if (!png) return BLPNG_NO_MEMORY;
    png_infop info = png_create_info_struct(png);
    if (!info) { png_destroy_write_struct(&png, NULL); return BLPNG_NO_MEMORY; }

    memory_writer writer = { NULL, 0, 0, 0 };
    if (setjmp(png_jmpbuf(png))) {
        free(writer.bytes);
        png_destroy_write_struct(&png, &info);
        return writer.failed ? BLPNG_NO_MEMORY : BLPNG_CORRUPT;
    }
    png_set_write_fn(png, &writer, write_to_memory, flush_memory);
    png_set_compression_level(png, request->compression_level);
    /* The window comes from PNGEncoder.windowBits (small data needs no 32 KB window). */
    png_set_compression_window_bits(png, request->window_bits);
    png_set_compression_mem_level(png, 8);
    if (request->filters) png_set_filter(png, PNG_FILTER_TYPE_BASE, request->filters);
    if (request->strategy) png_set_compression_strategy(png, request->strategy);
    png_set_IHDR(png, info, request->width, request->height, request->bit_depth, request->color_type,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (request->color_type == PNG_COLOR_TYPE_PALETTE) {
        png_color palette[256];
        for (int i = 0; i < request->palette_count && i < 256; i++) {
            palette[i].red = request->palette_rgb[i * 3];
            palette[i].green = request->palette_rgb[i * 3 + 1];
            palette[i].blue = request->palette_rgb[i * 3 + 2];
        }
        png_set_PLTE(png, info, palette, request->palette_count);
        if (request->trans_count > 0)
            png_set_tRNS(png, info, (png_const_bytep)request->palette_alpha, request->trans_count, NULL);
    }
    png_write_info(png, info);
    for (uint32_t y = 0; y < request->height; y++)
        png_write_row(png, (png_const_bytep)(request->rows + (size_t)y * request->row_bytes));
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    out->bytes = writer.bytes;
    out->count = writer.count;
    return BLPNG_OK;
}

void blpng_free(void *pointer) { free(pointer); }
