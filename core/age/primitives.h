// The symmetric primitives age is built on (C2SP age.md "Conventions"), from OpenSSL 3.0's libcrypto (HKDF,
// HMAC, scrypt, ChaCha20-Poly1305) and libsodium (ChaCha20-Poly1305 too): HKDF-SHA-256 with 32-byte output,
// HMAC-SHA-256, scrypt with r = 8 and p = 1, and ChaCha20-Poly1305 (RFC 7539) behind aes::Gcm's AEAD
// contract (96-bit nonce, 16-byte tag, in place, verify-then-release), so that the payload's record rules
// (core/pcrypt/payload.h) run unchanged over it.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "core/aes/engine.h"
#include "core/aes/secret_bytes.h"

namespace pcrypt::core::age {

inline constexpr std::size_t kAeadKeyBytes = 32;
inline constexpr std::size_t kAeadTagBytes = 16;

// HKDF-SHA-256 (RFC 5869: Extract with `salt`, Expand with `info`), 32 bytes of output.
SecretBytes hkdf_sha256(std::span<const std::uint8_t> ikm, std::span<const std::uint8_t> salt,
                        std::string_view info);
// HMAC-SHA-256(key, message).
std::array<std::uint8_t, 32> hmac_sha256(std::span<const std::uint8_t> key,
                                         std::span<const std::uint8_t> message);
// scrypt(N = 2^log2_n, r = 8, p = 1, dkLen = 32) (RFC 7914). Throws Error(io) when the memory it needs
// (128 * 8 * 2^log2_n bytes) cannot be had.
SecretBytes scrypt(std::span<const std::uint8_t> passphrase, std::span<const std::uint8_t> salt,
                   unsigned log2_n);

// Who computes ChaCha20-Poly1305: both give the same bytes; which is faster depends on the CPU
// (docs/FORMAT.md "age format", measured by `pcrypt bench engines`).
enum class ChaChaBackend { openssl, sodium };
ChaChaBackend default_chacha_backend();
std::string_view backend_name(ChaChaBackend backend);

// A keyed ChaCha20-Poly1305 with aes::Gcm's contract (seal/open const and thread-safe; a failed open zeroes
// its output). aad must be empty for the sodium backend's fast path; age never uses any.
std::unique_ptr<aes::Gcm> make_chacha20poly1305(std::span<const std::uint8_t, kAeadKeyBytes> key,
                                                ChaChaBackend backend = default_chacha_backend());

// One-shot seal/open with the all-zero nonce: how every age stanza wraps its 16-byte file key.
std::array<std::uint8_t, 32> seal_file_key(std::span<const std::uint8_t, kAeadKeyBytes> wrap_key,
                                           std::span<const std::uint8_t, 16> file_key);
// The file key, or false when `body` (exactly 32 bytes, checked by the caller) fails authentication.
bool open_file_key(std::span<const std::uint8_t, kAeadKeyBytes> wrap_key,
                   std::span<const std::uint8_t, 32> body, SecretBytes& file_key);

}  // namespace pcrypt::core::age
