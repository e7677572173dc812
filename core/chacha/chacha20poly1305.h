// ChaCha20-Poly1305 (RFC 8439), an engine beside core/aes: our own AVX-512 IFMA code where the CPU has it
// (core/chacha/chacha20poly1305_avx512ifma.h), else OpenSSL 3.0's libcrypto or libsodium, behind the record
// layer's AEAD interface (core/aead.h: 96-bit nonce, 16-byte tag, no associated data, verify-then-release).
// age's payload and stanzas use it (core/age/payload.h, core/age/primitives.h). Depends on nothing of ours
// but core/aead.h, core/error.h (an OpenSSL failure is Error(io)) and core/aes/'s secret memory and CPU
// detection.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "core/aead.h"

namespace pcrypt::chacha {

inline constexpr std::size_t kKeyBytes = 32;

// Who computes ChaCha20-Poly1305: all give the same bytes; which is faster depends on the CPU (measured by
// `pcrypt bench engines`, docs/BENCHMARKS.md).
enum class ChaChaBackend { openssl, sodium, avx512ifma };
// The openssl backend hands messages shorter than this (the final chunk of an age payload, a whole small
// file) to libsodium. OpenSSL 3's first EVP call of a process sets up its provider tables, about 3 ms on
// a 2.9 GHz Zen 3, where libsodium seals 64 KiB in 0.06 ms: with it, `age -r` of a small file took 14 ms
// against 10 (docs/benchmarks/age-format.md); a large file still gives every full 64 KiB chunk to OpenSSL,
// which is twice as fast as libsodium at that size.
inline constexpr std::size_t kOpenSslFromBytes = 64 * 1024;
// avx512ifma where this CPU runs it at full clock, else openssl.
ChaChaBackend default_chacha_backend();
// The backends this build and CPU can run, the default first (tests and bench go over all of them).
std::vector<ChaChaBackend> available_chacha_backends();
std::string_view backend_name(ChaChaBackend backend);

// A keyed ChaCha20-Poly1305 (seal/open const and thread-safe; a failed open zeroes its output). Throws
// std::invalid_argument for a backend this CPU cannot run.
std::unique_ptr<core::Aead> make_chacha20poly1305(std::span<const std::uint8_t, kKeyBytes> key,
                                                  ChaChaBackend backend = default_chacha_backend());

}  // namespace pcrypt::chacha
