// libwebp's encoder and decoder (Debian's libwebp-dev, linked from libwebp.a).
#include <webp/encode.h>
#include <webp/decode.h>
