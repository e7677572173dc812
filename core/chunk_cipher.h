// Seals and opens one payload chunk: AES-256-GCM under the STREAM nonce (chunk index + last-chunk flag).
// Layout and nonce are specified in docs/FORMAT.md ("Payload"); this is its only implementation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "core/aes/engine.h"

namespace pcrypt::core {

inline constexpr std::size_t kChunkTagBytes = 16;

class ChunkCipher {
 public:
  ChunkCipher(const aes::Engine& engine, std::span<const std::uint8_t, aes::kGcmKeyBytes> payload_key);

  // buf holds len plaintext bytes and has room for len + kChunkTagBytes; on return it holds ciphertext ||
  // tag. Throws Error(payload) if index is past the format's chunk-count limit (counter overflow).
  void seal(std::uint64_t index, bool last, std::uint8_t* buf, std::size_t len) const;
  // buf holds len ciphertext bytes followed by the tag; on success buf[0..len) is the plaintext. On failure
  // returns false and buf[0..len) is zeroed. Throws Error(payload) on counter overflow.
  [[nodiscard]] bool open(std::uint64_t index, bool last, std::uint8_t* buf, std::size_t len) const;

 private:
  std::unique_ptr<aes::Gcm> gcm_;
};

}  // namespace pcrypt::core
