// The AEAD the record layer (core/records.h) seals and opens chunks with: a keyed cipher with a 96-bit nonce
// and a 16-byte tag, no associated data. Two implement it: AES-256-GCM from any engine of core/aes
// (core::gcm_aead, core/records.h; pcrypt's payload) and ChaCha20-Poly1305 (core/chacha/; age's payload).
// This header depends on nothing of ours, so that the engine folders can implement it and the record layer
// sit above them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace pcrypt::core {

inline constexpr std::size_t kAeadNonceBytes = 12;
inline constexpr std::size_t kAeadTagBytes = 16;

// seal/open are const and thread-safe: one keyed instance may be shared by all pipeline workers.
class Aead {
 public:
  virtual ~Aead() = default;
  // Encrypts len bytes from in to out under `nonce` and writes the 16-byte tag. out == in (in place) is
  // allowed; any other overlap is not.
  virtual void seal(std::uint8_t* out, std::uint8_t* tag, const std::uint8_t* in, std::size_t len,
                    std::span<const std::uint8_t, kAeadNonceBytes> nonce) const = 0;
  // Verifies the tag in constant time and decrypts. On failure returns false and leaves out[0..len) zeroed:
  // no unauthenticated plaintext is ever released. out == in is allowed.
  [[nodiscard]] virtual bool open(std::uint8_t* out, const std::uint8_t* in, std::size_t len,
                                  const std::uint8_t* tag,
                                  std::span<const std::uint8_t, kAeadNonceBytes> nonce) const = 0;
};

}  // namespace pcrypt::core
