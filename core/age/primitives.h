// The symmetric primitives age is built on (C2SP age.md "Conventions"), from libsodium (HMAC, and HKDF over
// it) and OpenSSL 3.0's libcrypto (scrypt): HKDF-SHA-256 with 32-byte output, HMAC-SHA-256, scrypt with r = 8
// and p = 1, and the one-shot ChaCha20-Poly1305 that wraps a stanza's file key. ChaCha20-Poly1305 itself is
// an engine of its own, core/chacha/ (OpenSSL or libsodium), which the payload runs the record rules of
// core/records.h over.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "core/aead.h"
#include "core/aes/secret_bytes.h"
#include "core/chacha/chacha20poly1305.h"

namespace pcrypt::core::age {

inline constexpr std::size_t kAeadKeyBytes = chacha::kKeyBytes;
inline constexpr std::size_t kAeadTagBytes = core::kAeadTagBytes;

// HKDF-SHA-256 (RFC 5869: Extract with `salt`, Expand with `info`), 32 bytes of output.
SecretBytes hkdf_sha256(std::span<const std::uint8_t> ikm, std::span<const std::uint8_t> salt,
                        std::string_view info);
// The same into the caller's memory (`prk` holds the extracted key meanwhile), for callers that keep their
// secrets in a guarded buffer of their own rather than two new ones per call (unwrapping a stanza).
void hkdf_sha256_into(std::span<const std::uint8_t> ikm, std::span<const std::uint8_t> salt,
                      std::string_view info, std::span<std::uint8_t, 32> prk,
                      std::span<std::uint8_t, 32> out);
// HMAC-SHA-256(key, message).
std::array<std::uint8_t, 32> hmac_sha256(std::span<const std::uint8_t> key,
                                         std::span<const std::uint8_t> message);
// scrypt(N = 2^log2_n, r = 8, p = 1, dkLen = 32) (RFC 7914). Throws Error(io) when the memory it needs
// (128 * 8 * 2^log2_n bytes) cannot be had.
SecretBytes scrypt(std::span<const std::uint8_t> passphrase, std::span<const std::uint8_t> salt,
                   unsigned log2_n);

// Which library computes ChaCha20-Poly1305 for the payload (core/chacha/), by the names age's callers know.
using chacha::backend_name;
using chacha::ChaChaBackend;
using chacha::default_chacha_backend;

// One-shot seal/open with the all-zero nonce: how every age stanza wraps its 16-byte file key.
std::array<std::uint8_t, 32> seal_file_key(std::span<const std::uint8_t, kAeadKeyBytes> wrap_key,
                                           std::span<const std::uint8_t, 16> file_key);
// The file key, or false when `body` (exactly 32 bytes, checked by the caller) fails authentication.
bool open_file_key(std::span<const std::uint8_t, kAeadKeyBytes> wrap_key,
                   std::span<const std::uint8_t, 32> body, SecretBytes& file_key);
// The same into the caller's 16 bytes (libsodium's one-shot open: the tag is checked before anything is
// written, and no key copy is allocated).
bool open_file_key_into(std::span<const std::uint8_t, kAeadKeyBytes> wrap_key,
                        std::span<const std::uint8_t, 32> body, std::span<std::uint8_t, 16> file_key);

}  // namespace pcrypt::core::age
