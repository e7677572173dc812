#include "core/chacha/chacha20poly1305.h"

#include <openssl/evp.h>
#include <sodium.h>

#include <cstdint>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/aes/secret_bytes.h"
#include "core/aes/sodium_init.h"
#include "core/error.h"
#if defined(PCRYPT_ENGINES_X86_64)
#include "core/aes/cpu.h"
#include "core/chacha/chacha20poly1305_avx512ifma.h"
#endif

namespace pcrypt::chacha {
namespace {

using core::kAeadNonceBytes;
using core::kAeadTagBytes;

[[noreturn]] void openssl_failed(const char* what) {
  throw core::Error(PCRYPT_E_CRYPTO_BACKEND, std::string("OpenSSL ") + what + " failed");
}

// Fetched once: OpenSSL 3.0 otherwise looks the algorithm up in its provider tables (under a lock) on every
// EVP_*Init_ex of a chunk, which every worker thread would queue on.
const EVP_CIPHER* chacha20_poly1305() {
  static EVP_CIPHER* const cipher = EVP_CIPHER_fetch(nullptr, "ChaCha20-Poly1305", nullptr);
  if (cipher == nullptr) openssl_failed("fetching ChaCha20-Poly1305");
  return cipher;
}

// A context bound to ChaCha20-Poly1305 once, when made. Each call then re-keys it with a null cipher
// (EVP_*Init_ex(ctx, nullptr, nullptr, key, nonce)): OpenSSL 3.0 keeps the provider's context and only resets
// its key, nonce and MAC state, where passing the cipher again frees and re-creates the provider context
// (an allocation, a free and a parameter look-up per 64 KiB chunk of an age payload).
struct CipherCtx {
  EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
  CipherCtx() {
    if (ctx == nullptr) throw std::bad_alloc();
    if (EVP_CipherInit_ex(ctx, chacha20_poly1305(), nullptr, nullptr, nullptr, 1) != 1) {
      EVP_CIPHER_CTX_free(ctx);
      openssl_failed("ChaCha20-Poly1305 context");
    }
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

int as_int(std::size_t n) {
  if (n > static_cast<std::size_t>(INT32_MAX)) throw std::length_error("AEAD input too long for OpenSSL");
  return static_cast<int>(n);
}

class SodiumChaCha final : public core::Aead {
 public:
  explicit SodiumChaCha(std::span<const std::uint8_t, kKeyBytes> key) : key_(kKeyBytes) {
    require_sodium();
    std::memcpy(key_.data(), key.data(), kKeyBytes);
  }
  void seal(std::uint8_t* out, std::uint8_t* tag, const std::uint8_t* in, std::size_t len,
            std::span<const std::uint8_t, kAeadNonceBytes> nonce) const override {
    crypto_aead_chacha20poly1305_ietf_encrypt_detached(out, tag, nullptr, in, len, nullptr, 0, nullptr,
                                                       nonce.data(), key_.data());
  }
  bool open(std::uint8_t* out, const std::uint8_t* in, std::size_t len, const std::uint8_t* tag,
            std::span<const std::uint8_t, kAeadNonceBytes> nonce) const override {
    // libsodium declares the ciphertext pointer non-null even when it is empty, where a caller may pass
    // nullptr (an empty vector's data()).
    static const std::uint8_t no_ciphertext = 0;
    if (len == 0) in = &no_ciphertext;
    // libsodium verifies before decrypting and leaves `out` untouched on failure: zero it as the contract
    // says.
    if (crypto_aead_chacha20poly1305_ietf_decrypt_detached(out, nullptr, in, len, tag, nullptr, 0,
                                                           nonce.data(), key_.data()) == 0)
      return true;
    if (len > 0) sodium_memzero(out, len);
    return false;
  }
  const std::uint8_t* key() const { return key_.data(); }

 private:
  SecretBytes key_;
};

// Messages shorter than kOpenSslFromBytes go to libsodium (chacha20poly1305.h says why), whose object also
// holds the one copy of the key.
class OpenSslChaCha final : public core::Aead {
 public:
  explicit OpenSslChaCha(std::span<const std::uint8_t, kKeyBytes> key) : short_(key) {}
  void seal(std::uint8_t* out, std::uint8_t* tag, const std::uint8_t* in, std::size_t len,
            std::span<const std::uint8_t, kAeadNonceBytes> nonce) const override {
    if (len < kOpenSslFromBytes) return short_.seal(out, tag, in, len, nonce);
    EVP_CIPHER_CTX* ctx = thread_ctx();
    int n = 0;
    if (EVP_EncryptInit_ex(ctx, nullptr, nullptr, short_.key(), nonce.data()) != 1)
      openssl_failed("ChaCha20-Poly1305 init");
    if (len > 0 && EVP_EncryptUpdate(ctx, out, &n, in, as_int(len)) != 1) openssl_failed("ChaCha20-Poly1305");
    if (EVP_EncryptFinal_ex(ctx, out + len, &n) != 1 ||
        EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, kAeadTagBytes, tag) != 1)
      openssl_failed("ChaCha20-Poly1305 final");
  }
  bool open(std::uint8_t* out, const std::uint8_t* in, std::size_t len, const std::uint8_t* tag,
            std::span<const std::uint8_t, kAeadNonceBytes> nonce) const override {
    if (len < kOpenSslFromBytes) return short_.open(out, in, len, tag, nonce);
    EVP_CIPHER_CTX* ctx = thread_ctx();
    int n = 0;
    std::uint8_t tag_copy[kAeadTagBytes];
    std::memcpy(tag_copy, tag, kAeadTagBytes);
    if (EVP_DecryptInit_ex(ctx, nullptr, nullptr, short_.key(), nonce.data()) != 1)
      openssl_failed("ChaCha20-Poly1305 init");
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
  SodiumChaCha short_;
};

}  // namespace

#if defined(PCRYPT_ENGINES_X86_64)
namespace detail {
bool avx512ifma_supported() {
  const aes::cpu::Features& f = aes::cpu::features();
  return f.os_zmm && f.avx512f && f.avx512bw && f.avx512vl && f.avx512ifma;
}
}  // namespace detail
#endif

namespace {
bool runs_here(ChaChaBackend backend) {
  if (backend != ChaChaBackend::avx512ifma) return true;
#if defined(PCRYPT_ENGINES_X86_64)
  return detail::avx512ifma_supported();
#else
  return false;
#endif
}
}  // namespace

ChaChaBackend default_chacha_backend() {
#if defined(PCRYPT_ENGINES_X86_64)
  // The same rule as the AES engines' zmm code: not on the Intel models that lower their clock for it.
  static const bool own =
      detail::avx512ifma_supported() && aes::cpu::zmm_downclock_reason(aes::cpu::features()).empty();
  if (own) return ChaChaBackend::avx512ifma;
#endif
  return ChaChaBackend::openssl;
}

std::vector<ChaChaBackend> available_chacha_backends() {
  std::vector<ChaChaBackend> out{default_chacha_backend()};
  for (const auto backend : {ChaChaBackend::avx512ifma, ChaChaBackend::openssl, ChaChaBackend::sodium})
    if (backend != out.front() && runs_here(backend)) out.push_back(backend);
  return out;
}

std::string_view backend_name(ChaChaBackend backend) {
  switch (backend) {
    case ChaChaBackend::openssl:
      return "openssl";
    case ChaChaBackend::sodium:
      return "sodium";
    case ChaChaBackend::avx512ifma:
      return "avx512ifma";
  }
  return "unknown";
}

std::unique_ptr<core::Aead> make_chacha20poly1305(std::span<const std::uint8_t, kKeyBytes> key,
                                                  ChaChaBackend backend) {
  if (!runs_here(backend))
    throw std::invalid_argument("ChaCha20-Poly1305 backend " + std::string(backend_name(backend)) +
                                " does not run on this CPU");
  switch (backend) {
    case ChaChaBackend::sodium:
      return std::make_unique<SodiumChaCha>(key);
    case ChaChaBackend::avx512ifma:
#if defined(PCRYPT_ENGINES_X86_64)
      return detail::make_avx512ifma_chacha(key);
#else
      break;
#endif
    case ChaChaBackend::openssl:
      break;
  }
  return std::make_unique<OpenSslChaCha>(key);
}

}  // namespace pcrypt::chacha
