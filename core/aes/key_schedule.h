// AES key expansion shared by the hardware engines (computed with AES-NI, so call only where it is
// supported).
#pragma once

#include <cstddef>
#include <cstdint>

namespace pcrypt::aes::detail {

inline constexpr int kMaxRounds = 14;

struct RoundKeys {
  // Encryption round keys 0..rounds, then the "equivalent inverse cipher" keys for aesdec, in the order they
  // are used (dec[0] = enc[rounds], dec[i] = InvMixColumns(enc[rounds - i]), dec[rounds] = enc[0]).
  alignas(16) std::uint8_t enc[kMaxRounds + 1][16];
  alignas(16) std::uint8_t dec[kMaxRounds + 1][16];
  int rounds;  // 10, 12 or 14
};

// key_len must be 16, 24 or 32 (throws std::invalid_argument otherwise). Defined in key_schedule_aesni.cc.
void expand_key(const std::uint8_t* key, std::size_t key_len, RoundKeys& out);

}  // namespace pcrypt::aes::detail
