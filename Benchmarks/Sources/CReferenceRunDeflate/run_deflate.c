/* See run_deflate.h. Tokens of a block: a literal byte (below 256) or a run of the previous byte
   (0x8000 | length, 3 to 258), counted as they are found; then the block's Huffman tables
   (length-limited by halving the counts until they fit), its header and its codes. */
#include "run_deflate.h"

#include <stdlib.h>
#include <string.h>

enum { LITLEN_SYMBOLS = 286, END_OF_BLOCK = 256, MAX_CODE_LENGTH = 15, MAX_CODELEN_LENGTH = 7 };

/* Length code (257 + index), extra bits and their value, for a run of 3 to 258. */
static const uint16_t length_base[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                         31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const uint8_t length_extra_bits[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                              2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};

/* length_index[length]: the index of a run length's code (0 below 3). */
static const uint8_t length_index_table[259] = {
    0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 12, 12, 13,
    13, 13, 13, 14, 14, 14, 14, 15, 15, 15, 15, 16, 16, 16, 16, 16, 16, 16, 16, 17, 17, 17, 17, 17,
    17, 17, 17, 18, 18, 18, 18, 18, 18, 18, 18, 19, 19, 19, 19, 19, 19, 19, 19, 20, 20, 20, 20, 20,
    20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 21, 21, 21, 21, 21, 21, 21, 21, 21, 21, 21, 21, 21,
    21, 21, 21, 22, 22, 22, 22, 22, 22, 22, 22, 22, 22, 22, 22, 22, 22, 22, 22, 23, 23, 23, 23, 23,
    23, 23, 23, 23, 23, 23, 23, 23, 23, 23, 23, 24, 24, 24, 24, 24, 24, 24, 24, 24, 24, 24, 24, 24,
    24, 24, 24, 24, 24, 24, 24, 24, 24, 24, 24, 24, 24, 24, 24, 24, 24, 24, 24, 25, 25, 25, 25, 25,
    25, 25, 25, 25, 25, 25, 25, 25, 25, 25, 25, 25, 25, 25, 25, 25, 25, 25, 25, 25, 25, 25, 25, 25,
    25, 25, 25, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26,
    26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 27, 27, 27, 27, 27, 27, 27, 27, 27, 27, 27, 27, 27,
    27, 27, 27, 27, 27, 27, 27, 27, 27, 27, 27, 27, 27, 27, 27, 27, 27, 27, 28,
};

static inline int length_index(unsigned length) { return length_index_table[length]; }

/* Bits are written least significant first, 32 at a time (8 bytes stored, 4 kept). */
typedef struct {
    uint64_t bits;
    int count;
    uint8_t *out;
} bit_writer;

static inline void put(bit_writer *w, uint64_t bits, int count) {
    w->bits |= bits << w->count;
    w->count += count;
    if (w->count >= 32) {
        memcpy(w->out, &w->bits, 8);
        w->out += 4;
        w->bits >>= 32;
        w->count -= 32;
    }
}

static void align_to_byte(bit_writer *w) {
    while (w->count > 0) {
        *w->out++ = (uint8_t)w->bits;
        w->bits >>= 8;
        w->count -= 8;
    }
    w->count = 0;
    w->bits = 0;
}

typedef struct {
    uint32_t frequency;
    uint16_t symbol;
} leaf;

static int by_frequency(const void *a, const void *b) {
    const leaf *x = a, *y = b;
    if (x->frequency != y->frequency) return x->frequency < y->frequency ? -1 : 1;
    return x->symbol < y->symbol ? -1 : 1;
}

/* Huffman code lengths of at most `limit` bits for `n` symbols (at most 2 * LITLEN_SYMBOLS):
   the two-queue construction over the counts sorted (count, symbol), the counts halved (each
   kept at least 1) until the longest code fits. At least two symbols get a length, so the code
   is complete. */
static void code_lengths(const uint32_t *counts, int n, int limit, uint8_t *lengths) {
    uint32_t frequency[LITLEN_SYMBOLS];
    leaf leaves[LITLEN_SYMBOLS];
    uint64_t weight[2 * LITLEN_SYMBOLS];
    int parent[2 * LITLEN_SYMBOLS];
    memcpy(frequency, counts, sizeof(uint32_t) * n);
    int used = 0;
    for (int i = 0; i < n; i++) used += frequency[i] != 0;
    for (int i = 0; used < 2 && i < n; i++) {
        if (frequency[i] == 0) {
            frequency[i] = 1;
            used++;
        }
    }
    for (;;) {
        int m = 0;
        for (int i = 0; i < n; i++) {
            lengths[i] = 0;
            if (frequency[i]) leaves[m++] = (leaf){frequency[i], (uint16_t)i};
        }
        qsort(leaves, m, sizeof(leaf), by_frequency);
        for (int i = 0; i < m; i++) weight[i] = leaves[i].frequency;
        int next_leaf = 0, next_node = m, end = m;
        for (int k = 0; k < m - 1; k++) {
            int pick[2];
            for (int j = 0; j < 2; j++) {
                if (next_leaf < m && (next_node >= end || weight[next_leaf] <= weight[next_node])) {
                    pick[j] = next_leaf++;
                } else {
                    pick[j] = next_node++;
                }
            }
            weight[end] = weight[pick[0]] + weight[pick[1]];
            parent[pick[0]] = parent[pick[1]] = end;
            end++;
        }
        int depth[2 * LITLEN_SYMBOLS];
        depth[end - 1] = 0;
        int longest = 0;
        for (int i = end - 2; i >= 0; i--) depth[i] = depth[parent[i]] + 1;
        for (int i = 0; i < m; i++) {
            lengths[leaves[i].symbol] = (uint8_t)depth[i];
            if (depth[i] > longest) longest = depth[i];
        }
        if (longest <= limit) return;
        for (int i = 0; i < n; i++) {
            if (frequency[i]) frequency[i] = (frequency[i] + 1) >> 1;
        }
    }
}

/* Canonical codes for `lengths`, bit-reversed for writing least significant bit first. */
static void canonical_codes(const uint8_t *lengths, int n, uint16_t *codes) {
    int per_length[MAX_CODE_LENGTH + 1] = {0};
    int next[MAX_CODE_LENGTH + 1] = {0};
    for (int i = 0; i < n; i++) per_length[lengths[i]]++;
    per_length[0] = 0;
    int code = 0;
    for (int bits = 1; bits <= MAX_CODE_LENGTH; bits++) {
        code = (code + per_length[bits - 1]) << 1;
        next[bits] = code;
    }
    for (int i = 0; i < n; i++) {
        if (!lengths[i]) continue;
        int value = next[lengths[i]]++, reversed = 0;
        for (int k = 0; k < lengths[i]; k++) {
            reversed = (reversed << 1) | (value & 1);
            value >>= 1;
        }
        codes[i] = (uint16_t)reversed;
    }
}

/* The tokens of the `count` bytes at `in`, the byte before them `previous` (if `has_previous`);
   counts the symbols they use. */
static size_t tokenize(const uint8_t *in, size_t count, int has_previous, uint8_t previous, uint16_t *tokens,
                       uint32_t *counts) {
    size_t i = 0, n = 0;
    if (!has_previous && count > 0) {
        tokens[n++] = in[0];
        counts[in[0]]++;
        i = 1;
    }
    while (i < count) {
        const uint8_t before = i > 0 ? in[i - 1] : previous;
        if (in[i] == before) {
            size_t limit = count - i < 258 ? count - i : 258, length = 0;
            const uint64_t pattern = 0x0101010101010101ULL * before;
            for (;;) {
                if (length + 8 <= limit) {
                    uint64_t word;
                    memcpy(&word, in + i + length, 8);
                    word ^= pattern;
                    if (word) {
                        length += (size_t)__builtin_ctzll(word) >> 3;
                        break;
                    }
                    length += 8;
                } else {
                    while (length < limit && in[i + length] == before) length++;
                    break;
                }
            }
            if (length >= 3) {
                tokens[n++] = (uint16_t)(0x8000 | length);
                counts[257 + length_index((unsigned)length)]++;
                i += length;
                continue;
            }
        }
        tokens[n++] = in[i];
        counts[in[i]]++;
        i++;
    }
    return n;
}

static const uint8_t codelen_order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};

/* Stored blocks for `count` bytes (65,535 at most each); `final` marks the last. */
static void write_stored(bit_writer *w, const uint8_t *in, size_t count, int final) {
    do {
        size_t piece = count < 65535 ? count : 65535;
        count -= piece;
        put(w, (final && count == 0) ? 1 : 0, 3);
        align_to_byte(w);
        w->out[0] = (uint8_t)piece;
        w->out[1] = (uint8_t)(piece >> 8);
        w->out[2] = (uint8_t)~piece;
        w->out[3] = (uint8_t)(~piece >> 8);
        memcpy(w->out + 4, in, piece);
        w->out += 4 + piece;
        in += piece;
    } while (count > 0);
}

/* One block of `tokens` (made from `count` bytes at `in`): dynamic Huffman, or stored if that
   is smaller. */
static void write_block(bit_writer *w, const uint16_t *tokens, size_t token_count, uint32_t *counts,
                        const uint8_t *in, size_t count, int final) {
    counts[END_OF_BLOCK] = 1;
    uint8_t lengths[LITLEN_SYMBOLS + 2];
    uint16_t codes[LITLEN_SYMBOLS];
    code_lengths(counts, LITLEN_SYMBOLS, MAX_CODE_LENGTH, lengths);
    canonical_codes(lengths, LITLEN_SYMBOLS, codes);
    int literal_count = LITLEN_SYMBOLS;
    while (literal_count > 257 && !lengths[literal_count - 1]) literal_count--;
    /* Two distance codes of one bit each (a complete code); runs use code 0, distance 1. */
    lengths[literal_count] = 1;
    lengths[literal_count + 1] = 1;
    const int total = literal_count + 2;

    /* The code lengths, run-length coded (16: repeat 3-6, 17: 3-10 zeros, 18: 11-138 zeros). */
    uint8_t symbols[LITLEN_SYMBOLS + 2], extras[LITLEN_SYMBOLS + 2];
    uint32_t codelen_counts[19] = {0};
    int symbol_count = 0;
    for (int i = 0; i < total;) {
        const int value = lengths[i];
        int run = 1;
        while (i + run < total && lengths[i + run] == value) run++;
        i += run;
        if (value == 0) {
            while (run >= 11) {
                const int piece = run > 138 ? 138 : run;
                symbols[symbol_count] = 18;
                extras[symbol_count++] = (uint8_t)(piece - 11);
                run -= piece;
            }
            if (run >= 3) {
                symbols[symbol_count] = 17;
                extras[symbol_count++] = (uint8_t)(run - 3);
                run = 0;
            }
        } else {
            symbols[symbol_count] = (uint8_t)value;
            extras[symbol_count++] = 0;
            run--;
            while (run >= 3) {
                const int piece = run > 6 ? 6 : run;
                symbols[symbol_count] = 16;
                extras[symbol_count++] = (uint8_t)(piece - 3);
                run -= piece;
            }
        }
        while (run-- > 0) {
            symbols[symbol_count] = (uint8_t)value;
            extras[symbol_count++] = 0;
        }
    }
    for (int i = 0; i < symbol_count; i++) codelen_counts[symbols[i]]++;
    uint8_t codelen_lengths[19];
    uint16_t codelen_codes[19];
    code_lengths(codelen_counts, 19, MAX_CODELEN_LENGTH, codelen_lengths);
    canonical_codes(codelen_lengths, 19, codelen_codes);
    int codelen_count = 19;
    while (codelen_count > 4 && !codelen_lengths[codelen_order[codelen_count - 1]]) codelen_count--;

    /* The block's size in bits, to choose between it and stored bytes. */
    uint64_t size = 3 + 5 + 5 + 4 + 3 * (uint64_t)codelen_count;
    for (int i = 0; i < symbol_count; i++) {
        size += codelen_lengths[symbols[i]] + (symbols[i] == 16 ? 2 : symbols[i] == 17 ? 3 : symbols[i] == 18 ? 7 : 0);
    }
    for (int s = 0; s < 257; s++) size += (uint64_t)counts[s] * lengths[s];
    for (int s = 257; s < LITLEN_SYMBOLS; s++) {
        size += (uint64_t)counts[s] * (lengths[s] + length_extra_bits[s - 257] + 1);
    }
    /* Stored: a 3-bit header, up to 7 bits of padding and 4 bytes of lengths per 65,535 bytes. */
    const uint64_t stored = ((uint64_t)count + 4 * ((count + 65534) / 65535 + 1)) * 8 + 10;
    if (size >= stored) {
        write_stored(w, in, count, final);
        return;
    }

    put(w, final ? 1 : 0, 1);
    put(w, 2, 2);
    put(w, (uint64_t)(literal_count - 257), 5);
    put(w, 1, 5);
    put(w, (uint64_t)(codelen_count - 4), 4);
    for (int i = 0; i < codelen_count; i++) put(w, codelen_lengths[codelen_order[i]], 3);
    for (int i = 0; i < symbol_count; i++) {
        const int s = symbols[i];
        put(w, codelen_codes[s], codelen_lengths[s]);
        if (s == 16) put(w, extras[i], 2);
        else if (s == 17) put(w, extras[i], 3);
        else if (s == 18) put(w, extras[i], 7);
    }
    for (size_t k = 0; k < token_count; k++) {
        const uint16_t token = tokens[k];
        if (token < 256) {
            put(w, codes[token], lengths[token]);
        } else {
            const unsigned length = token & 0x7FFF;
            const int index = length_index(length);
            const int symbol = 257 + index;
            /* Code, extra bits and the distance code's one 0 bit: at most 15 + 5 + 1 bits. */
            const uint64_t bits = codes[symbol] | ((uint64_t)(length - length_base[index]) << lengths[symbol]);
            put(w, bits, lengths[symbol] + length_extra_bits[index] + 1);
        }
    }
    put(w, codes[END_OF_BLOCK], lengths[END_OF_BLOCK]);
}

size_t bl_run_deflate_bound(size_t count, size_t blocks) {
    /* Stored, a block costs its bytes and 5 more a piece of 65,535 or less (header bits, padding,
       lengths); a Huffman block is written only if under its stored estimate (4 more a piece and
       one more piece, 10 bits). Then the 8 bytes the bit writer may store past its end. */
    return count + 5 * (count / 65535) + 10 * blocks + 16;
}

void bl_run_deflate_begin(bl_run_deflate_stream *stream, uint8_t *out) {
    *stream = (bl_run_deflate_stream){0, 0, 0, 0, out, out};
}

void bl_run_deflate_block(bl_run_deflate_stream *stream, const uint8_t *in, size_t count, int final,
                          uint16_t *tokens) {
    bit_writer w = {stream->bits, stream->count, stream->out};
    uint32_t counts[LITLEN_SYMBOLS] = {0};
    const size_t token_count = tokenize(in, count, stream->has_previous, stream->previous, tokens, counts);
    write_block(&w, tokens, token_count, counts, in, count, final);
    stream->bits = w.bits;
    stream->count = w.count;
    stream->out = w.out;
    if (count > 0) {
        stream->has_previous = 1;
        stream->previous = in[count - 1];
    }
}

size_t bl_run_deflate_end(bl_run_deflate_stream *stream) {
    bit_writer w = {stream->bits, stream->count, stream->out};
    align_to_byte(&w);
    stream->bits = 0;
    stream->count = 0;
    stream->out = w.out;
    return (size_t)(w.out - stream->start);
}

size_t bl_run_deflate(const uint8_t *in, size_t count, uint8_t *out, uint16_t *tokens) {
    bl_run_deflate_stream stream;
    bl_run_deflate_begin(&stream, out);
    size_t start = 0;
    do {
        const size_t piece = count - start > BL_RUN_DEFLATE_BLOCK ? BL_RUN_DEFLATE_BLOCK : count - start;
        bl_run_deflate_block(&stream, in + start, piece, start + piece == count, tokens);
        start += piece;
    } while (start < count);
    return bl_run_deflate_end(&stream);
}
