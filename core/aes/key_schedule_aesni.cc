// The AES-NI parts of the key expansion in key_schedule.cc: AESKEYGENASSIST as the S-box, AESIMC.
#include <immintrin.h>

#include "core/aes/key_schedule.h"

namespace pcrypt::aes::detail {

std::uint32_t sub_word(std::uint32_t w) {
  // AESKEYGENASSIST puts SubWord(dword 1) into dword 0 of its result.
  const __m128i x = _mm_set_epi32(0, 0, static_cast<int>(w), 0);
  return static_cast<std::uint32_t>(_mm_cvtsi128_si32(_mm_aeskeygenassist_si128(x, 0)));
}

void inv_mix_columns(std::uint8_t* block16) {
  auto* p = reinterpret_cast<__m128i*>(block16);
  _mm_storeu_si128(p, _mm_aesimc_si128(_mm_loadu_si128(p)));
}

}  // namespace pcrypt::aes::detail
