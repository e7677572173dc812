// Differential fuzzer for our own ChaCha20-Poly1305 (core/chacha/chacha20poly1305_avx512ifma.h) against
// libsodium: the input is split into key (32 bytes), nonce (12), an AAD length byte, AAD and message. Both
// must give the same ciphertext and tag, open it back, and refuse it with a bit flipped; Poly1305 alone is
// compared too, keyed by the same 32 bytes. On a CPU without AVX-512 IFMA there is nothing to compare.
#include <sodium.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "core/chacha/chacha20poly1305_avx512ifma.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace pcrypt::chacha::detail;
  static const bool runs = sodium_init() >= 0 && avx512ifma_supported();
  if (!runs || size < 45) return 0;
  const std::uint8_t* key = data;
  const std::uint8_t* nonce = data + 32;
  const std::size_t aad_len = std::min<std::size_t>(data[44], size - 45);
  const std::uint8_t* aad = data + 45;
  const std::uint8_t* msg = aad + aad_len;
  const std::size_t len = size - 45 - aad_len;

  std::vector<std::uint8_t> expected(len + 16), got(len + 16),
      back(len + 1);  // never empty: memcmp wants a pointer
  crypto_aead_chacha20poly1305_ietf_encrypt_detached(expected.data(), expected.data() + len, nullptr, msg,
                                                     len, aad, aad_len, nullptr, nonce, key);
  seal_avx512ifma(key, nonce, aad, aad_len, msg, len, got.data(), got.data() + len);
  if (got != expected) std::abort();
  if (!open_avx512ifma(key, nonce, aad, aad_len, got.data(), len, got.data() + len, back.data()) ||
      std::memcmp(back.data(), msg, len) != 0)
    std::abort();
  got[(size * 7) % (len + 16)] ^= 0x80;
  if (open_avx512ifma(key, nonce, aad, aad_len, got.data(), len, got.data() + len, back.data())) std::abort();
  for (std::size_t i = 0; i < len; ++i)
    if (back[i] != 0) std::abort();

  std::uint8_t tag_sodium[16], tag_ours[16];
  crypto_onetimeauth_poly1305(tag_sodium, msg, len, key);
  poly1305_avx512ifma(tag_ours, msg, len, key);
  if (std::memcmp(tag_sodium, tag_ours, 16) != 0) std::abort();
  return 0;
}
