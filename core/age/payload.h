// The age payload (C2SP age.md "Payload"): a 16-byte random nonce, then the plaintext in 64 KiB chunks, each
// sealed with ChaCha20-Poly1305 under payload key = HKDF-SHA-256(ikm = file key, salt = nonce, info =
// "payload") and the 12-byte STREAM nonce: 11-byte big-endian chunk counter || 0x01 for the final chunk, else
// 0x00. That nonce is byte for byte pcrypt's (3 zero bytes || 64-bit big-endian index || last flag) for every
// index below 2^64, and the rules on chunk sizes are pcrypt's too (the final chunk may be full, is empty only
// when the whole payload is; a missing final chunk, a short record, trailing data all fail): so the payload
// is core/records.h's PayloadCodec over a ChaCha20-Poly1305 ChunkCipher (core/chacha/), in the same pipeline.
#pragma once

#include <array>
#include <cstdint>

#include "core/aes/secret_bytes.h"
#include "core/age/primitives.h"
#include "core/chacha/chacha20poly1305.h"
#include "core/records.h"

namespace pcrypt::core::age {

inline constexpr std::size_t kChunkBytes = 64 * 1024;
inline constexpr std::size_t kPayloadNonceBytes = 16;

using PayloadNonce = std::array<std::uint8_t, kPayloadNonceBytes>;

PayloadNonce new_payload_nonce();

// The payload's chunk cipher for this file key and nonce.
ChunkCipher payload_cipher(const SecretBytes& file_key, const PayloadNonce& nonce,
                           ChaChaBackend backend = default_chacha_backend());

// Record arithmetic for a payload whose header is header_bytes long: record k starts at
// header_bytes + 16 + k * (64 KiB + 16).
PayloadLayout payload_layout(std::uint64_t header_bytes);

}  // namespace pcrypt::core::age
