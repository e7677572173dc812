// Our own ChaCha20-Poly1305 (RFC 8439) for x86-64 CPUs with AVX-512 F/BW/VL and IFMA (AMD Zen 4 and later,
// Intel Ice Lake server, Sapphire Rapids and later): one pass over the data, so each 1 KiB is read once for
// both the cipher and the MAC while it is still in registers.
//
// ChaCha20 runs 16 blocks at once, one 32-bit state word of all 16 blocks per zmm register, and transposes
// the result into 16 blocks of keystream. Poly1305 keeps 8 independent accumulators, one per 64-bit lane, in
// radix 2^44 (three limbs, so a product of two limbs fits IFMA's 52-bit multiplier): lane i absorbs every
// 8th block and multiplies by r^8, and the last multiply is by r^(8-i), which makes the lanes' sum the
// ordinary Horner evaluation. Blocks left over (fewer than 8, the padding, the lengths) use the same radix
// in scalar code. No branch and no memory index depends on the key or the data.
//
// Built only on x86-64, into a file compiled for those instructions; the caller checks
// avx512ifma_supported() first (core/chacha/chacha20poly1305.cc).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "core/aead.h"

namespace pcrypt::chacha::detail {

// Whether this CPU and OS can run the engine: AVX-512 F/BW/VL + IFMA with zmm state saved by the OS.
bool avx512ifma_supported();

std::unique_ptr<core::Aead> make_avx512ifma_chacha(std::span<const std::uint8_t, 32> key);

// The AEAD of RFC 8439 §2.8 with associated data, on the same code: the Aead above always passes none, and
// the tests need both (Wycheproof's vectors carry AAD). open() zeroes out[0..len) on a bad tag.
void seal_avx512ifma(const std::uint8_t key[32], const std::uint8_t nonce[12], const std::uint8_t* aad,
                     std::size_t aad_len, const std::uint8_t* in, std::size_t len, std::uint8_t* out,
                     std::uint8_t tag[16]);
[[nodiscard]] bool open_avx512ifma(const std::uint8_t key[32], const std::uint8_t nonce[12],
                                   const std::uint8_t* aad, std::size_t aad_len, const std::uint8_t* in,
                                   std::size_t len, const std::uint8_t tag[16], std::uint8_t* out);

// Plain Poly1305 (RFC 8439 §2.5, a one-time key of 32 bytes) on the engine's arithmetic: tested on its own
// against libsodium with edge-case keys and messages that an AEAD's random keys would rarely reach.
void poly1305_avx512ifma(std::uint8_t tag[16], const std::uint8_t* msg, std::size_t len,
                         const std::uint8_t key[32]);

}  // namespace pcrypt::chacha::detail
