// The ARMv8 Crypto Extensions parts of the key expansion in key_schedule.cc.
#include <arm_neon.h>

#include "core/aes/key_schedule.h"

namespace pcrypt::aes::detail {

std::uint32_t sub_word(std::uint32_t w) {
  // AESE with a zero round key is SubBytes(ShiftRows(x)). With the word in all four columns, ShiftRows only
  // moves equal bytes between columns, so every column of the result is SubWord(w).
  const uint8x16_t x = vreinterpretq_u8_u32(vdupq_n_u32(w));
  return vgetq_lane_u32(vreinterpretq_u32_u8(vaeseq_u8(x, vdupq_n_u8(0))), 0);
}

void inv_mix_columns(std::uint8_t* block16) {
  vst1q_u8(block16, vaesimcq_u8(vld1q_u8(block16)));
}

}  // namespace pcrypt::aes::detail
