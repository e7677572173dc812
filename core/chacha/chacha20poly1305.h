// ChaCha20-Poly1305 (RFC 8439), an engine beside core/aes: from OpenSSL 3.0's libcrypto or from libsodium,
// behind the record layer's AEAD interface (core/aead.h: 96-bit nonce, 16-byte tag, no associated data,
// verify-then-release). age's payload and stanzas use it (core/age/payload.h, core/age/primitives.h).
// Depends on nothing of ours but core/aead.h, core/error.h (an OpenSSL failure is Error(io)) and
// core/aes/'s secret memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "core/aead.h"

namespace pcrypt::chacha {

inline constexpr std::size_t kKeyBytes = 32;

// Who computes ChaCha20-Poly1305: both give the same bytes; which is faster depends on the CPU
// (docs/FORMAT.md "age format", measured by `pcrypt bench engines`).
enum class ChaChaBackend { openssl, sodium };
ChaChaBackend default_chacha_backend();
std::string_view backend_name(ChaChaBackend backend);

// A keyed ChaCha20-Poly1305 (seal/open const and thread-safe; a failed open zeroes its output).
std::unique_ptr<core::Aead> make_chacha20poly1305(std::span<const std::uint8_t, kKeyBytes> key,
                                                  ChaChaBackend backend = default_chacha_backend());

}  // namespace pcrypt::chacha
