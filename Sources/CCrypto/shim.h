// SHA256_Init/Update/Final (serve's HMAC keeps each key's two padded-block states and copies them
// per message: no allocation, no algorithm fetch) are deprecated in OpenSSL 3 but kept in every 3.x.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
