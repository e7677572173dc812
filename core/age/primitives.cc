#include "core/age/primitives.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/kdf.h>
#include <sodium.h>

#include <cstring>
#include <stdexcept>

#include "core/aes/sodium_init.h"
#include "core/error.h"

namespace pcrypt::core::age {
namespace {

[[noreturn]] void openssl_failed(const char* what) {
  throw Error(ErrorKind::io, std::string("OpenSSL ") + what + " failed");
}

struct CipherCtx {
  EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
  CipherCtx() {
    if (ctx == nullptr) throw std::bad_alloc();
  }
  ~CipherCtx() { EVP_CIPHER_CTX_free(ctx); }
  CipherCtx(const CipherCtx&) = delete;
  CipherCtx& operator=(const CipherCtx&) = delete;
};

// EVP contexts are not thread-safe and cost an allocation: each thread keeps one and re-keys it per call
// (ChaCha20's "key schedule" is a copy of the key, so re-keying is free).
EVP_CIPHER_CTX* thread_ctx() {
  thread_local CipherCtx ctx;
  return ctx.ctx;
}

// Fetched once: OpenSSL 3.0 otherwise looks the algorithm up in its provider tables (under a lock) on every
// EVP_*Init_ex of a chunk, which every worker thread would queue on.
const EVP_CIPHER* chacha20_poly1305() {
  static EVP_CIPHER* const cipher = EVP_CIPHER_fetch(nullptr, "ChaCha20-Poly1305", nullptr);
  if (cipher == nullptr) openssl_failed("fetching ChaCha20-Poly1305");
  return cipher;
}

int as_int(std::size_t n) {
  if (n > static_cast<std::size_t>(INT32_MAX)) throw std::length_error("AEAD input too long for OpenSSL");
  return static_cast<int>(n);
}

class OpenSslChaCha final : public aes::Gcm {
 public:
  explicit OpenSslChaCha(std::span<const std::uint8_t, kAeadKeyBytes> key) : key_(kAeadKeyBytes) {
    std::memcpy(key_.data(), key.data(), kAeadKeyBytes);
  }
  void seal(std::uint8_t* out, std::uint8_t* tag, const std::uint8_t* in, std::size_t len,
            const std::uint8_t* aad, std::size_t aad_len, const std::uint8_t* nonce) const override {
    EVP_CIPHER_CTX* ctx = thread_ctx();
    int n = 0;
    if (EVP_EncryptInit_ex(ctx, chacha20_poly1305(), nullptr, key_.data(), nonce) != 1)
      openssl_failed("ChaCha20-Poly1305 init");
    if (aad_len > 0 && EVP_EncryptUpdate(ctx, nullptr, &n, aad, as_int(aad_len)) != 1)
      openssl_failed("ChaCha20-Poly1305 aad");
    if (len > 0 && EVP_EncryptUpdate(ctx, out, &n, in, as_int(len)) != 1) openssl_failed("ChaCha20-Poly1305");
    if (EVP_EncryptFinal_ex(ctx, out + len, &n) != 1 ||
        EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, kAeadTagBytes, tag) != 1)
      openssl_failed("ChaCha20-Poly1305 final");
  }
  bool open(std::uint8_t* out, const std::uint8_t* in, std::size_t len, const std::uint8_t* tag,
            const std::uint8_t* aad, std::size_t aad_len, const std::uint8_t* nonce) const override {
    EVP_CIPHER_CTX* ctx = thread_ctx();
    int n = 0;
    std::uint8_t tag_copy[kAeadTagBytes];
    std::memcpy(tag_copy, tag, kAeadTagBytes);
    if (EVP_DecryptInit_ex(ctx, chacha20_poly1305(), nullptr, key_.data(), nonce) != 1)
      openssl_failed("ChaCha20-Poly1305 init");
    if (aad_len > 0 && EVP_DecryptUpdate(ctx, nullptr, &n, aad, as_int(aad_len)) != 1)
      openssl_failed("ChaCha20-Poly1305 aad");
    if (len > 0 && EVP_DecryptUpdate(ctx, out, &n, in, as_int(len)) != 1) openssl_failed("ChaCha20-Poly1305");
    if (EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, kAeadTagBytes, tag_copy) != 1)
      openssl_failed("ChaCha20-Poly1305 tag");
    // OpenSSL compares the tag in constant time; on a mismatch the plaintext it wrote must never be released.
    if (EVP_DecryptFinal_ex(ctx, out + len, &n) != 1) {
      if (len > 0) sodium_memzero(out, len);
      return false;
    }
    return true;
  }

 private:
  SecretBytes key_;
};

class SodiumChaCha final : public aes::Gcm {
 public:
  explicit SodiumChaCha(std::span<const std::uint8_t, kAeadKeyBytes> key) : key_(kAeadKeyBytes) {
    require_sodium();
    std::memcpy(key_.data(), key.data(), kAeadKeyBytes);
  }
  void seal(std::uint8_t* out, std::uint8_t* tag, const std::uint8_t* in, std::size_t len,
            const std::uint8_t* aad, std::size_t aad_len, const std::uint8_t* nonce) const override {
    crypto_aead_chacha20poly1305_ietf_encrypt_detached(out, tag, nullptr, in, len, aad, aad_len, nullptr,
                                                       nonce, key_.data());
  }
  bool open(std::uint8_t* out, const std::uint8_t* in, std::size_t len, const std::uint8_t* tag,
            const std::uint8_t* aad, std::size_t aad_len, const std::uint8_t* nonce) const override {
    // libsodium verifies before decrypting and leaves `out` untouched on failure: zero it as the contract
    // says.
    if (crypto_aead_chacha20poly1305_ietf_decrypt_detached(out, nullptr, in, len, tag, aad, aad_len, nonce,
                                                           key_.data()) == 0)
      return true;
    if (len > 0) sodium_memzero(out, len);
    return false;
  }

 private:
  SecretBytes key_;
};

constexpr std::uint8_t kZeroNonce[12] = {};

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

ChaChaBackend default_chacha_backend() {
  return ChaChaBackend::openssl;
}

std::string_view backend_name(ChaChaBackend backend) {
  return backend == ChaChaBackend::openssl ? "openssl" : "sodium";
}

std::unique_ptr<aes::Gcm> make_chacha20poly1305(std::span<const std::uint8_t, kAeadKeyBytes> key,
                                                ChaChaBackend backend) {
  if (backend == ChaChaBackend::sodium) return std::make_unique<SodiumChaCha>(key);
  return std::make_unique<OpenSslChaCha>(key);
}

std::array<std::uint8_t, 32> seal_file_key(std::span<const std::uint8_t, kAeadKeyBytes> wrap_key,
                                           std::span<const std::uint8_t, 16> file_key) {
  std::array<std::uint8_t, 32> body{};
  SodiumChaCha(wrap_key).seal(body.data(), body.data() + 16, file_key.data(), 16, nullptr, 0, kZeroNonce);
  return body;
}

bool open_file_key(std::span<const std::uint8_t, kAeadKeyBytes> wrap_key,
                   std::span<const std::uint8_t, 32> body, SecretBytes& file_key) {
  file_key = SecretBytes(16);
  return SodiumChaCha(wrap_key).open(file_key.data(), body.data(), 16, body.data() + 16, nullptr, 0,
                                     kZeroNonce);
}

}  // namespace pcrypt::core::age
