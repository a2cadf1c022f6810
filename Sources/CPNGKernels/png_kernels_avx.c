/* The avx variant of the PNG kernels (avx,sse4.2,popcnt,ssse3). */
#include "png_kernels.h"
#include <string.h>
#if defined(__x86_64__)

#define PNG_VARIANT(name) name##_avx
#pragma clang attribute push(__attribute__((target("avx,sse4.2,popcnt,ssse3"))), apply_to = function)
#include "png_kernels_body.h"
#pragma clang attribute pop
#endif
