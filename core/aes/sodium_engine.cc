// The reference engine: libsodium's AES-256-GCM. Every other engine must match it byte for byte.
#include <sodium.h>

#include <stdexcept>

#include "core/aes/engine_registry.h"
#include "core/aes/sodium_init.h"

namespace pcrypt::aes::detail {
namespace {

class SodiumGcm final : public Gcm {
 public:
  explicit SodiumGcm(std::span<const std::uint8_t, kGcmKeyBytes> key) {
    // The precomputed state holds the expanded key: keep it in guarded memory, wiped on free.
    state_ = static_cast<crypto_aead_aes256gcm_state*>(sodium_malloc(sizeof(crypto_aead_aes256gcm_state)));
    if (state_ == nullptr) throw std::bad_alloc();
    crypto_aead_aes256gcm_beforenm(state_, key.data());
  }
  ~SodiumGcm() override { sodium_free(state_); }
  SodiumGcm(const SodiumGcm&) = delete;
  SodiumGcm& operator=(const SodiumGcm&) = delete;

  void seal(std::uint8_t* out, std::uint8_t* tag, const std::uint8_t* in, std::size_t len,
            const std::uint8_t* aad, std::size_t aad_len, const std::uint8_t* nonce) const override {
    unsigned long long tag_len = 0;
    std::uint8_t empty = 0;  // callers may pass null buffers with len == 0; libsodium expects valid pointers
    crypto_aead_aes256gcm_encrypt_detached_afternm(len ? out : &empty, tag, &tag_len, len ? in : &empty, len,
                                                   aad_len ? aad : &empty, aad_len, nullptr, nonce, state_);
  }

  bool open(std::uint8_t* out, const std::uint8_t* in, std::size_t len, const std::uint8_t* tag,
            const std::uint8_t* aad, std::size_t aad_len, const std::uint8_t* nonce) const override {
    // libsodium verifies before decrypting and writes nothing on failure; zero out anyway so the contract
    // (out zeroed on failure) holds for callers that decrypt out of place.
    std::uint8_t empty = 0;  // as in seal: never hand libsodium a null pointer
    if (crypto_aead_aes256gcm_decrypt_detached_afternm(len ? out : &empty, nullptr, len ? in : &empty, len,
                                                       tag, aad_len ? aad : &empty, aad_len, nonce,
                                                       state_) == 0)
      return true;
    if (len != 0) sodium_memzero(out, len);
    return false;
  }

 private:
  crypto_aead_aes256gcm_state* state_;
};

}  // namespace

bool sodium_supported() {
  return sodium_ready() && crypto_aead_aes256gcm_is_available() != 0;
}

std::unique_ptr<Gcm> make_sodium_gcm(std::span<const std::uint8_t, kGcmKeyBytes> key) {
  if (!sodium_supported()) throw std::runtime_error("libsodium AES-256-GCM is not available on this CPU");
  return std::make_unique<SodiumGcm>(key);
}

}  // namespace pcrypt::aes::detail
