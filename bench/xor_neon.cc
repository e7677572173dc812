// Hand-written NEON XOR for the keystream experiment on AArch64, the counterpart of xor_avx2.cc. Advanced
// SIMD is part of the AArch64 baseline, so this file needs no extra flags and no run-time check.
#include <arm_neon.h>

#include "bench/xor_kernels.h"

namespace pcrypt::app::bench {

__attribute__((noinline)) void xor_neon(std::uint8_t* data, const std::uint8_t* keystream, std::size_t n) {
  std::size_t i = 0;
  // Four independent 16-byte registers per iteration (one LD1 of four registers each side).
  for (; i + 64 <= n; i += 64) {
    uint8x16x4_t d = vld1q_u8_x4(data + i);
    const uint8x16x4_t k = vld1q_u8_x4(keystream + i);
    d.val[0] = veorq_u8(d.val[0], k.val[0]);
    d.val[1] = veorq_u8(d.val[1], k.val[1]);
    d.val[2] = veorq_u8(d.val[2], k.val[2]);
    d.val[3] = veorq_u8(d.val[3], k.val[3]);
    vst1q_u8_x4(data + i, d);
  }
  for (; i + 16 <= n; i += 16) vst1q_u8(data + i, veorq_u8(vld1q_u8(data + i), vld1q_u8(keystream + i)));
  for (; i < n; ++i) data[i] ^= keystream[i];
}

}  // namespace pcrypt::app::bench
