// Raw AES-128/192/256 on AES-NI: ECB blocks both ways and SP 800-38A CTR, 8 blocks in flight.
#include <immintrin.h>
#include <sodium.h>

#include "core/aes/engine_registry.h"
#include "core/aes/hardware_block_cipher.h"

namespace pcrypt::aes::detail {
namespace {

constexpr std::size_t kWidth = 8;

inline __m128i load(const std::uint8_t* p) {
  return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
}
inline void store(std::uint8_t* p, __m128i v) {
  _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v);
}
inline __m128i bswap(__m128i x) {
  return _mm_shuffle_epi8(x, _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
}

// Applies the cipher (Decrypt = false) or inverse cipher to N blocks in registers.
template <int R, bool Decrypt, std::size_t N>
inline void rounds(const __m128i* rk, __m128i* b) {
#pragma GCC unroll 8
  for (std::size_t j = 0; j < N; ++j) b[j] = _mm_xor_si128(b[j], rk[0]);
#pragma GCC unroll 14
  for (int r = 1; r < R; ++r) {
#pragma GCC unroll 8
    for (std::size_t j = 0; j < N; ++j)
      b[j] = Decrypt ? _mm_aesdec_si128(b[j], rk[r]) : _mm_aesenc_si128(b[j], rk[r]);
  }
#pragma GCC unroll 8
  for (std::size_t j = 0; j < N; ++j)
    b[j] = Decrypt ? _mm_aesdeclast_si128(b[j], rk[R]) : _mm_aesenclast_si128(b[j], rk[R]);
}

template <int R, bool Decrypt>
void aesni_ecb(const __m128i* rk, std::uint8_t* out, const std::uint8_t* in, std::size_t blocks) {
  for (; blocks >= kWidth; blocks -= kWidth, in += 16 * kWidth, out += 16 * kWidth) {
    __m128i b[kWidth];
#pragma GCC unroll 8
    for (std::size_t j = 0; j < kWidth; ++j) b[j] = load(in + 16 * j);
    rounds<R, Decrypt, kWidth>(rk, b);
#pragma GCC unroll 8
    for (std::size_t j = 0; j < kWidth; ++j) store(out + 16 * j, b[j]);
  }
  for (; blocks > 0; --blocks, in += 16, out += 16) {
    __m128i b = load(in);
    rounds<R, Decrypt, 1>(rk, &b);
    store(out, b);
  }
}

inline __m128i counter_block(__m128i base, std::size_t i) {
  return bswap(_mm_add_epi64(base, _mm_set_epi64x(0, static_cast<long long>(i))));
}

// One run of counters whose low 64 bits do not wrap: counter i is the byte-reversed (base + i). in == nullptr
// writes the keystream itself.
template <int R>
void ctr_run(const __m128i* rk, std::uint8_t* out, const std::uint8_t* in, std::size_t len, __m128i base) {
  std::size_t i = 0;
  for (; len >= 16 * kWidth; len -= 16 * kWidth, i += kWidth, out += 16 * kWidth) {
    __m128i b[kWidth];
#pragma GCC unroll 8
    for (std::size_t j = 0; j < kWidth; ++j) b[j] = counter_block(base, i + j);
    rounds<R, false, kWidth>(rk, b);
    if (in != nullptr) {
#pragma GCC unroll 8
      for (std::size_t j = 0; j < kWidth; ++j) b[j] = _mm_xor_si128(b[j], load(in + 16 * j));
      in += 16 * kWidth;
    }
#pragma GCC unroll 8
    for (std::size_t j = 0; j < kWidth; ++j) store(out + 16 * j, b[j]);
  }
  for (; len > 0; ++i) {
    __m128i b = counter_block(base, i);
    rounds<R, false, 1>(rk, &b);
    const std::size_t n = len < 16 ? len : 16;
    alignas(16) std::uint8_t ks[16];
    store(ks, b);
    for (std::size_t j = 0; j < n; ++j)
      out[j] = static_cast<std::uint8_t>(ks[j] ^ (in != nullptr ? in[j] : 0));
    if (in != nullptr) in += n;
    out += n;
    len -= n;
  }
}

struct Kernels {
  using Reg = __m128i;
  static Reg round_key(const std::uint8_t* key16) { return load(key16); }
  template <int R, bool Decrypt>
  static void ecb(const Reg* rk, std::uint8_t* out, const std::uint8_t* in, std::size_t blocks) {
    aesni_ecb<R, Decrypt>(rk, out, in, blocks);
  }
  template <int R>
  static void ctr(const Reg* rk, std::uint8_t* out, const std::uint8_t* in, std::size_t len, std::uint64_t hi,
                  std::uint64_t lo) {
    ctr_run<R>(rk, out, in, len, _mm_set_epi64x(static_cast<long long>(hi), static_cast<long long>(lo)));
  }
};

}  // namespace

std::unique_ptr<BlockCipher> make_aesni_block_cipher(std::span<const std::uint8_t> key) {
  return std::make_unique<HardwareBlockCipher<Kernels>>(key);
}

}  // namespace pcrypt::aes::detail
