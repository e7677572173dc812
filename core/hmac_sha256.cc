#include "core/hmac_sha256.h"

#include <sodium.h>

namespace pcrypt::core {
namespace {

// libsodium reads neither pointer when its length is 0, but declares them non-null.
const std::uint8_t* nonnull(std::span<const std::uint8_t> bytes) {
  static const std::uint8_t kNothing = 0;
  return bytes.empty() ? &kNothing : bytes.data();
}

}  // namespace

void hmac_sha256(std::span<const std::uint8_t> key,
                 std::initializer_list<std::span<const std::uint8_t>> parts,
                 std::span<std::uint8_t, 32> out) {
  static_assert(crypto_auth_hmacsha256_BYTES == 32);
  crypto_auth_hmacsha256_state state;
  crypto_auth_hmacsha256_init(&state, nonnull(key), key.size());
  for (const std::span<const std::uint8_t> part : parts)
    crypto_auth_hmacsha256_update(&state, nonnull(part), part.size());
  crypto_auth_hmacsha256_final(&state, out.data());
  sodium_memzero(&state, sizeof state);
}

}  // namespace pcrypt::core
