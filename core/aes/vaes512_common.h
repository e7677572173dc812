// Small helpers for the *_vaes512.cc files (AVX-512 + VAES): 512-bit registers holding four AES blocks, one
// per 128-bit lane. Internal linkage, like vaes_common.h, so no other file's build of them is ever linked in.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/aes/avx512_intrinsics.h"

namespace pcrypt::aes::detail::vaes512 {

static inline __m512i load4(const std::uint8_t* p) {
  return _mm512_loadu_si512(p);
}
static inline void store4(std::uint8_t* p, __m512i v) {
  _mm512_storeu_si512(p, v);
}

// Byte mask for the first n bytes of a 64-byte register (n may be > 64 or, as a difference, "negative").
static inline __mmask64 first_bytes(std::size_t n) {
  return n >= 64 ? ~__mmask64{0} : static_cast<__mmask64>(_bzhi_u64(~0ULL, static_cast<unsigned>(n)));
}

// Reverses the bytes of each 128-bit lane: little-endian counters <-> big-endian counter blocks (and, for
// GHASH, GCM blocks <-> the v form of ghash_clmul.h).
static inline __m512i bswap4(__m512i x) {
  const __m512i m =
      _mm512_broadcast_i32x4(_mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
  return _mm512_shuffle_epi8(x, m);
}

// Counter blocks advanced by a byte add. Making a batch's blocks from a little-endian counter costs an add
// and a byte swap per register; once made, big-endian blocks advance by `blocks` with one add to their last
// byte (byte 15: the top byte of each lane's last 32-bit word), exact as long as no block's low byte carries.
// On Zen 4 every instruction outside the AES rounds takes time from them, so the loops advance by the byte
// add and rebuild only when it was not exact: one batch in four at 32 blocks.
static inline __m512i last_byte_step(int blocks) {
  const int b = blocks << 24;
  return _mm512_set_epi32(b, 0, 0, 0, b, 0, 0, 0, b, 0, 0, 0, b, 0, 0, 0);
}
// Whether the byte add that advanced a batch of `blocks` blocks, whose first low byte was `first_low`,
// carried: its low bytes ran from first_low to first_low + blocks - 1 and were advanced by `blocks`.
static inline bool byte_add_carried(std::uint8_t first_low, std::size_t blocks) {
  return first_low > 256 - 2 * blocks;
}

}  // namespace pcrypt::aes::detail::vaes512
