// OpenSSL's libcrypto, as Debian packages it: its message digests and HMAC.
#include <openssl/evp.h>
#include <openssl/hmac.h>
