/* The baseline variant of the PNG kernels: plain x86-64 (SSE2), or the target's default elsewhere. */
#include "png_kernels.h"
#include <string.h>

#define PNG_VARIANT(name) name##_baseline
#include "png_kernels_body.h"
