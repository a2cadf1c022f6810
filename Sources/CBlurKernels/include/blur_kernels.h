#ifndef BLURLABEL_BLUR_KERNELS_H
#define BLURLABEL_BLUR_KERNELS_H
/* The inner loops of the Gaussian blur: plain C that the compiler vectorizes, because these
   four loops decide the product's speed. Planning (which filter, which coefficients, which rows
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

/* FIR with a symmetric kernel: weights[0] is the centre tap, weights[1...radius] each side.
   Both passes in one sweep down the rows: the horizontally filtered rows an output row needs are
   kept in a ring of 2*radius+1 rows, so no full-size intermediate plane is made. */
void bl_fir_rows(const bl_layout *layout, const float *weights, int radius,
                 const uint8_t *source, uint8_t *destination, int row_begin, int row_end);

/* Deriche's recursive filter, two sections. Horizontal works on groups of BL_LANES/channels
   rows; vertical on strips of BL_LANES samples of a row. */
void bl_deriche_horizontal(const bl_layout *layout, const bl_section sections[2],
                           const uint8_t *source, float *plane, int group_begin, int group_end);
void bl_deriche_vertical(const bl_layout *layout, const bl_section sections[2],
                         const float *plane, uint8_t *destination, int strip_begin, int strip_end);

#endif
