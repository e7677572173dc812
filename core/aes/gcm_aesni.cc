// AES-GCM (AES-256 and AES-128, one body templated on the round count) on AES-NI + PCLMULQDQ (128-bit
// registers): 8 counter blocks in flight, GHASH of 8 blocks per
// iteration against precomputed H^8..H^1 with one reduction, stitched into the AES rounds of a batch (the
// next one when sealing, the same one when opening; the loop is gcm_shell.h's).
#include <immintrin.h>
#include <sodium.h>

#include <cstring>

#include "core/aes/engine_registry.h"
#include "core/aes/gcm_shell.h"
#include "core/aes/ghash_clmul.h"
#include "core/aes/key_schedule.h"

namespace pcrypt::aes::detail {
namespace {

using ghash::bswap;
using ghash::mul;
using ghash::mul_acc;
using ghash::reduce;
using ghash::Wide;

constexpr std::size_t kWidth = 8;  // blocks per iteration
constexpr std::size_t kBatch = kWidth * kBlockBytes;

struct GcmKey {
  __m128i rk[kMaxRounds + 1];  // the first R + 1 used
  __m128i h[kWidth];           // h[i] = v(H^(i+1) x^-1), see ghash_clmul.h
  __m128i hk[kWidth];          // Karatsuba factors of h[i]
};

inline __m128i load(const std::uint8_t* p) {
  return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
}
inline void store(std::uint8_t* p, __m128i v) {
  _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v);
}

// A partial block goes through a zero-padded stack copy, so nothing beyond the caller's buffers is touched.
inline __m128i load_partial(const std::uint8_t* p, std::size_t n) {
  alignas(16) std::uint8_t b[16] = {};
  std::memcpy(b, p, n);
  return load(b);
}
inline void store_partial(std::uint8_t* p, __m128i v, std::size_t n) {
  alignas(16) std::uint8_t b[16];
  store(b, v);
  std::memcpy(p, b, n);
}

inline __m128i add32(__m128i ctr, int n) {
  return _mm_add_epi32(ctr, _mm_set_epi32(0, 0, 0, n));
}

template <int R>
inline __m128i encrypt_block(const GcmKey& k, __m128i x) {
  x = _mm_xor_si128(x, k.rk[0]);
  for (int r = 1; r < R; ++r) x = _mm_aesenc_si128(x, k.rk[r]);
  return _mm_aesenclast_si128(x, k.rk[R]);
}

// Absorbs up to kWidth blocks (the last may be partial, zero-padded) with a single reduction.
__m128i ghash_group(const GcmKey& k, __m128i s, const std::uint8_t* p, std::size_t len) {
  const std::size_t n = (len + 15) / 16;
  Wide acc{_mm_setzero_si128(), _mm_setzero_si128(), _mm_setzero_si128()};
  for (std::size_t j = 0; j < n; ++j) {
    const std::size_t left = len - 16 * j;
    __m128i x = bswap(left >= 16 ? load(p + 16 * j) : load_partial(p + 16 * j, left));
    if (j == 0) x = _mm_xor_si128(x, s);
    mul_acc(acc, x, k.h[n - 1 - j], k.hk[n - 1 - j]);
  }
  return reduce(acc);
}

// The steps of the bulk loop in gcm_shell.h, for R rounds: 14 (AES-256) or 10 (AES-128).
template <int R>
struct Kernel {
  using Key = GcmKey;
  using Counters = __m128i;
  static constexpr std::size_t kBatch = detail::kBatch;

  static void expand(GcmKey& k, std::span<const std::uint8_t> key) {
    RoundKeys rk;
    expand_key_for_rounds(key, R, rk);
    for (int r = 0; r <= R; ++r) k.rk[r] = load(rk.enc[r]);
    sodium_memzero(&rk, sizeof rk);
    const __m128i h = ghash::times_x_inverse(bswap(encrypt_block(k, _mm_setzero_si128())));
    k.h[0] = h;
    for (std::size_t i = 1; i < kWidth; ++i) k.h[i] = ghash::gf_mul(k.h[i - 1], h);
    for (std::size_t i = 0; i < kWidth; ++i) k.hk[i] = ghash::karatsuba_key(k.h[i]);
  }

  static __m128i encrypt_block(const GcmKey& k, __m128i x) { return detail::encrypt_block<R>(k, x); }

  static __m128i counters(__m128i first) { return first; }

  // Opening hashes the blocks it decrypts (hashed == in): they are loaded once, before the rounds, for the
  // multiply and for the last round. Sealing hashes the previous batch's output: its blocks are loaded as the
  // rounds need them and the input only at the last round, so nothing is kept across the rounds (with 128-bit
  // registers, preloading there spills 8 blocks to the stack and back every batch). In the driver's open
  // loop hashed and in are the same expression, so the compiler keeps only the first branch there.
  template <bool Hash>
  [[gnu::always_inline]] static void crypt_batch(const GcmKey& k, __m128i& ctr, __m128i& s, std::uint8_t* out,
                                                 const std::uint8_t* in, const std::uint8_t* hashed) {
    if (Hash && hashed == in)
      crypt_batch_from<true, true>(k, ctr, s, out, in, in);
    else
      crypt_batch_from<Hash, false>(k, ctr, s, out, in, hashed);
  }

  static __m128i ghash_batch(const GcmKey& k, __m128i s, const std::uint8_t* p) {
    return ghash_group(k, s, p, kBatch);
  }
  static __m128i ghash_group(const GcmKey& k, __m128i s, const std::uint8_t* p, std::size_t len) {
    return detail::ghash_group(k, s, p, len);
  }

  static void ctr_tail(const GcmKey& k, __m128i ctr, std::uint8_t* out, const std::uint8_t* in,
                       std::size_t len) {
    for (std::size_t off = 0; off < len; off += 16, ctr = add32(ctr, 1)) {
      const __m128i ks = detail::encrypt_block<R>(k, bswap(ctr));
      const std::size_t n = len - off < 16 ? len - off : 16;
      if (n == 16)
        store(out + off, _mm_xor_si128(ks, load(in + off)));
      else
        store_partial(out + off, _mm_xor_si128(ks, load_partial(in + off, n)), n);
    }
  }

 private:
  // HashIn: the hashed blocks are the input blocks, loaded into c[] up front.
  template <bool Hash, bool HashIn>
  [[gnu::always_inline]] static void crypt_batch_from(const GcmKey& k, __m128i& ctr, __m128i& s,
                                                      std::uint8_t* out, const std::uint8_t* in,
                                                      const std::uint8_t* hashed) {
    __m128i c[kWidth];
    if constexpr (HashIn) {
#pragma GCC unroll 8
      for (std::size_t j = 0; j < kWidth; ++j) c[j] = load(in + 16 * j);
    }
    const auto hashed_block = [&](std::size_t j) {
      if constexpr (HashIn)
        return c[j];
      else
        return load(hashed + 16 * j);
    };
    __m128i b[kWidth];
#pragma GCC unroll 8
    for (std::size_t j = 0; j < kWidth; ++j)
      b[j] = _mm_xor_si128(bswap(add32(ctr, static_cast<int>(j))), k.rk[0]);
    ctr = add32(ctr, kWidth);
    Wide acc{};
    if constexpr (Hash)
      acc = mul(_mm_xor_si128(s, bswap(hashed_block(0))), k.h[kWidth - 1], k.hk[kWidth - 1]);
#pragma GCC unroll 13
    for (int r = 1; r < R; ++r) {
#pragma GCC unroll 8
      for (std::size_t j = 0; j < kWidth; ++j) b[j] = _mm_aesenc_si128(b[j], k.rk[r]);
      if constexpr (Hash) {
        if (r < static_cast<int>(kWidth)) {
          const auto j = static_cast<std::size_t>(r);
          mul_acc(acc, bswap(hashed_block(j)), k.h[kWidth - 1 - j], k.hk[kWidth - 1 - j]);
        }
        if (r == static_cast<int>(kWidth)) s = reduce(acc);
      }
    }
#pragma GCC unroll 8
    for (std::size_t j = 0; j < kWidth; ++j) {
      __m128i x;
      if constexpr (HashIn)
        x = c[j];
      else
        x = load(in + 16 * j);
      store(out + 16 * j, _mm_aesenclast_si128(b[j], _mm_xor_si128(k.rk[R], x)));
    }
  }
};

}  // namespace

std::unique_ptr<Gcm> make_aesni_gcm(std::span<const std::uint8_t, kGcmKeyBytes> key) {
  return std::make_unique<GcmShell<Kernel<14>>>(key);
}

std::unique_ptr<Gcm> make_aesni_gcm128(std::span<const std::uint8_t, kGcm128KeyBytes> key) {
  return std::make_unique<GcmShell<Kernel<10>>>(key);
}

}  // namespace pcrypt::aes::detail
