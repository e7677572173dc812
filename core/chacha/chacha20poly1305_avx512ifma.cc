// The whole file is compiled for AVX-512 F/BW/VL + IFMA (core/CMakeLists.txt); the design is described in
// the header. Nothing here may run before avx512ifma_supported() said yes.
#include "core/chacha/chacha20poly1305_avx512ifma.h"

#include <sodium.h>

#include <cstring>
#include <stdexcept>

#include "core/aes/avx512_intrinsics.h"
#include "core/aes/secret_bytes.h"

namespace pcrypt::chacha::detail {
namespace {

using u64 = std::uint64_t;
__extension__ using u128 = unsigned __int128;  // GCC and clang: products of two 64-bit limbs

// RFC 8439 §2.8: the block counter is 32 bits and starts at 1, so at most 2^32 - 1 blocks of 64 bytes.
constexpr u64 kMaxMessageBytes = ((u64{1} << 32) - 1) * 64;

constexpr u64 kMask44 = (u64{1} << 44) - 1;
constexpr u64 kMask42 = (u64{1} << 42) - 1;

std::uint32_t load_le32(const std::uint8_t* p) {
  std::uint32_t v;
  std::memcpy(&v, p, 4);  // x86-64 is little-endian, as ChaCha20 and Poly1305 are
  return v;
}

u64 load_le64(const std::uint8_t* p) {
  u64 v;
  std::memcpy(&v, p, 8);
  return v;
}

// --- ChaCha20 (RFC 8439 §2.3) ---

// The 16-word input block with the counter word at 0.
struct ChaChaState {
  std::uint32_t words[16];
  ChaChaState(const std::uint8_t key[32], const std::uint8_t nonce[12]) {
    words[0] = 0x61707865;  // "expand 32-byte k"
    words[1] = 0x3320646e;
    words[2] = 0x79622d32;
    words[3] = 0x6b206574;
    for (int i = 0; i < 8; ++i) words[4 + i] = load_le32(key + 4 * i);
    words[12] = 0;
    for (int i = 0; i < 3; ++i) words[13 + i] = load_le32(nonce + 4 * i);
  }
  ~ChaChaState() { sodium_memzero(words, sizeof words); }
  ChaChaState(const ChaChaState&) = delete;
  ChaChaState& operator=(const ChaChaState&) = delete;
};

std::uint32_t rotl(std::uint32_t v, int n) {
  return (v << n) | (v >> (32 - n));
}

void scalar_quarter(std::uint32_t* x, int a, int b, int c, int d) {
  x[a] += x[b];
  x[d] = rotl(x[d] ^ x[a], 16);
  x[c] += x[d];
  x[b] = rotl(x[b] ^ x[c], 12);
  x[a] += x[b];
  x[d] = rotl(x[d] ^ x[a], 8);
  x[c] += x[d];
  x[b] = rotl(x[b] ^ x[c], 7);
}

// Block 0 alone, whose first 32 bytes are the Poly1305 key (§2.6): one block does not fill the vectors.
void poly_key_block(const ChaChaState& state, std::uint8_t out[32]) {
  std::uint32_t x[16];
  std::memcpy(x, state.words, sizeof x);
  for (int round = 0; round < 10; ++round) {
    scalar_quarter(x, 0, 4, 8, 12);
    scalar_quarter(x, 1, 5, 9, 13);
    scalar_quarter(x, 2, 6, 10, 14);
    scalar_quarter(x, 3, 7, 11, 15);
    scalar_quarter(x, 0, 5, 10, 15);
    scalar_quarter(x, 1, 6, 11, 12);
    scalar_quarter(x, 2, 7, 8, 13);
    scalar_quarter(x, 3, 4, 9, 14);
  }
  for (int i = 0; i < 8; ++i) {
    const std::uint32_t word = x[i] + state.words[i];
    std::memcpy(out + 4 * i, &word, 4);
  }
  sodium_memzero(x, sizeof x);
}

inline void quarter(__m512i& a, __m512i& b, __m512i& c, __m512i& d) {
  a = _mm512_add_epi32(a, b);
  d = _mm512_rol_epi32(_mm512_xor_si512(d, a), 16);
  c = _mm512_add_epi32(c, d);
  b = _mm512_rol_epi32(_mm512_xor_si512(b, c), 12);
  a = _mm512_add_epi32(a, b);
  d = _mm512_rol_epi32(_mm512_xor_si512(d, a), 8);
  c = _mm512_add_epi32(c, d);
  b = _mm512_rol_epi32(_mm512_xor_si512(b, c), 7);
}

// Transposes 16 x 16 words: x[w] holds word w of blocks 0..15; ks[n] gets words 0..15 of block n. Within each
// 128-bit lane j, 32- then 64-bit interleaves gather words 4g..4g+3 of block 4j+b into quad[g][b]; 128-bit
// shuffles then put the four quads of block 4j+b side by side.
[[gnu::always_inline]] inline void transpose16(const __m512i x[16], __m512i ks[16]) {
  __m512i pair_lo[8], pair_hi[8];
  for (int p = 0; p < 8; ++p) {
    pair_lo[p] = _mm512_unpacklo_epi32(x[2 * p], x[2 * p + 1]);
    pair_hi[p] = _mm512_unpackhi_epi32(x[2 * p], x[2 * p + 1]);
  }
  __m512i quad[4][4];
  for (int g = 0; g < 4; ++g) {
    quad[g][0] = _mm512_unpacklo_epi64(pair_lo[2 * g], pair_lo[2 * g + 1]);
    quad[g][1] = _mm512_unpackhi_epi64(pair_lo[2 * g], pair_lo[2 * g + 1]);
    quad[g][2] = _mm512_unpacklo_epi64(pair_hi[2 * g], pair_hi[2 * g + 1]);
    quad[g][3] = _mm512_unpackhi_epi64(pair_hi[2 * g], pair_hi[2 * g + 1]);
  }
  constexpr int kEvenLanes = 0x88;  // 128-bit lanes 0, 2 of the first operand, then 0, 2 of the second
  constexpr int kOddLanes = 0xdd;   // lanes 1, 3 and 1, 3
  for (int b = 0; b < 4; ++b) {
    const __m512i w01_even = _mm512_shuffle_i32x4(quad[0][b], quad[1][b], kEvenLanes);
    const __m512i w01_odd = _mm512_shuffle_i32x4(quad[0][b], quad[1][b], kOddLanes);
    const __m512i w23_even = _mm512_shuffle_i32x4(quad[2][b], quad[3][b], kEvenLanes);
    const __m512i w23_odd = _mm512_shuffle_i32x4(quad[2][b], quad[3][b], kOddLanes);
    ks[b] = _mm512_shuffle_i32x4(w01_even, w23_even, kEvenLanes);
    ks[8 + b] = _mm512_shuffle_i32x4(w01_even, w23_even, kOddLanes);
    ks[4 + b] = _mm512_shuffle_i32x4(w01_odd, w23_odd, kEvenLanes);
    ks[12 + b] = _mm512_shuffle_i32x4(w01_odd, w23_odd, kOddLanes);
  }
}

// Keystream blocks counter .. counter + 16 * kSets - 1, block n in ks[n] (64 bytes each, in output order).
// A quarter round is a chain of 12 dependent operations of 2 cycles each on the CPUs measured (Zen 5), so one
// set of 16 blocks keeps only half the vector units busy: kSets = 2 runs two sets side by side, and
// between_rounds(i), called after double round i (0..9), fills what is still idle with independent work
// (Poly1305).
template <int kSets, class BetweenRounds>
[[gnu::always_inline]] inline void keystream(const ChaChaState& state, std::uint32_t counter, __m512i* ks,
                                             BetweenRounds&& between_rounds) {
  __m512i x[kSets][16];
  __m512i counters[kSets];
  for (int set = 0; set < kSets; ++set) {
    for (int i = 0; i < 16; ++i) x[set][i] = _mm512_set1_epi32(static_cast<int>(state.words[i]));
    counters[set] = _mm512_add_epi32(_mm512_set1_epi32(static_cast<int>(counter + 16 * set)),
                                     _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
    x[set][12] = counters[set];
  }
  for (int round = 0; round < 10; ++round) {
    for (int set = 0; set < kSets; ++set) {
      quarter(x[set][0], x[set][4], x[set][8], x[set][12]);
      quarter(x[set][1], x[set][5], x[set][9], x[set][13]);
      quarter(x[set][2], x[set][6], x[set][10], x[set][14]);
      quarter(x[set][3], x[set][7], x[set][11], x[set][15]);
    }
    for (int set = 0; set < kSets; ++set) {
      quarter(x[set][0], x[set][5], x[set][10], x[set][15]);
      quarter(x[set][1], x[set][6], x[set][11], x[set][12]);
      quarter(x[set][2], x[set][7], x[set][8], x[set][13]);
      quarter(x[set][3], x[set][4], x[set][9], x[set][14]);
    }
    between_rounds(round);
  }
  for (int set = 0; set < kSets; ++set) {
    for (int i = 0; i < 16; ++i)
      x[set][i] = _mm512_add_epi32(
          x[set][i], i == 12 ? counters[set] : _mm512_set1_epi32(static_cast<int>(state.words[i])));
    transpose16(x[set], ks + 16 * set);
  }
}

// --- Poly1305 (RFC 8439 §2.5) in radix 2^44: value = l0 + l1 * 2^44 + l2 * 2^88 ---
//
// With p = 2^130 - 5, a product's part at 2^132 folds back as 2^132 = 4 * 2^130 = 20 (mod p), so
// h * r = d0 + d1 * 2^44 + d2 * 2^88 with
//   d0 = h0 r0 + 20 h1 r2 + 20 h2 r1,   d1 = h0 r1 + h1 r0 + 20 h2 r2,   d2 = h0 r2 + h1 r1 + h2 r0.
// Limbs stay below 2^45 after a multiply (partly carried), so 20 * limb < 2^50 fits IFMA's 52 bits.

struct Limbs {
  u64 l[3] = {0, 0, 0};
};

Limbs multiply(const Limbs& h, const Limbs& r) {
  const u64 s1 = r.l[1] * 20, s2 = r.l[2] * 20;
  const u128 d0 = u128{h.l[0]} * r.l[0] + u128{h.l[1]} * s2 + u128{h.l[2]} * s1;
  u128 d1 = u128{h.l[0]} * r.l[1] + u128{h.l[1]} * r.l[0] + u128{h.l[2]} * s2;
  u128 d2 = u128{h.l[0]} * r.l[2] + u128{h.l[1]} * r.l[1] + u128{h.l[2]} * r.l[0];
  Limbs out;
  out.l[0] = static_cast<u64>(d0) & kMask44;
  d1 += d0 >> 44;
  out.l[1] = static_cast<u64>(d1) & kMask44;
  d2 += d1 >> 44;
  out.l[2] = static_cast<u64>(d2) & kMask42;
  out.l[0] += static_cast<u64>(d2 >> 42) * 5;  // the part at 2^130 and above, times 5
  out.l[1] += out.l[0] >> 44;
  out.l[0] &= kMask44;
  return out;
}

// Carries every limb into range: l0, l1 < 2^44, l2 <= 2^42 (the value is below 2^130 + 2^88).
void carry(Limbs& h) {
  for (int pass = 0; pass < 2; ++pass) {
    h.l[1] += h.l[0] >> 44;
    h.l[0] &= kMask44;
    h.l[2] += h.l[1] >> 44;
    h.l[1] &= kMask44;
    h.l[0] += (h.l[2] >> 42) * 5;
    h.l[2] &= kMask42;
  }
  h.l[1] += h.l[0] >> 44;
  h.l[0] &= kMask44;
  h.l[2] += h.l[1] >> 44;
  h.l[1] &= kMask44;
}

Limbs limbs_of_block(const std::uint8_t block[16], u64 high_bit) {
  const u64 lo = load_le64(block), hi = load_le64(block + 8);
  return Limbs{{lo & kMask44, ((lo >> 44) | (hi << 20)) & kMask44, (hi >> 24) | (high_bit << 40)}};
}

struct Poly1305 {
  Limbs r;
  u64 s[2];
  Limbs h;
  // Powers of r for the vector lanes (PolyLanes), made only when a message has 16 blocks or more.
  bool have_powers = false;
  __m512i r16[3], s16[2];            // r^16 in every lane, and 20 * its limbs 1 and 2
  __m512i r_last_a[3], s_last_a[2];  // lane i: r^(16 - i)
  __m512i r_last_b[3], s_last_b[2];  // lane i: r^(8 - i)

  explicit Poly1305(const std::uint8_t key[32]) {
    // §2.5.1's clamp: r &= 0x0ffffffc0ffffffc0ffffffc0fffffff
    const u64 lo = load_le64(key) & 0x0ffffffc0fffffffULL, hi = load_le64(key + 8) & 0x0ffffffc0ffffffcULL;
    r.l[0] = lo & kMask44;
    r.l[1] = ((lo >> 44) | (hi << 20)) & kMask44;
    r.l[2] = hi >> 24;
    s[0] = load_le64(key + 16);
    s[1] = load_le64(key + 24);
  }
  ~Poly1305() {
    sodium_memzero(&r, sizeof r);
    sodium_memzero(s, sizeof s);
    sodium_memzero(&h, sizeof h);
    if (have_powers) {
      volatile __m512i* wipe[] = {&r16[0],      &r16[1],      &r16[2],      &s16[0],      &s16[1],
                                  &r_last_a[0], &r_last_a[1], &r_last_a[2], &s_last_a[0], &s_last_a[1],
                                  &r_last_b[0], &r_last_b[1], &r_last_b[2], &s_last_b[0], &s_last_b[1]};
      for (volatile __m512i* v : wipe) *v = _mm512_setzero_si512();
    }
  }
  Poly1305(const Poly1305&) = delete;
  Poly1305& operator=(const Poly1305&) = delete;

  void block(const std::uint8_t bytes[16], u64 high_bit) {
    const Limbs m = limbs_of_block(bytes, high_bit);
    for (int i = 0; i < 3; ++i) h.l[i] += m.l[i];
    h = multiply(h, r);
  }

  void make_powers() {
    if (have_powers) return;
    Limbs power[17];
    power[1] = r;
    for (int k = 2; k <= 16; ++k) power[k] = multiply(power[k - 1], r);
    const auto lanes_of = [&](int top, int limb) {  // lane i: limb of r^(top - i)
      return _mm512_setr_epi64(
          static_cast<long long>(power[top].l[limb]), static_cast<long long>(power[top - 1].l[limb]),
          static_cast<long long>(power[top - 2].l[limb]), static_cast<long long>(power[top - 3].l[limb]),
          static_cast<long long>(power[top - 4].l[limb]), static_cast<long long>(power[top - 5].l[limb]),
          static_cast<long long>(power[top - 6].l[limb]), static_cast<long long>(power[top - 7].l[limb]));
    };
    for (int i = 0; i < 3; ++i) {
      r16[i] = _mm512_set1_epi64(static_cast<long long>(power[16].l[i]));
      r_last_a[i] = lanes_of(16, i);
      r_last_b[i] = lanes_of(8, i);
    }
    const __m512i twenty = _mm512_set1_epi64(20);
    for (int i = 0; i < 2; ++i) {
      s16[i] = _mm512_mullo_epi64(r16[i + 1], twenty);
      s_last_a[i] = _mm512_mullo_epi64(r_last_a[i + 1], twenty);
      s_last_b[i] = _mm512_mullo_epi64(r_last_b[i + 1], twenty);
    }
    sodium_memzero(power, sizeof power);
    have_powers = true;
  }

  // The final tag: h fully reduced mod p, plus s, mod 2^128 (§2.5.1).
  void finish(std::uint8_t tag[16]) {
    carry(h);
    // g = h + 5 - 2^130 is h - p; it is non-negative exactly when h >= p.
    u64 g0 = h.l[0] + 5;
    u64 g1 = h.l[1] + (g0 >> 44);
    g0 &= kMask44;
    const u64 g2 = h.l[2] + (g1 >> 44) - (u64{1} << 42);
    g1 &= kMask44;
    const u64 use_g = ~static_cast<u64>(static_cast<std::int64_t>(g2) >> 63);  // all ones when g2 >= 0
    const u64 h0 = (h.l[0] & ~use_g) | (g0 & use_g);
    const u64 h1 = (h.l[1] & ~use_g) | (g1 & use_g);
    const u64 h2 = (h.l[2] & ~use_g) | (g2 & use_g);
    const u64 lo = h0 | (h1 << 44), hi = (h1 >> 20) | (h2 << 24);  // bits at 2^128 and above drop out
    const u64 out_lo = lo + s[0];
    const u64 out_hi = hi + s[1] + (out_lo < lo ? 1 : 0);
    std::memcpy(tag, &out_lo, 8);
    std::memcpy(tag + 8, &out_hi, 8);
  }
};

// One accumulator of eight Poly1305 lanes in radix 2^44.
struct LaneAccumulator {
  __m512i h0, h1, h2;

  // h = h * r + m in every lane; m is given as limbs (all zero for the last multiply).
  [[gnu::always_inline]] inline void multiply_add(const __m512i r[3], const __m512i s[2], __m512i m0,
                                                  __m512i m1, __m512i m2) {
    const __m512i zero = _mm512_setzero_si512();
    __m512i d0lo = m0, d1lo = m1, d2lo = m2, d0hi = zero, d1hi = zero, d2hi = zero;
    d0lo = _mm512_madd52lo_epu64(d0lo, h0, r[0]);
    d0hi = _mm512_madd52hi_epu64(d0hi, h0, r[0]);
    d1lo = _mm512_madd52lo_epu64(d1lo, h0, r[1]);
    d1hi = _mm512_madd52hi_epu64(d1hi, h0, r[1]);
    d2lo = _mm512_madd52lo_epu64(d2lo, h0, r[2]);
    d2hi = _mm512_madd52hi_epu64(d2hi, h0, r[2]);
    d0lo = _mm512_madd52lo_epu64(d0lo, h1, s[1]);
    d0hi = _mm512_madd52hi_epu64(d0hi, h1, s[1]);
    d1lo = _mm512_madd52lo_epu64(d1lo, h1, r[0]);
    d1hi = _mm512_madd52hi_epu64(d1hi, h1, r[0]);
    d2lo = _mm512_madd52lo_epu64(d2lo, h1, r[1]);
    d2hi = _mm512_madd52hi_epu64(d2hi, h1, r[1]);
    d0lo = _mm512_madd52lo_epu64(d0lo, h2, s[0]);
    d0hi = _mm512_madd52hi_epu64(d0hi, h2, s[0]);
    d1lo = _mm512_madd52lo_epu64(d1lo, h2, s[1]);
    d1hi = _mm512_madd52hi_epu64(d1hi, h2, s[1]);
    d2lo = _mm512_madd52lo_epu64(d2lo, h2, r[0]);
    d2hi = _mm512_madd52hi_epu64(d2hi, h2, r[0]);
    // A product's high half sits 52 bits above its limb, i.e. 8 bits into the next limb; d2's high half is at
    // 2^140 = 2^130 * 2^10, folded back times 5.
    const __m512i mask44 = _mm512_set1_epi64(static_cast<long long>(kMask44));
    const __m512i mask42 = _mm512_set1_epi64(static_cast<long long>(kMask42));
    __m512i c1 = _mm512_add_epi64(d1lo, _mm512_slli_epi64(d0hi, 8));
    __m512i c2 = _mm512_add_epi64(d2lo, _mm512_slli_epi64(d1hi, 8));
    h0 = _mm512_and_si512(d0lo, mask44);
    c1 = _mm512_add_epi64(c1, _mm512_srli_epi64(d0lo, 44));
    h1 = _mm512_and_si512(c1, mask44);
    c2 = _mm512_add_epi64(c2, _mm512_srli_epi64(c1, 44));
    h2 = _mm512_and_si512(c2, mask42);
    const __m512i over = _mm512_add_epi64(_mm512_srli_epi64(c2, 42), _mm512_slli_epi64(d2hi, 10));
    h0 = _mm512_add_epi64(h0, _mm512_add_epi64(over, _mm512_slli_epi64(over, 2)));
    h1 = _mm512_add_epi64(h1, _mm512_srli_epi64(h0, 44));
    h0 = _mm512_and_si512(h0, mask44);
  }
};

// The 8 blocks held in a (blocks 0-3) and b (blocks 4-7) as limbs, lane i = block i.
[[gnu::always_inline]] inline void limbs_of_unit(__m512i a, __m512i b, __m512i& m0, __m512i& m1,
                                                 __m512i& m2) {
  const __m512i lows = _mm512_permutex2var_epi64(a, _mm512_setr_epi64(0, 2, 4, 6, 8, 10, 12, 14), b);
  const __m512i highs = _mm512_permutex2var_epi64(a, _mm512_setr_epi64(1, 3, 5, 7, 9, 11, 13, 15), b);
  const __m512i mask44 = _mm512_set1_epi64(static_cast<long long>(kMask44));
  m0 = _mm512_and_si512(lows, mask44);
  m1 = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(lows, 44), _mm512_slli_epi64(highs, 20)), mask44);
  m2 = _mm512_or_si512(_mm512_srli_epi64(highs, 24), _mm512_set1_epi64(1LL << 40));
}

// Sixteen Poly1305 lanes in two accumulators, a message's 128-byte units taken in pairs: a absorbs the even
// units and b the odd ones, each multiplied by r^16, so lane i of a has blocks i, i + 16, ... and lane i of b
// blocks 8 + i, 24 + i, ... Two accumulators give two independent chains of multiplies (one is a chain of
// some 30 cycles per unit), which the ChaCha20 rounds around them can overlap.
struct PolyLanes {
  LaneAccumulator a, b;
  bool started = false;

  // Starts from the scalar state h: the first pair is added to it (h in lane 0 of a) before any multiply, so
  // that h, like every block, is multiplied by r once per block that follows it.
  explicit PolyLanes(const Limbs& h) {
    const __m512i zero = _mm512_setzero_si512();
    a = {_mm512_setr_epi64(static_cast<long long>(h.l[0]), 0, 0, 0, 0, 0, 0, 0),
         _mm512_setr_epi64(static_cast<long long>(h.l[1]), 0, 0, 0, 0, 0, 0, 0),
         _mm512_setr_epi64(static_cast<long long>(h.l[2]), 0, 0, 0, 0, 0, 0, 0)};
    b = {zero, zero, zero};
  }

  // Absorbs the 256 bytes at p (two units).
  [[gnu::always_inline]] inline void absorb_pair(const Poly1305& key, const std::uint8_t* p) {
    __m512i m0, m1, m2, n0, n1, n2;
    limbs_of_unit(_mm512_loadu_si512(p), _mm512_loadu_si512(p + 64), m0, m1, m2);
    limbs_of_unit(_mm512_loadu_si512(p + 128), _mm512_loadu_si512(p + 192), n0, n1, n2);
    if (started) {
      a.multiply_add(key.r16, key.s16, m0, m1, m2);
      b.multiply_add(key.r16, key.s16, n0, n1, n2);
      return;
    }
    // Limbs below 2^45 after this: within the multiply's bounds.
    a = {_mm512_add_epi64(a.h0, m0), _mm512_add_epi64(a.h1, m1), _mm512_add_epi64(a.h2, m2)};
    b = {n0, n1, n2};
    started = true;
  }

  // Multiplies lane i of a by r^(16-i) and of b by r^(8-i) and adds all lanes up: the scalar state after all
  // the absorbed blocks.
  Limbs finish(const Poly1305& key) {
    const __m512i zero = _mm512_setzero_si512();
    a.multiply_add(key.r_last_a, key.s_last_a, zero, zero, zero);
    b.multiply_add(key.r_last_b, key.s_last_b, zero, zero, zero);
    Limbs h{{static_cast<u64>(_mm512_reduce_add_epi64(_mm512_add_epi64(a.h0, b.h0))),
             static_cast<u64>(_mm512_reduce_add_epi64(_mm512_add_epi64(a.h1, b.h1))),
             static_cast<u64>(_mm512_reduce_add_epi64(_mm512_add_epi64(a.h2, b.h2)))}};
    carry(h);
    return h;
  }
};

// Absorbs whole 256-byte pairs of units from memory (the parts of a message not already in registers);
// returns the bytes absorbed.
std::size_t absorb_pairs(Poly1305& poly, const std::uint8_t* p, std::size_t len) {
  const std::size_t pairs = len / 256;
  if (pairs == 0) return 0;
  poly.make_powers();
  PolyLanes lanes(poly.h);
  for (std::size_t i = 0; i < pairs; ++i) lanes.absorb_pair(poly, p + 256 * i);
  poly.h = lanes.finish(poly);
  return pairs * 256;
}

// How a message that is not whole 16-byte blocks ends: zero-padded to a whole block as AEAD input (§2.8), or
// as plain Poly1305 pads it (§2.5.1: a 0x01 byte after it, and no 2^128 bit).
enum class ShortLastBlock { zero_padded, one_then_zeros };

void absorb_message(Poly1305& poly, const std::uint8_t* p, std::size_t len, ShortLastBlock short_last) {
  const std::size_t paired = absorb_pairs(poly, p, len);
  p += paired;
  len -= paired;
  for (; len >= 16; len -= 16, p += 16) poly.block(p, 1);
  if (len == 0) return;
  std::uint8_t last[16] = {};
  std::memcpy(last, p, len);
  if (short_last == ShortLastBlock::zero_padded) {
    poly.block(last, 1);
    return;
  }
  last[len] = 1;
  poly.block(last, 0);
}

__mmask64 first_bytes(std::size_t n) {
  return n >= 64 ? ~__mmask64{0} : (__mmask64{1} << n) - 1;
}

// XORs up to 1023 bytes with 16 blocks of keystream from `counter`.
void xor_tail(const ChaChaState& state, std::uint32_t counter, const std::uint8_t* in, std::uint8_t* out,
              std::size_t len) {
  __m512i ks[16];
  keystream<1>(state, counter, ks, [](int) {});
  for (std::size_t at = 0, n = 0; at < len; at += 64, ++n) {
    const __mmask64 mask = first_bytes(len - at);
    _mm512_mask_storeu_epi8(out + at, mask, _mm512_xor_si512(_mm512_maskz_loadu_epi8(mask, in + at), ks[n]));
  }
}

// Encrypts or decrypts whole batches of kSets KiB from `done` on, and feeds the ciphertext to the Poly1305
// lanes between the ChaCha20 rounds. Sealing MACs the ciphertext, known only after the rounds: each batch
// absorbs the previous batch's output (still in L1), and the last one's is absorbed after the loop. Opening
// absorbs the batch's own input before overwriting it (in place). Returns the new `done`.
template <bool kSeal, int kSets>
std::size_t bulk(const ChaChaState& state, std::uint32_t& counter, const std::uint8_t* in, std::uint8_t* out,
                 std::size_t len, std::size_t done, const Poly1305& poly, PolyLanes& lanes) {
  constexpr std::size_t kBatch = 1024 * kSets;
  const std::uint8_t* pending = nullptr;
  for (; len - done >= kBatch; done += kBatch, counter += 16 * kSets) {
    const std::uint8_t* const absorb = kSeal ? pending : in + done;
    __m512i ks[16 * kSets];
    // The batch's 4 * kSets pairs, one after each of the first eight double rounds (kSets = 2) or after every
    // other one (kSets = 1).
    keystream<kSets>(state, counter, ks, [&](int round) {
      constexpr int kEvery = 2 / kSets;
      if (absorb != nullptr && round < 8 && round % kEvery == 0)
        lanes.absorb_pair(poly, absorb + 256 * (round / kEvery));
    });
    for (int n = 0; n < 16 * kSets; ++n)
      _mm512_storeu_si512(out + done + 64 * n,
                          _mm512_xor_si512(_mm512_loadu_si512(in + done + 64 * n), ks[n]));
    if constexpr (kSeal) pending = out + done;
  }
  if (kSeal && pending != nullptr)
    for (int pair = 0; pair < 4 * kSets; ++pair) lanes.absorb_pair(poly, pending + 256 * pair);
  return done;
}

// RFC 8439 §2.8 in one pass: each 1 KiB is loaded once, XORed with 16 blocks of keystream and fed to the
// Poly1305 lanes from the same registers (the ciphertext: the result when sealing, the input when opening).
template <bool kSeal>
void crypt(const std::uint8_t key[32], const std::uint8_t nonce[12], const std::uint8_t* aad,
           std::size_t aad_len, const std::uint8_t* in, std::size_t len, std::uint8_t* out,
           std::uint8_t tag[16]) {
  if (len > kMaxMessageBytes)
    throw std::length_error("ChaCha20-Poly1305 message longer than 2^38 - 64 bytes");
  ChaChaState state(key, nonce);
  std::uint8_t poly_key[32];
  poly_key_block(state, poly_key);
  Poly1305 poly(poly_key);
  sodium_memzero(poly_key, sizeof poly_key);
  absorb_message(poly, aad, aad_len, ShortLastBlock::zero_padded);

  std::uint32_t counter = 1;
  std::size_t done = 0;
  if (len >= 1024) {
    poly.make_powers();
    PolyLanes lanes(poly.h);
    done = bulk<kSeal, 2>(state, counter, in, out, len, done, poly, lanes);
    done = bulk<kSeal, 1>(state, counter, in, out, len, done, poly, lanes);
    poly.h = lanes.finish(poly);
  }
  if (done < len) {
    // Opening in place overwrites the ciphertext: authenticate the tail before decrypting it.
    if constexpr (!kSeal) absorb_message(poly, in + done, len - done, ShortLastBlock::zero_padded);
    xor_tail(state, counter, in + done, out + done, len - done);
    if constexpr (kSeal) absorb_message(poly, out + done, len - done, ShortLastBlock::zero_padded);
  }
  std::uint8_t lengths[16];
  const u64 aad_bits = aad_len, msg_bits = len;  // §2.8: the lengths in bytes, as two 64-bit words
  std::memcpy(lengths, &aad_bits, 8);
  std::memcpy(lengths + 8, &msg_bits, 8);
  poly.block(lengths, 1);
  poly.finish(tag);
  // Leave no dirty upper halves behind: the caller may run SSE code next (see tests/test_aes_upper_state.cc).
  _mm256_zeroupper();
}

bool tags_equal(const std::uint8_t a[16], const std::uint8_t b[16]) {
  unsigned diff = 0;
  for (int i = 0; i < 16; ++i) diff |= static_cast<unsigned>(a[i] ^ b[i]);
  return diff == 0;
}

class Avx512IfmaChaCha final : public core::Aead {
 public:
  explicit Avx512IfmaChaCha(std::span<const std::uint8_t, 32> key) : key_(32) {
    std::memcpy(key_.data(), key.data(), 32);
  }
  void seal(std::uint8_t* out, std::uint8_t* tag, const std::uint8_t* in, std::size_t len,
            std::span<const std::uint8_t, core::kAeadNonceBytes> nonce) const override {
    seal_avx512ifma(key_.data(), nonce.data(), nullptr, 0, in, len, out, tag);
  }
  bool open(std::uint8_t* out, const std::uint8_t* in, std::size_t len, const std::uint8_t* tag,
            std::span<const std::uint8_t, core::kAeadNonceBytes> nonce) const override {
    return open_avx512ifma(key_.data(), nonce.data(), nullptr, 0, in, len, tag, out);
  }

 private:
  SecretBytes key_;
};

}  // namespace

std::unique_ptr<core::Aead> make_avx512ifma_chacha(std::span<const std::uint8_t, 32> key) {
  return std::make_unique<Avx512IfmaChaCha>(key);
}

void seal_avx512ifma(const std::uint8_t key[32], const std::uint8_t nonce[12], const std::uint8_t* aad,
                     std::size_t aad_len, const std::uint8_t* in, std::size_t len, std::uint8_t* out,
                     std::uint8_t tag[16]) {
  crypt<true>(key, nonce, aad, aad_len, in, len, out, tag);
}

bool open_avx512ifma(const std::uint8_t key[32], const std::uint8_t nonce[12], const std::uint8_t* aad,
                     std::size_t aad_len, const std::uint8_t* in, std::size_t len, const std::uint8_t tag[16],
                     std::uint8_t* out) {
  std::uint8_t expected[16], computed[16];
  std::memcpy(expected, tag, 16);  // the tag may sit right after `in`, where an in-place caller writes
  crypt<false>(key, nonce, aad, aad_len, in, len, out, computed);
  if (tags_equal(expected, computed)) return true;
  if (len > 0) sodium_memzero(out, len);
  return false;
}

void poly1305_avx512ifma(std::uint8_t tag[16], const std::uint8_t* msg, std::size_t len,
                         const std::uint8_t key[32]) {
  Poly1305 poly(key);
  absorb_message(poly, msg, len, ShortLastBlock::one_then_zeros);
  poly.finish(tag);
  _mm256_zeroupper();
}

}  // namespace pcrypt::chacha::detail
