// Raw AES-128/192/256 on VAES with 256-bit registers: ECB both ways and SP 800-38A CTR, 16 blocks in flight
// (enough independent work to cover the AES unit's latency at its full throughput).
#include <immintrin.h>
#include <sodium.h>

#include <cstring>

#include "core/aes/engine_registry.h"
#include "core/aes/hardware_block_cipher.h"
#include "core/aes/vaes_common.h"

namespace pcrypt::aes::detail {
namespace {

using vaes::bswap2;
using vaes::load1;
using vaes::load2;
using vaes::store1;
using vaes::store2;

constexpr std::size_t kRegs = 8;  // registers per iteration, two blocks each

template <int R, bool Decrypt, std::size_t N>
inline void rounds(const __m256i* rk, __m256i* b) {
#pragma GCC unroll 8
  for (std::size_t j = 0; j < N; ++j) b[j] = _mm256_xor_si256(b[j], rk[0]);
#pragma GCC unroll 14
  for (int r = 1; r < R; ++r) {
    const __m256i key = rk[r];
#pragma GCC unroll 8
    for (std::size_t j = 0; j < N; ++j)
      b[j] = Decrypt ? _mm256_aesdec_epi128(b[j], key) : _mm256_aesenc_epi128(b[j], key);
  }
#pragma GCC unroll 8
  for (std::size_t j = 0; j < N; ++j)
    b[j] = Decrypt ? _mm256_aesdeclast_epi128(b[j], rk[R]) : _mm256_aesenclast_epi128(b[j], rk[R]);
}

template <int R, bool Decrypt>
void vaes_ecb(const __m256i* rk, std::uint8_t* out, const std::uint8_t* in, std::size_t blocks) {
  for (; blocks >= 2 * kRegs; blocks -= 2 * kRegs, in += 32 * kRegs, out += 32 * kRegs) {
    __m256i b[kRegs];
#pragma GCC unroll 8
    for (std::size_t j = 0; j < kRegs; ++j) b[j] = load2(in + 32 * j);
    rounds<R, Decrypt, kRegs>(rk, b);
#pragma GCC unroll 8
    for (std::size_t j = 0; j < kRegs; ++j) store2(out + 32 * j, b[j]);
  }
  for (; blocks >= 2; blocks -= 2, in += 32, out += 32) {
    __m256i b = load2(in);
    rounds<R, Decrypt, 1>(rk, &b);
    store2(out, b);
  }
  if (blocks == 1) {
    // The odd block: 128-bit AES on the low lane of each round key. (Going through a 32-byte stack pair
    // instead costs a store-forwarding stall that made one-block calls ~5x slower than on the aesni engine.)
    __m128i b = _mm_xor_si128(load1(in), _mm256_castsi256_si128(rk[0]));
    for (int r = 1; r < R; ++r) {
      const __m128i key = _mm256_castsi256_si128(rk[r]);
      b = Decrypt ? _mm_aesdec_si128(b, key) : _mm_aesenc_si128(b, key);
    }
    const __m128i last = _mm256_castsi256_si128(rk[R]);
    store1(out, Decrypt ? _mm_aesdeclast_si128(b, last) : _mm_aesenclast_si128(b, last));
  }
}

// Counters base + i (v form: byte-reversed, low 64 bits in the low half) for blocks i and i + 1.
inline __m256i counter_pair(__m256i base, std::size_t i) {
  const auto n = static_cast<long long>(i);
  return bswap2(_mm256_add_epi64(base, _mm256_set_epi64x(0, n + 1, 0, n)));
}

// One run of counters whose low 64 bits do not wrap. in == nullptr writes the keystream itself.
template <int R>
void ctr_run(const __m256i* rk, std::uint8_t* out, const std::uint8_t* in, std::size_t len, __m128i base128) {
  const __m256i base = _mm256_broadcastsi128_si256(base128);
  std::size_t i = 0;
  for (; len >= 32 * kRegs; len -= 32 * kRegs, i += 2 * kRegs, out += 32 * kRegs) {
    __m256i b[kRegs];
#pragma GCC unroll 8
    for (std::size_t j = 0; j < kRegs; ++j) b[j] = counter_pair(base, i + 2 * j);
    rounds<R, false, kRegs>(rk, b);
    if (in != nullptr) {
#pragma GCC unroll 8
      for (std::size_t j = 0; j < kRegs; ++j) b[j] = _mm256_xor_si256(b[j], load2(in + 32 * j));
      in += 32 * kRegs;
    }
#pragma GCC unroll 8
    for (std::size_t j = 0; j < kRegs; ++j) store2(out + 32 * j, b[j]);
  }
  for (; len > 0; i += 2) {
    __m256i b = counter_pair(base, i);
    rounds<R, false, 1>(rk, &b);
    const std::size_t n = len < 32 ? len : 32;
    if (n == 32) {
      store2(out, in != nullptr ? _mm256_xor_si256(b, load2(in)) : b);
    } else {
      alignas(32) std::uint8_t ks[32];
      store2(ks, b);
      for (std::size_t j = 0; j < n; ++j)
        out[j] = static_cast<std::uint8_t>(ks[j] ^ (in != nullptr ? in[j] : 0));
      sodium_memzero(ks, sizeof ks);
    }
    if (in != nullptr) in += n;
    out += n;
    len -= n;
  }
}

struct Kernels {
  using Reg = __m256i;
  static Reg round_key(const std::uint8_t* key16) { return vaes::broadcast(key16); }
  template <int R, bool Decrypt>
  static void ecb(const Reg* rk, std::uint8_t* out, const std::uint8_t* in, std::size_t blocks) {
    vaes_ecb<R, Decrypt>(rk, out, in, blocks);
  }
  template <int R>
  static void ctr(const Reg* rk, std::uint8_t* out, const std::uint8_t* in, std::size_t len, std::uint64_t hi,
                  std::uint64_t lo) {
    ctr_run<R>(rk, out, in, len, _mm_set_epi64x(static_cast<long long>(hi), static_cast<long long>(lo)));
  }
};

}  // namespace

std::unique_ptr<BlockCipher> make_vaes_block_cipher(std::span<const std::uint8_t> key) {
  return std::make_unique<HardwareBlockCipher<Kernels>>(key);
}

}  // namespace pcrypt::aes::detail
