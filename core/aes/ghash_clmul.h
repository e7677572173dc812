// GHASH arithmetic on 128-bit carry-less multiplies, shared by the *_aesni.cc and *_vaes.cc engines.
// Internal linkage on purpose: each including file compiles it for its own instruction set, and the linker
// must never substitute one file's (e.g. VEX-encoded) copy for another's.
//
// Representation: a GCM block is byte-reversed on load (one pshufb), so GF(2^128) element a lives in a
// register as v(a) with the coefficient of x^i at bit 127 - i. In that form a carry-less multiply followed by
// the two-fold reduction below (a Montgomery reduction by 2^128 modulo the bit-reflected polynomial) yields
// v(a * b * x). Keeping the hash key as v(H * x^-1) cancels the extra x, so blocks never need a bit reversal.
#pragma once

#include <immintrin.h>

#include <cstdint>

namespace pcrypt::aes::detail::ghash {

// The reflected reduction polynomial minus its top term: 1 + y^121 + y^126 + y^127 (y = bit position).
static inline __m128i poly() {
  return _mm_set_epi64x(static_cast<long long>(0xc200000000000000ULL), 1);
}

// The block operations gcm_shell.h needs, named alike in ghash_pmull.h (the AArch64 twin).
using Block = __m128i;
static inline __m128i block_zero() {
  return _mm_setzero_si128();
}
static inline __m128i block_load(const std::uint8_t* p) {
  return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
}
static inline void block_store(std::uint8_t* p, __m128i v) {
  _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v);
}
static inline __m128i block_xor(__m128i a, __m128i b) {
  return _mm_xor_si128(a, b);
}
// Adds n to the lowest 32-bit lane of a byte-reversed counter block: GCM's inc32, applied n times.
static inline __m128i counter_add(__m128i ctr, std::uint32_t n) {
  return _mm_add_epi32(ctr, _mm_set_epi32(0, 0, 0, static_cast<int>(n)));
}

static inline __m128i bswap(__m128i x) {
  return _mm_shuffle_epi8(x, _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
}

// A 256-bit product kept as Karatsuba pieces so that many products can be summed before one reduction.
struct Wide {
  __m128i lo, mid, hi;
};

// Karatsuba's middle factor for key h: (h.lo ^ h.hi) in both halves.
static inline __m128i karatsuba_key(__m128i h) {
  return _mm_xor_si128(h, _mm_shuffle_epi32(h, 0x4e));
}

static inline Wide mul(__m128i x, __m128i h, __m128i hk) {
  return {_mm_clmulepi64_si128(x, h, 0x00), _mm_clmulepi64_si128(karatsuba_key(x), hk, 0x00),
          _mm_clmulepi64_si128(x, h, 0x11)};
}

static inline void mul_acc(Wide& acc, __m128i x, __m128i h, __m128i hk) {
  acc.lo = _mm_xor_si128(acc.lo, _mm_clmulepi64_si128(x, h, 0x00));
  acc.mid = _mm_xor_si128(acc.mid, _mm_clmulepi64_si128(karatsuba_key(x), hk, 0x00));
  acc.hi = _mm_xor_si128(acc.hi, _mm_clmulepi64_si128(x, h, 0x11));
}

// Montgomery-reduces a sum of products: eliminates the low 128 bits with two 64-bit folds by the constant.
static inline __m128i reduce(const Wide& w) {
  const __m128i mid = _mm_xor_si128(w.mid, _mm_xor_si128(w.lo, w.hi));
  __m128i lo = _mm_xor_si128(w.lo, _mm_slli_si128(mid, 8));
  const __m128i hi = _mm_xor_si128(w.hi, _mm_srli_si128(mid, 8));
  const __m128i p = poly();
  lo = _mm_xor_si128(_mm_shuffle_epi32(lo, 0x4e), _mm_clmulepi64_si128(lo, p, 0x10));
  lo = _mm_xor_si128(_mm_shuffle_epi32(lo, 0x4e), _mm_clmulepi64_si128(lo, p, 0x10));
  return _mm_xor_si128(hi, lo);
}

// v(a) and v(b x^-1) -> v(a b); also v(a x^-1), v(b x^-1) -> v(a b x^-1).
static inline __m128i gf_mul(__m128i a, __m128i b) {
  return reduce(mul(a, b, karatsuba_key(b)));
}

// v(H) -> v(H x^-1): in the reflected form, a one-bit left shift, folding the carry back with the polynomial.
// Branch-free because H is secret.
static inline __m128i times_x_inverse(__m128i v) {
  const __m128i carry = _mm_srai_epi32(_mm_shuffle_epi32(v, 0xff), 31);  // all ones iff bit 127 was set
  const __m128i shifted = _mm_or_si128(_mm_slli_epi64(v, 1), _mm_srli_epi64(_mm_slli_si128(v, 8), 63));
  return _mm_xor_si128(shifted, _mm_and_si128(carry, poly()));
}

}  // namespace pcrypt::aes::detail::ghash
