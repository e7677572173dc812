// AES key expansion shared by the hardware engines. The word loop (key_schedule.cc) is plain C++; its two
// byte-substituting steps come from the machine's AES instructions (key_schedule_aesni.cc on x86-64,
// key_schedule_armce.cc on AArch64), so call only where that engine is supported.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace pcrypt::aes::detail {

inline constexpr int kMaxRounds = 14;

struct RoundKeys {
  // Encryption round keys 0..rounds, then the "equivalent inverse cipher" keys for aesdec, in the order they
  // are used (dec[0] = enc[rounds], dec[i] = InvMixColumns(enc[rounds - i]), dec[rounds] = enc[0]).
  alignas(16) std::uint8_t enc[kMaxRounds + 1][16];
  alignas(16) std::uint8_t dec[kMaxRounds + 1][16];
  int rounds;  // 10, 12 or 14
};

// key_len must be 16, 24 or 32 (throws std::invalid_argument otherwise). Defined in key_schedule.cc.
void expand_key(const std::uint8_t* key, std::size_t key_len, RoundKeys& out);
// The same for a kernel built for a fixed round count: throws std::invalid_argument unless the key is the
// size that gives `rounds` rounds (10: 16 bytes, 12: 24, 14: 32).
void expand_key_for_rounds(std::span<const std::uint8_t> key, int rounds, RoundKeys& out);

// The instruction-set parts, one definition per architecture: SubWord (the S-box on each byte of a
// little-endian word, in constant time) and InvMixColumns of one 16-byte round key, in place.
std::uint32_t sub_word(std::uint32_t w);
void inv_mix_columns(std::uint8_t* block16);

}  // namespace pcrypt::aes::detail
