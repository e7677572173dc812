#include "core/age/primitives.h"

#include <openssl/evp.h>
#include <sodium.h>

#include <cstdint>
#include <string>

#include "core/aes/sodium_init.h"
#include "core/error.h"
#include "core/hmac_sha256.h"

namespace pcrypt::core::age {

// HMAC-SHA-256 and HKDF are libsodium's HMAC (core/hmac_sha256.h), not OpenSSL's: OpenSSL 3's first EVP call
// in a process sets up its provider tables, about 3 ms, which was a quarter of `age -r` on a small file (with
// libsodium's ChaCha20-Poly1305 for short messages, core/chacha/chacha20poly1305.cc, such a run no longer
// calls OpenSSL at all). tests/test_age_primitives.cc holds both to RFC 4231 and 5869 and to OpenSSL.
namespace {

constexpr std::uint8_t kZeroNonce[kAeadNonceBytes] = {};

}  // namespace

void hkdf_sha256_into(std::span<const std::uint8_t> ikm, std::span<const std::uint8_t> salt,
                      std::string_view info, std::span<std::uint8_t, 32> prk,
                      std::span<std::uint8_t, 32> out) {
  // RFC 5869 for one block of output: PRK = HMAC(salt, IKM); OKM = T(1) = HMAC(PRK, info || 0x01). An empty
  // salt stands for HashLen zero bytes (§2.2), which HMAC's zero padding of its key makes the same key.
  require_sodium();
  core::hmac_sha256(salt, {ikm}, prk);
  static constexpr std::uint8_t kFirstBlock = 1;
  core::hmac_sha256(prk,
                    {std::span(reinterpret_cast<const std::uint8_t*>(info.data()), info.size()),
                     std::span(&kFirstBlock, 1)},
                    out);
}

SecretBytes hkdf_sha256(std::span<const std::uint8_t> ikm, std::span<const std::uint8_t> salt,
                        std::string_view info) {
  SecretBytes prk(32);
  SecretBytes okm(32);
  hkdf_sha256_into(ikm, salt, info, prk.span().first<32>(), okm.span().first<32>());
  return okm;
}

std::array<std::uint8_t, 32> hmac_sha256(std::span<const std::uint8_t> key,
                                         std::span<const std::uint8_t> message) {
  require_sodium();
  std::array<std::uint8_t, 32> out{};
  core::hmac_sha256(key, {message}, out);
  return out;
}

SecretBytes scrypt(std::span<const std::uint8_t> passphrase, std::span<const std::uint8_t> salt,
                   unsigned log2_n) {
  SecretBytes out(32);
  const std::uint64_t n = std::uint64_t{1} << log2_n;
  // 128 * r * N for V, plus a little for B and XY; OpenSSL refuses anything above maxmem.
  const std::uint64_t maxmem = 128 * 8 * (n + 2) + (std::uint64_t{1} << 20);
  static const std::uint8_t kEmpty[1] = {0};
  if (EVP_PBE_scrypt(reinterpret_cast<const char*>(passphrase.empty() ? kEmpty : passphrase.data()),
                     passphrase.size(), salt.data(), salt.size(), n, 8, 1, maxmem, out.data(),
                     out.size()) != 1)
    throw Error(PCRYPT_E_OUT_OF_MEMORY,
                "scrypt with work factor 2^" + std::to_string(log2_n) + " failed (out of memory?)");
  return out;
}

std::array<std::uint8_t, 32> seal_file_key(std::span<const std::uint8_t, kAeadKeyBytes> wrap_key,
                                           std::span<const std::uint8_t, 16> file_key) {
  std::array<std::uint8_t, 32> body{};
  chacha::make_chacha20poly1305(wrap_key, ChaChaBackend::sodium)
      ->seal(body.data(), body.data() + 16, file_key.data(), 16, kZeroNonce);
  return body;
}

bool open_file_key(std::span<const std::uint8_t, kAeadKeyBytes> wrap_key,
                   std::span<const std::uint8_t, 32> body, SecretBytes& file_key) {
  file_key = SecretBytes(16);
  return open_file_key_into(wrap_key, body, file_key.span().first<16>());
}

bool open_file_key_into(std::span<const std::uint8_t, kAeadKeyBytes> wrap_key,
                        std::span<const std::uint8_t, 32> body, std::span<std::uint8_t, 16> file_key) {
  require_sodium();
  return crypto_aead_chacha20poly1305_ietf_decrypt_detached(file_key.data(), nullptr, body.data(), 16,
                                                            body.data() + 16, nullptr, 0, kZeroNonce,
                                                            wrap_key.data()) == 0;
}

}  // namespace pcrypt::core::age
