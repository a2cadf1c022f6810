/* The avx512 variant of the PNG kernels (avx512f,avx512bw,avx512dq,avx512vl,avx512cd,avx2,fma,bmi,bmi2,lzcnt,movbe,f16c,avx,sse4.2,popcnt,ssse3). */
#include "png_kernels.h"
#include <string.h>
#if defined(__x86_64__)

#define PNG_VARIANT(name) name##_avx512
#pragma clang attribute push(__attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,avx512cd,avx2,fma,bmi,bmi2,lzcnt,movbe,f16c,avx,sse4.2,popcnt,ssse3"))), apply_to = function)
#include "png_kernels_body.h"
#pragma clang attribute pop
#endif
