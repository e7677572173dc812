// Raw AES-128/192/256 on VAES with 512-bit registers: ECB both ways and SP 800-38A CTR. CTR keeps 8 zmm
// (32 blocks) in flight, enough independent work to cover the AES unit's latency at its full throughput; the
// last partial register uses AVX-512BW byte masks instead of a stack buffer. As in gcm_vaes512.cc, every
// instruction outside the rounds takes time from them on Zen 4, so the counter blocks advance by a byte add
// and the data is XORed into the last round key (fused CTR-XOR 13.0 -> 14.9 GB/s there, docs/BENCHMARKS.md).
#include "core/aes/vaes512_common.h"

#include "core/aes/engine_registry.h"
#include "core/aes/hardware_block_cipher.h"

namespace pcrypt::aes::detail {
namespace {

constexpr std::size_t kRegs = 8;  // registers per iteration, four blocks each

using vaes512::bswap4;
using vaes512::byte_add_carried;
using vaes512::first_bytes;
using vaes512::last_byte_step;
using vaes512::load4;
using vaes512::store4;

// All rounds but the last.
template <int R, bool Decrypt, std::size_t N>
inline void first_rounds(const __m512i* rk, __m512i* b) {
#pragma GCC unroll 8
  for (std::size_t j = 0; j < N; ++j) b[j] = _mm512_xor_si512(b[j], rk[0]);
#pragma GCC unroll 14
  for (int r = 1; r < R; ++r) {
    const __m512i key = rk[r];
#pragma GCC unroll 8
    for (std::size_t j = 0; j < N; ++j)
      b[j] = Decrypt ? _mm512_aesdec_epi128(b[j], key) : _mm512_aesenc_epi128(b[j], key);
  }
}

template <int R, bool Decrypt, std::size_t N>
inline void rounds(const __m512i* rk, __m512i* b) {
  first_rounds<R, Decrypt, N>(rk, b);
#pragma GCC unroll 8
  for (std::size_t j = 0; j < N; ++j)
    b[j] = Decrypt ? _mm512_aesdeclast_epi128(b[j], rk[R]) : _mm512_aesenclast_epi128(b[j], rk[R]);
}

template <int R, bool Decrypt>
void ecb_run(const __m512i* rk, std::uint8_t* out, const std::uint8_t* in, std::size_t blocks) {
  for (; blocks >= 4 * kRegs; blocks -= 4 * kRegs, in += 64 * kRegs, out += 64 * kRegs) {
    __m512i b[kRegs];
#pragma GCC unroll 8
    for (std::size_t j = 0; j < kRegs; ++j) b[j] = load4(in + 64 * j);
    rounds<R, Decrypt, kRegs>(rk, b);
#pragma GCC unroll 8
    for (std::size_t j = 0; j < kRegs; ++j) store4(out + 64 * j, b[j]);
  }
  for (; blocks > 0; blocks -= blocks < 4 ? blocks : 4, in += 64, out += 64) {
    const __mmask64 m = first_bytes(16 * blocks);
    __m512i b = _mm512_maskz_loadu_epi8(m, in);
    rounds<R, Decrypt, 1>(rk, &b);
    _mm512_mask_storeu_epi8(out, m, b);
  }
}

// Counters base + i .. base + i + 3 as blocks (base: (hi, lo) 64-bit lanes; the caller guarantees lo does
// not wrap within the run).
inline __m512i counter_quad(__m512i base, std::size_t i) {
  const auto n = static_cast<long long>(i);
  const __m512i le = _mm512_add_epi64(base, _mm512_set_epi64(0, n + 3, 0, n + 2, 0, n + 1, 0, n));
  return bswap4(le);
}

// One run of counters whose low 64 bits do not wrap. in == nullptr writes the keystream itself.
template <int R>
void ctr_run(const __m512i* rk, std::uint8_t* out, const std::uint8_t* in, std::size_t len, __m128i base128) {
  const __m512i base = _mm512_broadcast_i32x4(base128);
  const auto low = static_cast<std::uint64_t>(_mm_cvtsi128_si64(base128));
  constexpr std::size_t kBlocks = 4 * kRegs;
  const __m512i step = last_byte_step(kBlocks);
  __m512i next[kRegs];  // the next iteration's counter blocks, big-endian, advanced by a byte add
  std::size_t i = 0;
  for (; len >= 64 * kRegs; len -= 64 * kRegs, i += 4 * kRegs, out += 64 * kRegs) {
    if (i == 0 || byte_add_carried(static_cast<std::uint8_t>(low + i - kBlocks), kBlocks)) {
#pragma GCC unroll 8
      for (std::size_t j = 0; j < kRegs; ++j) next[j] = counter_quad(base, i + 4 * j);
    }
    __m512i b[kRegs];
#pragma GCC unroll 8
    for (std::size_t j = 0; j < kRegs; ++j) {
      b[j] = next[j];
      next[j] = _mm512_add_epi32(next[j], step);
    }
    if (in != nullptr) {
      // The data XORed into the last round key: vaesenclast yields the output, one step off the chain.
      first_rounds<R, false, kRegs>(rk, b);
#pragma GCC unroll 8
      for (std::size_t j = 0; j < kRegs; ++j)
        b[j] = _mm512_aesenclast_epi128(b[j], _mm512_xor_si512(rk[R], load4(in + 64 * j)));
      in += 64 * kRegs;
    } else {
      rounds<R, false, kRegs>(rk, b);
    }
#pragma GCC unroll 8
    for (std::size_t j = 0; j < kRegs; ++j) store4(out + 64 * j, b[j]);
  }
  for (; len > 0; i += 4) {
    const std::size_t n = len < 64 ? len : 64;
    const __mmask64 m = first_bytes(n);
    __m512i b = counter_quad(base, i);
    rounds<R, false, 1>(rk, &b);
    if (in != nullptr) {
      b = _mm512_xor_si512(b, _mm512_maskz_loadu_epi8(m, in));
      in += n;
    }
    _mm512_mask_storeu_epi8(out, m, b);
    out += n;
    len -= n;
  }
}

struct Kernels {
  using Reg = __m512i;
  static Reg round_key(const std::uint8_t* key16) {
    return _mm512_broadcast_i32x4(_mm_loadu_si128(reinterpret_cast<const __m128i*>(key16)));
  }
  template <int R, bool Decrypt>
  static void ecb(const Reg* rk, std::uint8_t* out, const std::uint8_t* in, std::size_t blocks) {
    ecb_run<R, Decrypt>(rk, out, in, blocks);
  }
  template <int R>
  static void ctr(const Reg* rk, std::uint8_t* out, const std::uint8_t* in, std::size_t len, std::uint64_t hi,
                  std::uint64_t lo) {
    ctr_run<R>(rk, out, in, len, _mm_set_epi64x(static_cast<long long>(hi), static_cast<long long>(lo)));
  }
};

}  // namespace

std::unique_ptr<BlockCipher> make_vaes512_block_cipher(std::span<const std::uint8_t> key) {
  return std::make_unique<HardwareBlockCipher<Kernels>>(key);
}

}  // namespace pcrypt::aes::detail
