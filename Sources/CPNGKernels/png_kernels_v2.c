/* The v2 variant of the PNG kernels (sse4.2,popcnt,ssse3). */
#include "png_kernels.h"
#include <string.h>
#if defined(__x86_64__)

#define PNG_VARIANT(name) name##_v2
#pragma clang attribute push(__attribute__((target("sse4.2,popcnt,ssse3"))), apply_to = function)
#include "png_kernels_body.h"
#pragma clang attribute pop
#endif
