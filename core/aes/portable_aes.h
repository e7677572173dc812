// Constant-time software AES for the `portable` engine: bitsliced, four or eight blocks per pass.
//
// Four 16-byte blocks (64 bytes) are held as eight 64-bit bit planes: plane i holds bit i of every byte.
// SubBytes is then a Boolean circuit evaluated on whole words, and ShiftRows/MixColumns are fixed shifts and
// rotations, so no branch and no memory address ever depends on the key or the data. Plain uint64_t code:
// builds on any 64-bit target, no intrinsics.
#pragma once

#include <cstddef>
#include <cstdint>

namespace pcrypt::aes::portable {

inline constexpr std::size_t kBatchBlocks = 4;
inline constexpr std::size_t kBatchBytes = kBatchBlocks * 16;
inline constexpr std::size_t kWideBlocks = 8;
inline constexpr std::size_t kWideBytes = kWideBlocks * 16;
inline constexpr std::size_t kMaxRounds = 14;

// Eight bit planes of four blocks. Bit (16*row + 4*column + block) of plane i is bit i of the state byte at
// (row, column) of that block, so a row is a 16-bit lane: ShiftRows rotates inside a lane and MixColumns
// rotates whole 16-bit lanes.
template <class Word>
struct PlanesOf {
  Word q[8];
};
using Planes = PlanesOf<std::uint64_t>;

// Two such words side by side (blocks 0-3 and 4-7): eight blocks per pass. A GCC/Clang generic vector, not an
// intrinsic: SSE2 on x86-64, NEON on Arm, pairs of scalar operations elsewhere.
typedef std::uint64_t TwoWords __attribute__((vector_size(16)));
using WidePlanes = PlanesOf<TwoWords>;

// The expanded key, bitsliced: each round key is replicated into all block slots of both lanes, so
// eight-block passes use it without broadcasting (four-block passes read lane 0).
struct KeySchedule {
  WidePlanes round_key[kMaxRounds + 1];
  unsigned rounds;  // 10, 12 or 14
};

// The AES S-box and its inverse applied to all 64 bytes at once.
void sub_bytes(Planes& s);
void inv_sub_bytes(Planes& s);

// 64 bytes (four consecutive blocks) to bit planes and back.
void load_blocks(Planes& s, const std::uint8_t* in);
void store_blocks(std::uint8_t* out, const Planes& s);
// 128 bytes (eight consecutive blocks).
void load_blocks(WidePlanes& s, const std::uint8_t* in);
void store_blocks(std::uint8_t* out, const WidePlanes& s);

// FIPS-197 key expansion (SubWord through the bitsliced S-box). key_len must be 16, 24 or 32 (throws
// std::invalid_argument otherwise). Temporaries are wiped; the caller owns wiping `ks`.
void expand_key(KeySchedule& ks, const std::uint8_t* key, std::size_t key_len);

// The cipher and inverse cipher in bitsliced form.
void encrypt_planes(const KeySchedule& ks, Planes& s);
void decrypt_planes(const KeySchedule& ks, Planes& s);
void encrypt_planes(const KeySchedule& ks, WidePlanes& s);

// Byte-level helpers: 1..8 blocks from in to out (out == in allowed).
void encrypt_batch(const KeySchedule& ks, std::uint8_t* out, const std::uint8_t* in, std::size_t blocks);
void decrypt_batch(const KeySchedule& ks, std::uint8_t* out, const std::uint8_t* in, std::size_t blocks);

}  // namespace pcrypt::aes::portable
