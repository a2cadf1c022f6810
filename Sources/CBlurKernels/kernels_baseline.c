/* The baseline variant: plain x86-64 (SSE2), or whatever the target's default is elsewhere. */
#include "blur_kernels.h"
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#define BL_VECTOR_BYTES 16
#define BL_VARIANT(name) name##_baseline
#include "kernels_body.h"
