// AES-GCM (AES-256 and AES-128, one body templated on the round count) on VAES + VPCLMULQDQ with 256-bit
// registers (AVX2), two blocks per register: 16 counter blocks
// (8 registers) in flight per iteration, and GHASH of 16 blocks against precomputed H^16..H^1 (Karatsuba, one
// reduction per 256 bytes) spread between the AES rounds. Sealing hashes the previous batch's ciphertext
// while encrypting the next; opening hashes the batch it is decrypting (all loads happen before the stores).
#include <immintrin.h>
#include <sodium.h>

#include <cstring>

#include "core/aes/engine_registry.h"
#include "core/aes/gcm_shell.h"
#include "core/aes/ghash_clmul.h"
#include "core/aes/key_schedule.h"
#include "core/aes/vaes_common.h"

namespace pcrypt::aes::detail {
namespace {

using ghash::bswap;
using ghash::Wide;
using vaes::bswap2;
using vaes::load1;
using vaes::load2;
using vaes::store2;

constexpr std::size_t kRegs = 8;              // registers of counter blocks per iteration
constexpr std::size_t kBlocks = 2 * kRegs;    // blocks per iteration
constexpr std::size_t kBatch = 16 * kBlocks;  // bytes per iteration

struct GcmKey {
  __m256i rk[kMaxRounds + 1];  // each round key in both lanes (the first R + 1 used)
  // Hash key powers in the v(H^i x^-1) form of ghash_clmul.h. Register j of a batch holds blocks 2j (low
  // lane) and 2j+1 (high lane), which are multiplied by H^(16-2j) and H^(15-2j).
  __m256i h[kRegs];
  __m256i hk[kRegs];    // their Karatsuba factors
  __m128i h1[kBlocks];  // h1[i] = H^(i+1), for tails and AAD
  __m128i hk1[kBlocks];
};

struct Wide2 {
  __m256i lo, mid, hi;
};

inline __m256i x2(__m256i a, __m256i b) {
  return _mm256_xor_si256(a, b);
}

inline Wide2 mul2(__m256i x, __m256i h, __m256i hk) {
  return {_mm256_clmulepi64_epi128(x, h, 0x00),
          _mm256_clmulepi64_epi128(x2(x, _mm256_shuffle_epi32(x, 0x4e)), hk, 0x00),
          _mm256_clmulepi64_epi128(x, h, 0x11)};
}

inline void mul_acc2(Wide2& a, __m256i x, __m256i h, __m256i hk) {
  a.lo = x2(a.lo, _mm256_clmulepi64_epi128(x, h, 0x00));
  a.mid = x2(a.mid, _mm256_clmulepi64_epi128(x2(x, _mm256_shuffle_epi32(x, 0x4e)), hk, 0x00));
  a.hi = x2(a.hi, _mm256_clmulepi64_epi128(x, h, 0x11));
}

// Both lanes' unreduced products summed, then one reduction (reduction is linear).
inline __m128i reduce2(const Wide2& a) {
  return ghash::reduce(Wide{vaes::fold_lanes(a.lo), vaes::fold_lanes(a.mid), vaes::fold_lanes(a.hi)});
}

inline __m128i add32(__m128i ctr, int n) {
  return _mm_add_epi32(ctr, _mm_set_epi32(0, 0, 0, n));
}
// Counters stay little-endian (v form, byte-reversed) so one 32-bit add per lane is GCM's inc32, wrap
// included.
inline __m256i add32(__m256i ctr, int n) {
  return _mm256_add_epi32(ctr, _mm256_set_epi32(0, 0, 0, n, 0, 0, 0, n));
}

template <int R>
inline __m128i encrypt_block(const GcmKey& k, __m128i x) {
  x = _mm_xor_si128(x, _mm256_castsi256_si128(k.rk[0]));
  for (int r = 1; r < R; ++r) x = _mm_aesenc_si128(x, _mm256_castsi256_si128(k.rk[r]));
  return _mm_aesenclast_si128(x, _mm256_castsi256_si128(k.rk[R]));
}

// GHASH of one full batch at p (16 blocks), one reduction.
inline __m128i ghash_batch(const GcmKey& k, __m128i s, const std::uint8_t* p) {
  Wide2 a = mul2(x2(bswap2(load2(p)), _mm256_zextsi128_si256(s)), k.h[0], k.hk[0]);
#pragma GCC unroll 8
  for (std::size_t j = 1; j < kRegs; ++j) mul_acc2(a, bswap2(load2(p + 32 * j)), k.h[j], k.hk[j]);
  return reduce2(a);
}

// GHASH of up to kBlocks blocks, the last possibly partial (zero-padded), one reduction.
__m128i ghash_group(const GcmKey& k, __m128i s, const std::uint8_t* p, std::size_t len) {
  const std::size_t n = (len + 15) / 16;
  Wide acc{_mm_setzero_si128(), _mm_setzero_si128(), _mm_setzero_si128()};
  for (std::size_t j = 0; j < n; ++j) {
    const std::size_t left = len - 16 * j;
    __m128i x;
    if (left >= 16) {
      x = load1(p + 16 * j);
    } else {
      alignas(16) std::uint8_t b[16] = {};
      std::memcpy(b, p + 16 * j, left);
      x = load1(b);
    }
    x = bswap(x);
    if (j == 0) x = _mm_xor_si128(x, s);
    ghash::mul_acc(acc, x, k.h1[n - 1 - j], k.hk1[n - 1 - j]);
  }
  return ghash::reduce(acc);
}

// One batch of counter mode. With Hash, also absorbs the batch at `hashed` into s between the rounds;
// `hashed` is either the previous batch's output (seal) or this batch's input (open) -- both read before out
// is written.
template <int R, bool Hash>
[[gnu::always_inline]] inline void crypt_batch(const GcmKey& k, __m256i& ctr, __m128i& s, std::uint8_t* out,
                                               const std::uint8_t* in, const std::uint8_t* hashed) {
  static_assert(static_cast<int>(kRegs) < R, "the reduction must fit between the middle rounds");
  __m256i b[kRegs];
#pragma GCC unroll 8
  for (std::size_t j = 0; j < kRegs; ++j) b[j] = x2(bswap2(add32(ctr, static_cast<int>(2 * j))), k.rk[0]);
  ctr = add32(ctr, static_cast<int>(kBlocks));
  Wide2 a{};
  if constexpr (Hash) a = mul2(x2(bswap2(load2(hashed)), _mm256_zextsi128_si256(s)), k.h[0], k.hk[0]);
#pragma GCC unroll 13
  for (int r = 1; r < R; ++r) {
    const __m256i key = k.rk[r];
#pragma GCC unroll 8
    for (std::size_t j = 0; j < kRegs; ++j) b[j] = _mm256_aesenc_epi128(b[j], key);
    if constexpr (Hash) {
      if (r < static_cast<int>(kRegs)) {
        const std::size_t j = static_cast<std::size_t>(r);
        mul_acc2(a, bswap2(load2(hashed + 32 * j)), k.h[j], k.hk[j]);
      }
      if (r == static_cast<int>(kRegs)) s = reduce2(a);
    }
  }
  const __m256i last = k.rk[R];
#pragma GCC unroll 8
  for (std::size_t j = 0; j < kRegs; ++j)
    store2(out + 32 * j, _mm256_aesenclast_epi128(b[j], x2(last, load2(in + 32 * j))));
}

// Counter mode for the last len < kBatch bytes, with W registers (2W blocks) of keystream.
template <int R, std::size_t W>
void ctr_tail_regs(const GcmKey& k, __m256i ctr, std::uint8_t* out, const std::uint8_t* in, std::size_t len) {
  __m256i b[W];
#pragma GCC unroll 8
  for (std::size_t j = 0; j < W; ++j) b[j] = x2(bswap2(add32(ctr, static_cast<int>(2 * j))), k.rk[0]);
  for (int r = 1; r < R; ++r) {
#pragma GCC unroll 8
    for (std::size_t j = 0; j < W; ++j) b[j] = _mm256_aesenc_epi128(b[j], k.rk[r]);
  }
  alignas(32) std::uint8_t ks[32 * W];
#pragma GCC unroll 8
  for (std::size_t j = 0; j < W; ++j) store2(ks + 32 * j, _mm256_aesenclast_epi128(b[j], k.rk[R]));
  std::size_t off = 0;
  for (; off + 32 <= len; off += 32) store2(out + off, x2(load2(in + off), load2(ks + off)));
  for (; off < len; ++off) out[off] = static_cast<std::uint8_t>(in[off] ^ ks[off]);
  sodium_memzero(ks, sizeof ks);
}

template <int R>
void ctr_tail(const GcmKey& k, __m256i ctr, std::uint8_t* out, const std::uint8_t* in, std::size_t len) {
  switch ((len + 31) / 32) {
    case 1:
      return ctr_tail_regs<R, 1>(k, ctr, out, in, len);
    case 2:
      return ctr_tail_regs<R, 2>(k, ctr, out, in, len);
    case 3:
      return ctr_tail_regs<R, 3>(k, ctr, out, in, len);
    case 4:
      return ctr_tail_regs<R, 4>(k, ctr, out, in, len);
    case 5:
      return ctr_tail_regs<R, 5>(k, ctr, out, in, len);
    case 6:
      return ctr_tail_regs<R, 6>(k, ctr, out, in, len);
    case 7:
      return ctr_tail_regs<R, 7>(k, ctr, out, in, len);
    default:
      return ctr_tail_regs<R, 8>(k, ctr, out, in, len);
  }
}

// The steps of the bulk loop in gcm_shell.h, for R rounds: 14 (AES-256) or 10 (AES-128).
template <int R>
struct Kernel {
  using Key = GcmKey;
  using Counters = __m256i;
  static constexpr std::size_t kBatch = detail::kBatch;

  static void expand(GcmKey& k, std::span<const std::uint8_t> key) {
    RoundKeys rk;
    expand_key_for_rounds(key, R, rk);
    for (int r = 0; r <= R; ++r) k.rk[r] = vaes::broadcast(rk.enc[r]);
    sodium_memzero(&rk, sizeof rk);
    const __m128i h = ghash::times_x_inverse(bswap(encrypt_block(k, _mm_setzero_si128())));
    k.h1[0] = h;
    for (std::size_t i = 1; i < kBlocks; ++i) k.h1[i] = ghash::gf_mul(k.h1[i - 1], h);
    for (std::size_t i = 0; i < kBlocks; ++i) k.hk1[i] = ghash::karatsuba_key(k.h1[i]);
    for (std::size_t j = 0; j < kRegs; ++j) {
      k.h[j] = vaes::lanes(k.h1[kBlocks - 2 - 2 * j], k.h1[kBlocks - 1 - 2 * j]);
      k.hk[j] = vaes::lanes(k.hk1[kBlocks - 2 - 2 * j], k.hk1[kBlocks - 1 - 2 * j]);
    }
  }

  static __m128i encrypt_block(const GcmKey& k, __m128i x) { return detail::encrypt_block<R>(k, x); }

  // Counter blocks c (low lane) and c + 1 (high lane).
  static __m256i counters(__m128i c) { return vaes::lanes(add32(c, 1), c); }

  template <bool Hash>
  [[gnu::always_inline]] static void crypt_batch(const GcmKey& k, __m256i& ctr, __m128i& s, std::uint8_t* out,
                                                 const std::uint8_t* in, const std::uint8_t* hashed) {
    detail::crypt_batch<R, Hash>(k, ctr, s, out, in, hashed);
  }

  static __m128i ghash_batch(const GcmKey& k, __m128i s, const std::uint8_t* p) {
    return detail::ghash_batch(k, s, p);
  }
  static __m128i ghash_group(const GcmKey& k, __m128i s, const std::uint8_t* p, std::size_t len) {
    return detail::ghash_group(k, s, p, len);
  }
  static void ctr_tail(const GcmKey& k, __m256i ctr, std::uint8_t* out, const std::uint8_t* in,
                       std::size_t len) {
    detail::ctr_tail<R>(k, ctr, out, in, len);
  }
  static void clear_upper_halves() { _mm256_zeroupper(); }
};

}  // namespace

std::unique_ptr<Gcm> make_vaes_gcm(std::span<const std::uint8_t, kGcmKeyBytes> key) {
  return std::make_unique<GcmShell<Kernel<14>>>(key);
}

std::unique_ptr<Gcm> make_vaes_gcm128(std::span<const std::uint8_t, kGcm128KeyBytes> key) {
  return std::make_unique<GcmShell<Kernel<10>>>(key);
}

}  // namespace pcrypt::aes::detail
