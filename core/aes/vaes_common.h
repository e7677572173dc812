// Small helpers for the *_vaes.cc files (AVX2 + VAES + VPCLMULQDQ): 256-bit registers holding two AES blocks,
// one per 128-bit lane. Internal linkage, like ghash_clmul.h, so no other file's build of them is ever linked
// in.
#pragma once

#include <immintrin.h>

#include <cstddef>
#include <cstdint>

namespace pcrypt::aes::detail::vaes {

static inline __m256i load2(const std::uint8_t* p) {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
}
static inline void store2(std::uint8_t* p, __m256i v) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v);
}
static inline __m128i load1(const std::uint8_t* p) {
  return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
}
static inline void store1(std::uint8_t* p, __m128i v) {
  _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v);
}

// Reverses the bytes of each 128-bit lane.
static inline __m256i bswap2(__m256i x) {
  const __m256i m =
      _mm256_broadcastsi128_si256(_mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
  return _mm256_shuffle_epi8(x, m);
}

static inline __m256i broadcast(const std::uint8_t* block) {
  return _mm256_broadcastsi128_si256(load1(block));
}

static inline __m256i lanes(__m128i high, __m128i low) {
  return _mm256_set_m128i(high, low);
}

// XOR of the two lanes.
static inline __m128i fold_lanes(__m256i x) {
  return _mm_xor_si128(_mm256_castsi256_si128(x), _mm256_extracti128_si256(x, 1));
}

}  // namespace pcrypt::aes::detail::vaes
