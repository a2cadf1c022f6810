#ifndef BLURLABEL_RUN_DEFLATE_H
#define BLURLABEL_RUN_DEFLATE_H
/* The C version of RunDeflateEncoder (Sources/BlurLabelCodecs/RunDeflateEncoder.swift), which
   replaced it: kept for `blurlabel-bench run-deflate`, which checks both give the same bytes and
   times them side by side (the Swift one was the faster on this toolchain).

   A fast deflate encoder for filtered PNG rows: the only matches it looks for are runs of the
   byte before (distance 1, as zlib's Z_RLE strategy), coded with dynamic Huffman tables made for
   each block of BL_RUN_DEFLATE_BLOCK input bytes (a block costing more than stored bytes is
   stored instead). Blurred pictures, Paeth-filtered, are mostly runs of zeros and small
   residuals: on a 3840x2160 screenshot's blur frames this was about 3x as fast as libdeflate's
   level 1 and its files no larger (Benchmarks/README.md, "Animate"). The output depends only on
   the input bytes: blocks are fixed by input position. */
#include <stddef.h>
#include <stdint.h>

/* Input bytes a block covers (the last block may be shorter). */
#define BL_RUN_DEFLATE_BLOCK (256 * 1024)

/* The most bytes a stream of `count` input bytes in `blocks` blocks takes (`bl_run_deflate`
   makes count / BL_RUN_DEFLATE_BLOCK + 1 at most). */
size_t bl_run_deflate_bound(size_t count, size_t blocks);

/* A raw deflate stream made a block at a time, so the data need not exist whole: begin, then
   one `bl_run_deflate_block` per block (the last with `final` set), then end. */
typedef struct {
    uint64_t bits;
    int count;
    int has_previous; /* whether a block came before (its last byte is `previous`) */
    uint8_t previous;
    uint8_t *out, *start;
} bl_run_deflate_stream;

void bl_run_deflate_begin(bl_run_deflate_stream *stream, uint8_t *out);
/* One block of `count` bytes (at most BL_RUN_DEFLATE_BLOCK); `tokens` as below. */
void bl_run_deflate_block(bl_run_deflate_stream *stream, const uint8_t *in, size_t count, int final,
                          uint16_t *tokens);
/* The bytes written since begin (the last bits padded to a byte). */
size_t bl_run_deflate_end(bl_run_deflate_stream *stream);

/* The raw deflate stream (RFC 1951, no zlib header or checksum) of the `count` bytes at `in`,
   written to `out` (at least `bl_run_deflate_bound(count)` bytes); `tokens` is scratch for
   BL_RUN_DEFLATE_BLOCK entries. Returns the bytes written. */
size_t bl_run_deflate(const uint8_t *in, size_t count, uint8_t *out, uint16_t *tokens);

#endif
