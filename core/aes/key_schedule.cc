// FIPS-197 key expansion, word by word, with the hardware's S-box (sub_word): constant time (no table indexed
// by key bytes) and one code path for all three key sizes.
#include "core/aes/key_schedule.h"

#include <sodium.h>

#include <cstring>
#include <stdexcept>

namespace pcrypt::aes::detail {
namespace {

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
    std::memcpy(out.dec[i], out.enc[rounds - i], 16);
    inv_mix_columns(out.dec[i]);
  }
  std::memcpy(out.dec[rounds], out.enc[0], 16);
}

void expand_key_for_rounds(std::span<const std::uint8_t> key, int rounds, RoundKeys& out) {
  if (static_cast<int>(key.size()) != 4 * (rounds - 6))
    throw std::invalid_argument("AES-GCM key of the wrong length for this kernel");
  expand_key(key.data(), key.size(), out);
}

}  // namespace pcrypt::aes::detail
