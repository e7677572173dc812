// GHASH without tables or carry-less-multiply instructions (see portable_ghash.h).
#include "core/aes/portable_ghash.h"

#include <sodium.h>

namespace pcrypt::aes::portable {
namespace {

using u64 = std::uint64_t;

u64 load_be64(const std::uint8_t* p) {
  u64 v = 0;
  for (int i = 0; i < 8; ++i) v = (v << 8) | p[i];
  return v;
}

void store_be64(std::uint8_t* p, u64 v) {
  for (int i = 7; i >= 0; --i, v >>= 8) p[i] = static_cast<std::uint8_t>(v);
}

u64 reverse_bits(u64 x) {
  x = ((x >> 1) & 0x5555555555555555ULL) | ((x & 0x5555555555555555ULL) << 1);
  x = ((x >> 2) & 0x3333333333333333ULL) | ((x & 0x3333333333333333ULL) << 2);
  x = ((x >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((x & 0x0F0F0F0F0F0F0F0FULL) << 4);
  return __builtin_bswap64(x);
}

// Low 64 bits of the carry-less product x*y. Each operand is split into four interleaved parts holding every
// fourth bit; an integer product of two parts then sums at most 15 terms per kept bit position (16 only at
// the top, where the carry leaves the word), so the 3-bit holes absorb every carry and masking recovers the
// XOR.
u64 clmul_lo(u64 x, u64 y) {
  constexpr u64 m0 = 0x1111111111111111ULL, m1 = m0 << 1, m2 = m0 << 2, m3 = m0 << 3;
  const u64 x0 = x & m0, x1 = x & m1, x2 = x & m2, x3 = x & m3;
  const u64 y0 = y & m0, y1 = y & m1, y2 = y & m2, y3 = y & m3;
  const u64 z0 = (x0 * y0) ^ (x1 * y3) ^ (x2 * y2) ^ (x3 * y1);
  const u64 z1 = (x0 * y1) ^ (x1 * y0) ^ (x2 * y3) ^ (x3 * y2);
  const u64 z2 = (x0 * y2) ^ (x1 * y1) ^ (x2 * y0) ^ (x3 * y3);
  const u64 z3 = (x0 * y3) ^ (x1 * y2) ^ (x2 * y1) ^ (x3 * y0);
  return (z0 & m0) | (z1 & m1) | (z2 & m2) | (z3 & m3);
}

}  // namespace

Block128 load_block128(const std::uint8_t* in) {
  return {load_be64(in), load_be64(in + 8)};
}

void store_block128(std::uint8_t* out, Block128 v) {
  store_be64(out, v.hi);
  store_be64(out + 8, v.lo);
}

Multiplier make_multiplier(Block128 v) {
  return {v, {reverse_bits(v.hi), reverse_bits(v.lo)}};
}

namespace {

// An unreduced 255-bit carry-less product, p3 most significant.
struct Wide {
  u64 p0, p1, p2, p3;
};

// 128x128 carry-less product by Karatsuba on 64-bit halves. The high half of a 64x64 product is the low half
// of the product of the bit-reversed operands, reversed and shifted by one.
Wide clmul128(Block128 a, const Multiplier& b) {
  const u64 a2 = a.hi ^ a.lo, b2 = b.v.hi ^ b.v.lo;
  const u64 ar_lo = reverse_bits(a.lo), ar_hi = reverse_bits(a.hi), ar2 = ar_lo ^ ar_hi;
  const u64 br2 = b.v_reversed.hi ^ b.v_reversed.lo;

  const u64 lo_lo = clmul_lo(a.lo, b.v.lo);
  const u64 hi_lo = clmul_lo(a.hi, b.v.hi);
  u64 mid_lo = clmul_lo(a2, b2);
  u64 lo_hi = clmul_lo(ar_lo, b.v_reversed.lo);
  u64 hi_hi = clmul_lo(ar_hi, b.v_reversed.hi);
  u64 mid_hi = clmul_lo(ar2, br2);
  mid_lo ^= lo_lo ^ hi_lo;
  mid_hi ^= lo_hi ^ hi_hi;
  lo_hi = reverse_bits(lo_hi) >> 1;
  hi_hi = reverse_bits(hi_hi) >> 1;
  mid_hi = reverse_bits(mid_hi) >> 1;
  return {lo_lo, lo_hi ^ mid_lo, hi_lo ^ mid_hi, hi_hi};
}

void accumulate(Wide& acc, const Wide& x) {
  acc.p0 ^= x.p0;
  acc.p1 ^= x.p1;
  acc.p2 ^= x.p2;
  acc.p3 ^= x.p3;
}

Block128 reduce(Wide w) {
  // Shift left by one so that, in GCM's reflected order, p3:p2 holds the coefficients of x^0..x^127 and p1:p0
  // those of x^128..x^255.
  u64 p0 = w.p0, p1 = w.p1, p2 = w.p2, p3 = w.p3;
  p3 = (p3 << 1) | (p2 >> 63);
  p2 = (p2 << 1) | (p1 >> 63);
  p1 = (p1 << 1) | (p0 >> 63);
  p0 <<= 1;

  // Reduce with x^128 = x^7 + x^2 + x + 1: fold p1:p0 times (1 + x + x^2 + x^7) into p3:p2. In reflected
  // order multiplying by x^s is a right shift; the bits shifted out of the bottom (degree >= 128 again) are
  // first folded back in at the top of p1.
  p1 ^= (p0 << 63) ^ (p0 << 62) ^ (p0 << 57);
  const u64 r_hi = p3 ^ p1 ^ (p1 >> 1) ^ (p1 >> 2) ^ (p1 >> 7);
  const u64 r_lo = p2 ^ p0 ^ (p0 >> 1) ^ (p1 << 63) ^ (p0 >> 2) ^ (p1 << 62) ^ (p0 >> 7) ^ (p1 << 57);
  return {r_hi, r_lo};
}

}  // namespace

Block128 gf128_mul(Block128 a, const Multiplier& b) {
  return reduce(clmul128(a, b));
}

GhashKey make_ghash_key(Block128 h) {
  GhashKey key;
  key.h_power[0] = make_multiplier(h);
  for (int i = 1; i < 4; ++i)
    key.h_power[i] = make_multiplier(gf128_mul(key.h_power[i - 1].v, key.h_power[0]));
  return key;
}

Ghash::~Ghash() {
  sodium_memzero(&y_, sizeof y_);
}

void Ghash::absorb(const std::uint8_t* data, std::size_t len) {
  // Y' = (Y ^ X0) H^4 ^ X1 H^3 ^ X2 H^2 ^ X3 H: the same value as four sequential steps, but the products are
  // independent (they overlap in the pipeline) and share one reduction.
  for (; len >= 64; data += 64, len -= 64) {
    const Block128 x0 = load_block128(data);
    Wide acc = clmul128({y_.hi ^ x0.hi, y_.lo ^ x0.lo}, key_.h_power[3]);
    accumulate(acc, clmul128(load_block128(data + 16), key_.h_power[2]));
    accumulate(acc, clmul128(load_block128(data + 32), key_.h_power[1]));
    accumulate(acc, clmul128(load_block128(data + 48), key_.h_power[0]));
    y_ = reduce(acc);
  }
  for (; len >= 16; data += 16, len -= 16) {
    const Block128 x = load_block128(data);
    y_ = gf128_mul({y_.hi ^ x.hi, y_.lo ^ x.lo}, key_.h_power[0]);
  }
  if (len > 0) {
    std::uint8_t last[16] = {};
    for (std::size_t i = 0; i < len; ++i) last[i] = data[i];
    const Block128 x = load_block128(last);
    y_ = gf128_mul({y_.hi ^ x.hi, y_.lo ^ x.lo}, key_.h_power[0]);
    sodium_memzero(last, sizeof last);
  }
}

void Ghash::finish(std::uint8_t* out, std::uint64_t aad_len, std::uint64_t text_len) {
  y_ = gf128_mul({y_.hi ^ (aad_len * 8), y_.lo ^ (text_len * 8)}, key_.h_power[0]);
  store_block128(out, y_);
}

}  // namespace pcrypt::aes::portable
