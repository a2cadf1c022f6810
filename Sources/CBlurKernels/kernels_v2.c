/* The v2 variant of the blur kernels (sse4.2,popcnt,ssse3). */
#include "blur_kernels.h"
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__)
#include <immintrin.h>

#define BL_VECTOR_BYTES 16
#define BL_VARIANT(name) name##_v2
#pragma clang attribute push(__attribute__((target("sse4.2,popcnt,ssse3"))), apply_to = function)
#include "kernels_body.h"
#pragma clang attribute pop
#endif
