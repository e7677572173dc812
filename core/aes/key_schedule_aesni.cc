// FIPS-197 key expansion, word by word, with AESKEYGENASSIST as the S-box: constant time (no table indexed by
// key bytes) and one code path for all three key sizes.
#include <immintrin.h>
#include <sodium.h>

#include <cstring>
#include <stdexcept>

#include "core/aes/key_schedule.h"

namespace pcrypt::aes::detail {
namespace {

std::uint32_t sub_word(std::uint32_t w) {
  // AESKEYGENASSIST puts SubWord(dword 1) into dword 0 of its result.
  const __m128i x = _mm_set_epi32(0, 0, static_cast<int>(w), 0);
  return static_cast<std::uint32_t>(_mm_cvtsi128_si32(_mm_aeskeygenassist_si128(x, 0)));
}

std::uint32_t rot_word(std::uint32_t w) {
  return (w >> 8) | (w << 24);
}  // bytes a0a1a2a3 -> a1a2a3a0 (LE)

}  // namespace

void expand_key(const std::uint8_t* key, std::size_t key_len, RoundKeys& out) {
  if (key_len != 16 && key_len != 24 && key_len != 32)
    throw std::invalid_argument("AES key must be 16, 24 or 32 bytes");
  const int nk = static_cast<int>(key_len / 4);
  const int rounds = nk + 6;
  const int total = 4 * (rounds + 1);
  std::uint32_t w[4 * (kMaxRounds + 1)];
  std::memcpy(w, key, key_len);
  std::uint32_t rcon = 1;
  for (int i = nk; i < total; ++i) {
    std::uint32_t t = w[i - 1];
    if (i % nk == 0) {
      t = sub_word(rot_word(t)) ^ rcon;
      rcon = (rcon << 1) ^ ((rcon >> 7) * 0x11b);
    } else if (nk > 6 && i % nk == 4) {
      t = sub_word(t);
    }
    w[i] = w[i - nk] ^ t;
  }
  out.rounds = rounds;
  std::memcpy(out.enc, w, static_cast<std::size_t>(total) * 4);
  sodium_memzero(w, sizeof w);

  std::memcpy(out.dec[0], out.enc[rounds], 16);
  for (int i = 1; i < rounds; ++i) {
    const __m128i k = _mm_load_si128(reinterpret_cast<const __m128i*>(out.enc[rounds - i]));
    _mm_store_si128(reinterpret_cast<__m128i*>(out.dec[i]), _mm_aesimc_si128(k));
  }
  std::memcpy(out.dec[rounds], out.enc[0], 16);
}

}  // namespace pcrypt::aes::detail
