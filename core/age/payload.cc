#include "core/age/payload.h"

#include <sodium.h>

namespace pcrypt::core::age {

PayloadNonce new_payload_nonce() {
  PayloadNonce nonce{};
  randombytes_buf(nonce.data(), nonce.size());
  return nonce;
}

ChunkCipher payload_cipher(const SecretBytes& file_key, const PayloadNonce& nonce, ChaChaBackend backend) {
  const SecretBytes key = hkdf_sha256(file_key.span(), nonce, "payload");
  return ChunkCipher(chacha::make_chacha20poly1305(
      std::span<const std::uint8_t, kAeadKeyBytes>(key.data(), kAeadKeyBytes), backend));
}

PayloadLayout payload_layout(std::uint64_t header_bytes) {
  return PayloadLayout{kChunkBytes, header_bytes + kPayloadNonceBytes};
}

}  // namespace pcrypt::core::age
