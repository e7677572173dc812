#include "core/age/primitives.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/kdf.h>

#include <cstdint>
#include <new>
#include <stdexcept>
#include <string>

#include "core/error.h"

namespace pcrypt::core::age {
namespace {

[[noreturn]] void openssl_failed(const char* what) {
  throw Error(ErrorKind::io, std::string("OpenSSL ") + what + " failed");
}

int as_int(std::size_t n) {
  if (n > static_cast<std::size_t>(INT32_MAX)) throw std::length_error("AEAD input too long for OpenSSL");
  return static_cast<int>(n);
}

constexpr std::uint8_t kZeroNonce[kAeadNonceBytes] = {};

}  // namespace

SecretBytes hkdf_sha256(std::span<const std::uint8_t> ikm, std::span<const std::uint8_t> salt,
                        std::string_view info) {
  SecretBytes out(32);
  EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new_id(EVP_PKEY_HKDF, nullptr);
  if (ctx == nullptr) throw std::bad_alloc();
  std::size_t len = out.size();
  // OpenSSL refuses a zero-length key and salt pointer of nullptr; an empty salt means HashLen zero bytes
  // (RFC 5869 §2.2), which is also what OpenSSL does with an empty salt.
  static const std::uint8_t kEmpty[1] = {0};
  const bool ok =
      EVP_PKEY_derive_init(ctx) == 1 && EVP_PKEY_CTX_set_hkdf_md(ctx, EVP_sha256()) == 1 &&
      EVP_PKEY_CTX_set1_hkdf_salt(ctx, salt.empty() ? kEmpty : salt.data(), as_int(salt.size())) == 1 &&
      EVP_PKEY_CTX_set1_hkdf_key(ctx, ikm.empty() ? kEmpty : ikm.data(), as_int(ikm.size())) == 1 &&
      EVP_PKEY_CTX_add1_hkdf_info(ctx, reinterpret_cast<const unsigned char*>(info.data()),
                                  as_int(info.size())) == 1 &&
      EVP_PKEY_derive(ctx, out.data(), &len) == 1 && len == out.size();
  EVP_PKEY_CTX_free(ctx);
  if (!ok) openssl_failed("HKDF-SHA-256");
  return out;
}

std::array<std::uint8_t, 32> hmac_sha256(std::span<const std::uint8_t> key,
                                         std::span<const std::uint8_t> message) {
  std::array<std::uint8_t, 32> out{};
  unsigned int len = 0;
  static const std::uint8_t kEmpty[1] = {0};
  if (HMAC(EVP_sha256(), key.empty() ? kEmpty : key.data(), as_int(key.size()),
           message.empty() ? kEmpty : message.data(), message.size(), out.data(), &len) == nullptr ||
      len != out.size())
    openssl_failed("HMAC-SHA-256");
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
    throw Error(ErrorKind::io,
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
  return chacha::make_chacha20poly1305(wrap_key, ChaChaBackend::sodium)
      ->open(file_key.data(), body.data(), 16, body.data() + 16, kZeroNonce);
}

}  // namespace pcrypt::core::age
