// The SSH RSA public key blob parser (core/keys/ssh_rsa.h): any bytes either throw core::Error or give a key
// whose modulus length is within the accepted range and whose blob is the input; such a key also encrypts,
// without any error (FORMAT.md §10.7: a key the rule accepts never fails later inside OpenSSL).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>

#include "core/error.h"
#include "core/keys/ssh_rsa.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace rsa = pcrypt::core::ssh_rsa;
  rsa::PublicKey key;
  try {
    key = rsa::parse_public_blob(std::span(data, size), "fuzz");
  } catch (const pcrypt::core::Error&) {
    return 0;
  }
  if (key.modulus_bytes * 8 < rsa::min_modulus_bits || key.modulus_bytes * 8 > rsa::max_modulus_bits + 7 ||
      key.blob.size() != size)
    std::abort();
  const std::uint8_t message[32] = {};
  try {
    if (rsa::oaep_encrypt(key, message, "fuzz").size() != key.modulus_bytes) std::abort();
  } catch (const pcrypt::core::Error&) {
    std::abort();  // accepted, then refused by OpenSSL: the rule let in a key it should not have
  }
  return 0;
}
