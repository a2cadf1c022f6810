/* The avx2 variant of the blur kernels (avx2,fma,bmi,bmi2,lzcnt,movbe,f16c,avx,sse4.2,popcnt,ssse3). */
#include "blur_kernels.h"
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__)
#include <immintrin.h>

#define BL_VECTOR_BYTES 32
#define BL_VARIANT(name) name##_avx2
#pragma clang attribute push(__attribute__((target("avx2,fma,bmi,bmi2,lzcnt,movbe,f16c,avx,sse4.2,popcnt,ssse3"))), apply_to = function)
#include "kernels_body.h"
#pragma clang attribute pop
#endif
