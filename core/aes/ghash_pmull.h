// GHASH arithmetic on AArch64 PMULL/PMULL2 (64x64 -> 128-bit carry-less multiply), for the *_armce.cc files.
// The same representation and reduction as ghash_clmul.h (the x86-64 twin), so the two engines' key powers
// and states mean the same: a GCM block is byte-reversed on load, putting the coefficient of x^i at bit 127 -
// i; the hash key is kept as v(H * x^-1), so a multiply plus the two-fold reduction yields v(a * b) without
// any bit reversal. Internal linkage throughout: the plain and the EOR3 (+sha3) files compile it separately
// and the linker must never hand one the other's copy.
#pragma once

#include <arm_neon.h>

#include <cstdint>
#include <cstring>

namespace pcrypt::aes::detail::ghash {

using Block = uint8x16_t;

static inline Block block_zero() {
  return vdupq_n_u8(0);
}
static inline Block block_load(const std::uint8_t* p) {
  return vld1q_u8(p);
}
static inline void block_store(std::uint8_t* p, Block v) {
  vst1q_u8(p, v);
}
static inline Block block_xor(Block a, Block b) {
  return veorq_u8(a, b);
}

// Byte order reversed over all 16 bytes.
static inline Block bswap(Block x) {
  const Block r = vrev64q_u8(x);
  return vextq_u8(r, r, 8);
}

// Adds n to the lowest 32-bit lane of a byte-reversed counter block: GCM's inc32, applied n times.
static inline Block counter_add(Block ctr, std::uint32_t n) {
  const uint32x4_t add = vsetq_lane_u32(n, vdupq_n_u32(0), 0);
  return vreinterpretq_u8_u32(vaddq_u32(vreinterpretq_u32_u8(ctr), add));
}

// The 64-bit halves swapped.
static inline Block swap_halves(Block x) {
  return vextq_u8(x, x, 8);
}

// Carry-less products of the low halves and of the high halves.
static inline Block clmul_lo(Block a, Block b) {
  return vreinterpretq_u8_p128(
      vmull_p64(vgetq_lane_p64(vreinterpretq_p64_u8(a), 0), vgetq_lane_p64(vreinterpretq_p64_u8(b), 0)));
}
static inline Block clmul_hi(Block a, Block b) {
  return vreinterpretq_u8_p128(vmull_high_p64(vreinterpretq_p64_u8(a), vreinterpretq_p64_u8(b)));
}

// The reflected reduction polynomial's upper constant (1 + y^121 + y^126 + y^127 without the 1, see
// ghash_clmul.h); the folds multiply the low half by it.
inline constexpr std::uint64_t kPolyHigh = 0xc200000000000000ULL;

// A 256-bit product kept as Karatsuba pieces so that many products can be summed before one reduction.
struct Wide {
  Block lo, mid, hi;
};

// Karatsuba's middle factor for key h: (h.lo ^ h.hi) in both halves.
static inline Block karatsuba_key(Block h) {
  return veorq_u8(h, swap_halves(h));
}

static inline Wide mul(Block x, Block h, Block hk) {
  return {clmul_lo(x, h), clmul_lo(karatsuba_key(x), hk), clmul_hi(x, h)};
}

// Montgomery-reduces a sum of products: eliminates the low 128 bits with two 64-bit folds by the constant.
static inline Block reduce(const Wide& w) {
  const Block zero = block_zero();
  const Block mid = veorq_u8(w.mid, veorq_u8(w.lo, w.hi));
  Block lo = veorq_u8(w.lo, vextq_u8(zero, mid, 8));        // mid << 64
  const Block hi = veorq_u8(w.hi, vextq_u8(mid, zero, 8));  // mid >> 64
  const poly64_t p = static_cast<poly64_t>(kPolyHigh);
  lo = veorq_u8(swap_halves(lo),
                vreinterpretq_u8_p128(vmull_p64(vgetq_lane_p64(vreinterpretq_p64_u8(lo), 0), p)));
  lo = veorq_u8(swap_halves(lo),
                vreinterpretq_u8_p128(vmull_p64(vgetq_lane_p64(vreinterpretq_p64_u8(lo), 0), p)));
  return veorq_u8(hi, lo);
}

// v(a) and v(b x^-1) -> v(a b); also v(a x^-1), v(b x^-1) -> v(a b x^-1).
static inline Block gf_mul(Block a, Block b) {
  return reduce(mul(a, b, karatsuba_key(b)));
}

// v(H) -> v(H x^-1): in the reflected form, a one-bit left shift, folding the carry back with the polynomial.
// Branch-free because H is secret.
static inline Block times_x_inverse(Block v) {
  const uint64x2_t v64 = vreinterpretq_u64_u8(v);
  // All ones iff bit 127 was set.
  const uint64x2_t carry =
      vreinterpretq_u64_s64(vshrq_n_s64(vdupq_laneq_s64(vreinterpretq_s64_u8(v), 1), 63));
  const uint64x2_t low_into_high = vreinterpretq_u64_u8(vextq_u8(block_zero(), v, 8));  // (0, v.lo)
  const uint64x2_t shifted = vorrq_u64(vshlq_n_u64(v64, 1), vshrq_n_u64(low_into_high, 63));
  const uint64x2_t poly = vcombine_u64(vcreate_u64(1), vcreate_u64(kPolyHigh));
  return vreinterpretq_u8_u64(veorq_u64(shifted, vandq_u64(carry, poly)));
}

}  // namespace pcrypt::aes::detail::ghash
