// AES-GCM (AES-256 and AES-128) on VAES + VPCLMULQDQ with 512-bit registers (AVX-512), four blocks per
// register.
//
// Bulk: 32 counter blocks (8 zmm, 512 bytes) per iteration. GHASH of 32 blocks is multiplied against the
// precomputed powers H^32..H^1 (four per register, highest first), the schoolbook pieces are summed unreduced
// across all eight registers, and one reduction finishes the 512 bytes. That hashing is spread step by step
// between the middle AES rounds (13 for AES-256, 9 for AES-128; it needs 8 of them), so the AES and
// carry-less multiply units work at the same time. Sealing hashes the previous batch's ciphertext while
// encrypting the next; opening hashes the batch it decrypts (all loads happen before the stores, so in place
// is safe). The data is XORed into the last round key, so `vaesenclast` produces the output directly.
//
// Why 8 registers and not the 4 of the Linux kernel's design: on Zen 4 a 512-bit instruction occupies a
// 256-bit unit for two cycles, so every instruction outside the AES rounds competes with them; twice the
// batch halves the per-batch reduction, counter and loop work (measured on Zen 4: ~12 GB/s against ~11 with
// four, see docs/BENCHMARKS.md). The same reason picks the schoolbook multiply and the byte-add counter
// below.
//
// Tails (and AAD) use AVX-512BW byte masks: masked loads zero the bytes past the end (and never fault on
// them), masked stores write only the message bytes, so no stack buffer ever holds keystream or plaintext.
// A group of n < 32 blocks is hashed against H^n..H^1, read from one descending table of powers at an offset.
#include <sodium.h>
#include "core/aes/vaes512_common.h"

#include "core/aes/engine_registry.h"
#include "core/aes/gcm_shell.h"
#include "core/aes/ghash_clmul.h"
#include "core/aes/key_schedule.h"

namespace pcrypt::aes::detail {
namespace {

using ghash::bswap;
using ghash::Wide;
using vaes512::bswap4;
using vaes512::byte_add_carried;
using vaes512::first_bytes;
using vaes512::last_byte_step;
using vaes512::load4;
using vaes512::store4;

constexpr std::size_t kRegs = 8;              // zmm registers of counter blocks per iteration
constexpr std::size_t kBlocks = 4 * kRegs;    // blocks per iteration
constexpr std::size_t kBatch = 16 * kBlocks;  // bytes per iteration

struct GcmKey {
  __m512i rk[kMaxRounds + 1];  // each round key in all four lanes (the first R + 1 used)
  // Hash key powers in the v(H^i x^-1) form of ghash_clmul.h, descending: pow[i] = H^(32-i). A group of n
  // blocks loads its powers H^n..H^1 from pow + 32 - n; the three zero entries after the table keep that
  // 4-lane load inside the object when n is not a multiple of 4.
  alignas(64) __m128i pow[kBlocks + 3];
};

inline __m512i x2(__m512i a, __m512i b) {
  return _mm512_xor_si512(a, b);
}

// A sum of 256-bit products, schoolbook pieces per lane: lo = a0*b0, mid = a0*b1 + a1*b0, hi = a1*b1 (64-bit
// halves). Schoolbook rather than Karatsuba: one more multiply per block, but no shuffle or XOR to form the
// operands, and three-way XORs (vpternlogd) sum the pieces -- fewer instructions in all, which is what counts
// when the AES rounds keep the vector units busy.
struct Wide4 {
  __m512i lo, mid, hi;
};

inline __m512i x3(__m512i a, __m512i b, __m512i c) {
  return _mm512_ternarylogic_epi32(a, b, c, 0x96);
}

inline Wide4 mul4(__m512i x, __m512i h) {
  return {_mm512_clmulepi64_epi128(x, h, 0x00),
          x2(_mm512_clmulepi64_epi128(x, h, 0x01), _mm512_clmulepi64_epi128(x, h, 0x10)),
          _mm512_clmulepi64_epi128(x, h, 0x11)};
}

inline void mul_acc4(Wide4& a, __m512i x, __m512i h) {
  a.lo = x2(a.lo, _mm512_clmulepi64_epi128(x, h, 0x00));
  a.mid = x3(a.mid, _mm512_clmulepi64_epi128(x, h, 0x01), _mm512_clmulepi64_epi128(x, h, 0x10));
  a.hi = x2(a.hi, _mm512_clmulepi64_epi128(x, h, 0x11));
}

// XOR of the four lanes.
inline __m128i fold_lanes(__m512i x) {
  const __m256i y = _mm256_xor_si256(_mm512_castsi512_si256(x), _mm512_extracti64x4_epi64(x, 1));
  return _mm_xor_si128(_mm256_castsi256_si128(y), _mm256_extracti128_si256(y, 1));
}

// Montgomery reduction of each lane's sum (the two folds of ghash::reduce, done on the pieces in place: the
// low half folds into the middle, the middle into the high), then the lanes summed: reduction is linear.
inline __m128i reduce4(const Wide4& a) {
  const __m512i p = _mm512_broadcast_i32x4(ghash::poly());
  const __m512i mid =
      x3(a.mid, _mm512_shuffle_epi32(a.lo, _MM_PERM_BADC), _mm512_clmulepi64_epi128(a.lo, p, 0x10));
  return fold_lanes(
      x3(a.hi, _mm512_shuffle_epi32(mid, _MM_PERM_BADC), _mm512_clmulepi64_epi128(mid, p, 0x10)));
}

inline __m512i powers(const GcmKey& k, std::size_t i) {
  return _mm512_loadu_si512(&k.pow[i]);
}

// Counters stay little-endian (v form) so one 32-bit add per lane is GCM's inc32, wrap included.
inline __m512i add32(__m512i ctr, int n) {
  return _mm512_add_epi32(ctr, _mm512_set_epi32(0, 0, 0, n, 0, 0, 0, n, 0, 0, 0, n, 0, 0, 0, n));
}

// The bulk loop's counter blocks, advanced by a byte add (vaes512_common.h) and otherwise rebuilt from the
// little-endian form, which handles every carry including GCM's 32-bit wrap.
class BatchCounters {
 public:
  // Counter blocks first, first+1, ...; first is a counter block byte-reversed (its low 32 bits the counter).
  explicit BatchCounters(__m128i first)
      : le_(_mm512_add_epi32(_mm512_broadcast_i32x4(first),
                             _mm512_set_epi32(0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0))),
        low_(static_cast<std::uint32_t>(_mm_cvtsi128_si32(first))) {
    rebuild();
  }

  // The next batch's counter blocks XORed with round key 0 (AES's first step) into b; then advances.
  [[gnu::always_inline]] void next_batch(__m512i rk0, __m512i (&b)[kRegs]) {
    // be_ came from the previous batch's byte add (its first low byte: low_ - kBlocks).
    if (byte_add_carried(static_cast<std::uint8_t>(low_ - kBlocks), kBlocks)) rebuild();
    const __m512i step = last_byte_step(kBlocks);
#pragma GCC unroll 8
    for (std::size_t j = 0; j < kRegs; ++j) {
      b[j] = x2(be_[j], rk0);
      be_[j] = _mm512_add_epi32(be_[j], step);
    }
    le_ = add32(le_, static_cast<int>(kBlocks));
    low_ += kBlocks;
  }

  // The next counter blocks, little-endian, four per register (for ctr_tail).
  __m512i little_endian() const {
    return le_;
  }

 private:
  void rebuild() {
#pragma GCC unroll 8
    for (std::size_t j = 0; j < kRegs; ++j) be_[j] = bswap4(add32(le_, static_cast<int>(4 * j)));
  }

  __m512i le_;
  __m512i be_[kRegs];
  std::uint32_t low_;
};

template <int R>
inline __m128i encrypt_block(const GcmKey& k, __m128i x) {
  x = _mm_xor_si128(x, _mm512_castsi512_si128(k.rk[0]));
  for (int r = 1; r < R; ++r) x = _mm_aesenc_si128(x, _mm512_castsi512_si128(k.rk[r]));
  return _mm_aesenclast_si128(x, _mm512_castsi512_si128(k.rk[R]));
}

// GHASH of one full batch at p (32 blocks), one reduction.
inline __m128i ghash_batch(const GcmKey& k, __m128i s, const std::uint8_t* p) {
  Wide4 a = mul4(x2(bswap4(load4(p)), _mm512_zextsi128_si512(s)), powers(k, 0));
#pragma GCC unroll 8
  for (std::size_t j = 1; j < kRegs; ++j) mul_acc4(a, bswap4(load4(p + 64 * j)), powers(k, 4 * j));
  return reduce4(a);
}

// GHASH of 0 < len < kBatch bytes, the last block possibly partial (zero-padded by the masked load), one
// reduction. Block i of the n is multiplied by H^(n-i).
__m128i ghash_group(const GcmKey& k, __m128i s, const std::uint8_t* p, std::size_t len) {
  const std::size_t n = (len + 15) / 16;
  const std::size_t first = kBlocks - n;  // index of H^n in the descending table
  Wide4 a{_mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512()};
  for (std::size_t j = 0; 64 * j < len; ++j) {
    // Lanes past block n hold zero data (masked load) against the zero padding of the tables.
    __m512i x = bswap4(_mm512_maskz_loadu_epi8(first_bytes(len - 64 * j), p + 64 * j));
    if (j == 0) x = x2(x, _mm512_zextsi128_si512(s));
    mul_acc4(a, x, powers(k, first + 4 * j));
  }
  return reduce4(a);
}

// One batch of counter mode. With Hash, also absorbs the batch at `hashed` into s between the rounds;
// `hashed` is either the previous batch's output (seal) or this batch's input (open) -- both read before out
// is written.
constexpr int kHashEvery = kRegs <= 6 ? 2 : 1;  // rounds between two registers' GHASH steps

template <int R, bool Hash>
[[gnu::always_inline]] inline void crypt_batch(const GcmKey& k, BatchCounters& ctr, __m128i& s,
                                               std::uint8_t* out, const std::uint8_t* in,
                                               const std::uint8_t* hashed) {
  static_assert(kHashEvery * kRegs < R, "the reduction must fit between the middle rounds");
  __m512i b[kRegs];
  ctr.next_batch(k.rk[0], b);
  Wide4 a{};
  if constexpr (Hash) a = mul4(x2(bswap4(load4(hashed)), _mm512_zextsi128_si512(s)), powers(k, 0));
#pragma GCC unroll 13
  for (int r = 1; r < R; ++r) {
    const __m512i key = k.rk[r];
#pragma GCC unroll 8
    for (std::size_t j = 0; j < kRegs; ++j) b[j] = _mm512_aesenc_epi128(b[j], key);
    if constexpr (Hash) {
      // One register of hashing every kHashEvery rounds, then the reduction: the multiplies' latency hides
      // behind the AES rounds.
      if (r % kHashEvery == 0 && r / kHashEvery < static_cast<int>(kRegs)) {
        const auto j = static_cast<std::size_t>(r / kHashEvery);
        mul_acc4(a, bswap4(load4(hashed + 64 * j)), powers(k, 4 * j));
      }
      if (r == kHashEvery * static_cast<int>(kRegs)) s = reduce4(a);
    }
  }
  const __m512i last = k.rk[R];
#pragma GCC unroll 8
  for (std::size_t j = 0; j < kRegs; ++j)
    store4(out + 64 * j, _mm512_aesenclast_epi128(b[j], x2(last, load4(in + 64 * j))));
}

// Counter mode for the last 0 < len < kBatch bytes, 256 bytes (four registers) of keystream at a time,
// masked loads and stores for the final partial register.
template <int R>
void ctr_tail(const GcmKey& k, __m512i ctr, std::uint8_t* out, const std::uint8_t* in, std::size_t len) {
  for (std::size_t group = 0; group < len; group += 256, ctr = add32(ctr, 16)) {
    __m512i b[4];
#pragma GCC unroll 8
    for (std::size_t j = 0; j < 4; ++j) b[j] = x2(bswap4(add32(ctr, static_cast<int>(4 * j))), k.rk[0]);
    // Rounds on all four registers even when fewer are needed: the unused ones are independent work that
    // fills latency slots anyway, and a fixed shape keeps the rounds branch-free.
    for (int r = 1; r < R; ++r) {
#pragma GCC unroll 8
      for (std::size_t j = 0; j < 4; ++j) b[j] = _mm512_aesenc_epi128(b[j], k.rk[r]);
    }
    for (std::size_t j = 0; j < 4 && group + 64 * j < len; ++j) {
      const std::size_t at = group + 64 * j;
      const __mmask64 m = first_bytes(len - at);
      const __m512i data = _mm512_maskz_loadu_epi8(m, in + at);
      _mm512_mask_storeu_epi8(out + at, m, _mm512_aesenclast_epi128(b[j], x2(k.rk[R], data)));
    }
  }
}

// The steps of the bulk loop in gcm_shell.h (J0, AAD, length block, tag and verify-then-zero live there too),
// for R rounds: 14 (AES-256) or 10 (AES-128).
template <int R>
struct Kernel {
  using Key = GcmKey;
  using Counters = BatchCounters;
  static constexpr std::size_t kBatch = detail::kBatch;

  static void expand(GcmKey& k, std::span<const std::uint8_t> key) {
    RoundKeys rk;
    expand_key_for_rounds(key, R, rk);
    for (int r = 0; r <= R; ++r)
      k.rk[r] = _mm512_broadcast_i32x4(_mm_load_si128(reinterpret_cast<const __m128i*>(rk.enc[r])));
    sodium_memzero(&rk, sizeof rk);
    const __m128i h = ghash::times_x_inverse(bswap(detail::encrypt_block<R>(k, _mm_setzero_si128())));
    __m128i p = h;
    for (std::size_t i = kBlocks; i-- > 0;) {
      k.pow[i] = p;
      p = ghash::gf_mul(p, h);
    }
  }

  static __m128i encrypt_block(const GcmKey& k, __m128i x) { return detail::encrypt_block<R>(k, x); }

  static BatchCounters counters(__m128i first) { return BatchCounters(first); }

  template <bool Hash>
  [[gnu::always_inline]] static void crypt_batch(const GcmKey& k, BatchCounters& ctr, __m128i& s,
                                                 std::uint8_t* out, const std::uint8_t* in,
                                                 const std::uint8_t* hashed) {
    detail::crypt_batch<R, Hash>(k, ctr, s, out, in, hashed);
  }

  static __m128i ghash_batch(const GcmKey& k, __m128i s, const std::uint8_t* p) {
    return detail::ghash_batch(k, s, p);
  }
  static __m128i ghash_group(const GcmKey& k, __m128i s, const std::uint8_t* p, std::size_t len) {
    return detail::ghash_group(k, s, p, len);
  }
  static void ctr_tail(const GcmKey& k, const BatchCounters& ctr, std::uint8_t* out, const std::uint8_t* in,
                       std::size_t len) {
    detail::ctr_tail<R>(k, ctr.little_endian(), out, in, len);
  }
  // (Today GCC inlines bulk() here and tracks the state itself; this keeps it so whatever it inlines.)
  static void clear_upper_halves() { _mm256_zeroupper(); }
};

}  // namespace

std::unique_ptr<Gcm> make_vaes512_gcm(std::span<const std::uint8_t, kGcmKeyBytes> key) {
  return std::make_unique<GcmShell<Kernel<14>>>(key);
}

std::unique_ptr<Gcm> make_vaes512_gcm128(std::span<const std::uint8_t, kGcm128KeyBytes> key) {
  return std::make_unique<GcmShell<Kernel<10>>>(key);
}

}  // namespace pcrypt::aes::detail
