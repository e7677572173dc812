#include "core/pcrypt/payload.h"

#include <cstdint>
#include <span>

#include "core/pcrypt/keys.h"

namespace pcrypt::core {

ChunkCipher payload_cipher(const aes::Engine& engine, const SecretBytes& file_key) {
  const SecretBytes payload_key = derive_subkey(file_key.span(), kLabelPayload);
  return ChunkCipher(gcm_aead(engine.make_gcm(
      std::span<const std::uint8_t, aes::kGcmKeyBytes>(payload_key.data(), aes::kGcmKeyBytes))));
}

}  // namespace pcrypt::core
