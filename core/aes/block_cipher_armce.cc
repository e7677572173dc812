// Raw AES-128/192/256 on the ARMv8 Crypto Extensions: ECB blocks both ways and SP 800-38A CTR, 8 blocks in
// flight. ARM's AESE/AESD XOR the round key *before* the S-box step (x86's AESENC after it), so a cipher of R
// rounds is R-1 AESE+AESMC pairs, one AESE and a final XOR with the last key; the inverse cipher runs the
// same shape with AESD/AESIMC over the "equivalent inverse cipher" keys of key_schedule.h.
#include <arm_neon.h>

#include "core/aes/engine_registry.h"
#include "core/aes/hardware_block_cipher.h"

namespace pcrypt::aes::detail {
namespace {

constexpr std::size_t kWidth = 8;

// Applies the cipher (Decrypt = false) or inverse cipher to N blocks in registers.
template <int R, bool Decrypt, std::size_t N>
inline void rounds(const uint8x16_t* rk, uint8x16_t* b) {
#pragma GCC unroll 14
  for (int r = 0; r < R - 1; ++r) {
#pragma GCC unroll 8
    for (std::size_t j = 0; j < N; ++j)
      b[j] = Decrypt ? vaesimcq_u8(vaesdq_u8(b[j], rk[r])) : vaesmcq_u8(vaeseq_u8(b[j], rk[r]));
  }
#pragma GCC unroll 8
  for (std::size_t j = 0; j < N; ++j)
    b[j] = veorq_u8(Decrypt ? vaesdq_u8(b[j], rk[R - 1]) : vaeseq_u8(b[j], rk[R - 1]), rk[R]);
}

template <int R, bool Decrypt>
void armce_ecb(const uint8x16_t* rk, std::uint8_t* out, const std::uint8_t* in, std::size_t blocks) {
  for (; blocks >= kWidth; blocks -= kWidth, in += 16 * kWidth, out += 16 * kWidth) {
    uint8x16_t b[kWidth];
#pragma GCC unroll 8
    for (std::size_t j = 0; j < kWidth; ++j) b[j] = vld1q_u8(in + 16 * j);
    rounds<R, Decrypt, kWidth>(rk, b);
#pragma GCC unroll 8
    for (std::size_t j = 0; j < kWidth; ++j) vst1q_u8(out + 16 * j, b[j]);
  }
  for (; blocks > 0; --blocks, in += 16, out += 16) {
    uint8x16_t b = vld1q_u8(in);
    rounds<R, Decrypt, 1>(rk, &b);
    vst1q_u8(out, b);
  }
}

// The counter block (hi, lo + i) in memory order: each 64-bit half big-endian.
inline uint8x16_t counter_block(std::uint64_t hi, std::uint64_t lo, std::size_t i) {
  return vrev64q_u8(vreinterpretq_u8_u64(vcombine_u64(vcreate_u64(hi), vcreate_u64(lo + i))));
}

// One run of counters whose low 64 bits do not wrap. in == nullptr writes the keystream itself.
template <int R>
void ctr_run(const uint8x16_t* rk, std::uint8_t* out, const std::uint8_t* in, std::size_t len,
             std::uint64_t hi, std::uint64_t lo) {
  std::size_t i = 0;
  for (; len >= 16 * kWidth; len -= 16 * kWidth, i += kWidth, out += 16 * kWidth) {
    uint8x16_t b[kWidth];
#pragma GCC unroll 8
    for (std::size_t j = 0; j < kWidth; ++j) b[j] = counter_block(hi, lo, i + j);
    rounds<R, false, kWidth>(rk, b);
    if (in != nullptr) {
#pragma GCC unroll 8
      for (std::size_t j = 0; j < kWidth; ++j) b[j] = veorq_u8(b[j], vld1q_u8(in + 16 * j));
      in += 16 * kWidth;
    }
#pragma GCC unroll 8
    for (std::size_t j = 0; j < kWidth; ++j) vst1q_u8(out + 16 * j, b[j]);
  }
  for (; len > 0; ++i) {
    uint8x16_t b = counter_block(hi, lo, i);
    rounds<R, false, 1>(rk, &b);
    const std::size_t n = len < 16 ? len : 16;
    alignas(16) std::uint8_t ks[16];
    vst1q_u8(ks, b);
    for (std::size_t j = 0; j < n; ++j)
      out[j] = static_cast<std::uint8_t>(ks[j] ^ (in != nullptr ? in[j] : 0));
    if (in != nullptr) in += n;
    out += n;
    len -= n;
  }
}

struct Kernels {
  using Reg = uint8x16_t;
  static Reg round_key(const std::uint8_t* key16) { return vld1q_u8(key16); }
  template <int R, bool Decrypt>
  static void ecb(const Reg* rk, std::uint8_t* out, const std::uint8_t* in, std::size_t blocks) {
    armce_ecb<R, Decrypt>(rk, out, in, blocks);
  }
  template <int R>
  static void ctr(const Reg* rk, std::uint8_t* out, const std::uint8_t* in, std::size_t len, std::uint64_t hi,
                  std::uint64_t lo) {
    ctr_run<R>(rk, out, in, len, hi, lo);
  }
};

}  // namespace

std::unique_ptr<BlockCipher> make_armce_block_cipher(std::span<const std::uint8_t> key) {
  return std::make_unique<HardwareBlockCipher<Kernels>>(key);
}

}  // namespace pcrypt::aes::detail
