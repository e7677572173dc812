// Bitsliced AES rounds, key expansion and the byte <-> bit-plane transposition (layout: see portable_aes.h).
#include "core/aes/portable_aes.h"

#include <sodium.h>

#include <bit>
#include <cstring>
#include <stdexcept>
#include <type_traits>

#include "core/aes/portable_sbox.h"

namespace pcrypt::aes::portable {
namespace {

using u64 = std::uint64_t;

// Exchanges the bits of a selected by mask<<shift with the bits of b selected by mask.
template <class W>
inline void swap_bits(W& a, W& b, u64 mask, unsigned shift) {
  const W t = ((a >> shift) ^ b) & mask;
  b ^= t;
  a ^= t << shift;
}

// Exchanges, inside x, the bits selected by mask with those `shift` positions higher.
template <class W>
inline W delta_swap(W x, u64 mask, unsigned shift) {
  const W t = (x ^ (x >> shift)) & mask;
  return x ^ t ^ (t << shift);
}

// Moves the 64 bytes of four blocks (index bits block:2 column:2 row:2, loaded as eight little-endian words)
// to the plane layout. All steps are fixed bit-index permutations done with swap-moves:
//   1. exchange block and row bits: word j byte k becomes the byte for plane bit position 8j + k;
//   2. transpose each word as an 8x8 bit matrix: word j bit (8i + k) = bit i of that byte;
//   3. exchange the word index with bits 3..5 of the bit index: word (plane) i bit (8j + k).
// Every step is an involution, so store runs them in reverse order.
template <class W>
inline void exchange_block_and_row(PlanesOf<W>& s) {
  for (unsigned j = 0; j < 4; ++j) swap_bits(s.q[j], s.q[j + 4], 0x0000FFFF0000FFFFULL, 16);
  for (unsigned j : {0u, 1u, 4u, 5u}) swap_bits(s.q[j], s.q[j + 2], 0x00FF00FF00FF00FFULL, 8);
}

template <class W>
inline void transpose_bytes_bits(PlanesOf<W>& s) {
  for (W& x : s.q) {
    x = delta_swap(x, 0x00AA00AA00AA00AAULL, 7);
    x = delta_swap(x, 0x0000CCCC0000CCCCULL, 14);
    x = delta_swap(x, 0x00000000F0F0F0F0ULL, 28);
  }
}

template <class W>
inline void transpose_words(PlanesOf<W>& s) {
  for (unsigned j = 0; j < 8; j += 2) swap_bits(s.q[j], s.q[j + 1], 0x00FF00FF00FF00FFULL, 8);
  for (unsigned j : {0u, 1u, 4u, 5u}) swap_bits(s.q[j], s.q[j + 2], 0x0000FFFF0000FFFFULL, 16);
  for (unsigned j = 0; j < 4; ++j) swap_bits(s.q[j], s.q[j + 4], 0x00000000FFFFFFFFULL, 32);
}

template <class W>
inline void words_to_planes(PlanesOf<W>& s) {
  exchange_block_and_row(s);
  transpose_bytes_bits(s);
  transpose_words(s);
}

template <class W>
inline void planes_to_words(PlanesOf<W>& s) {
  transpose_words(s);
  transpose_bytes_bits(s);
  exchange_block_and_row(s);
}

inline u64 load_le64(const std::uint8_t* p) {
  u64 v;
  std::memcpy(&v, p, 8);
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap64(v);
  return v;
}

inline void store_le64(std::uint8_t* p, u64 v) {
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap64(v);
  std::memcpy(p, &v, 8);
}

template <class W>
inline W rotr(W x, unsigned n) {
  return (x >> n) | (x << (64 - n));
}

template <class W>
inline void add_round_key(PlanesOf<W>& s, const WidePlanes& k) {
  for (int i = 0; i < 8; ++i) {
    if constexpr (std::is_same_v<W, TwoWords>)
      s.q[i] ^= k.q[i];
    else
      s.q[i] ^= k.q[i][0];
  }
}

// Row r of each block's state rotates left by r columns: lane r rotates right by r nibbles, done as a byte
// swap in lanes 2 and 3 and then a one-nibble rotation in lanes 1 and 3.
template <class W>
inline void shift_rows(PlanesOf<W>& s) {
  for (W& x : s.q) {
    x = delta_swap(x, 0x00FF00FF00000000ULL, 8);
    x = (x & 0x0000FFFF0000FFFFULL) | ((x >> 4) & 0x0FFF00000FFF0000ULL) |
        ((x << 12) & 0xF0000000F0000000ULL);
  }
}

template <class W>
inline void inv_shift_rows(PlanesOf<W>& s) {
  for (W& x : s.q) {
    x = delta_swap(x, 0x00FF00FF00000000ULL, 8);
    x = (x & 0x0000FFFF0000FFFFULL) | ((x << 4) & 0xFFF00000FFF00000ULL) |
        ((x >> 12) & 0x000F0000000F0000ULL);
  }
}

// Multiplication by x in GF(2^8) (modulus x^8 + x^4 + x^3 + x + 1), plane-wise.
template <class W>
inline PlanesOf<W> times_x(const PlanesOf<W>& a) {
  const W hi = a.q[7];
  return PlanesOf<W>{{hi, a.q[0] ^ hi, a.q[1], a.q[2] ^ hi, a.q[3] ^ hi, a.q[4], a.q[5], a.q[6]}};
}

// Each column [a0 a1 a2 a3] becomes {2 a_r ^ 3 a_{r+1} ^ a_{r+2} ^ a_{r+3}} = {2 (a_r ^ a_{r+1}) ^ a_{r+1} ^
// a_{r+2} ^ a_{r+3}}. Row r+k of every column sits k lanes (16k bits) above row r, so it is a plain 64-bit
// rotation.
template <class W>
inline void mix_columns(PlanesOf<W>& s) {
  PlanesOf<W> next, rest, sum;
  for (int i = 0; i < 8; ++i) {
    next.q[i] = rotr(s.q[i], 16);
    rest.q[i] = next.q[i] ^ rotr(s.q[i], 32) ^ rotr(s.q[i], 48);
    sum.q[i] = s.q[i] ^ next.q[i];
  }
  const PlanesOf<W> doubled = times_x(sum);
  for (int i = 0; i < 8; ++i) s.q[i] = doubled.q[i] ^ rest.q[i];
}

// InvMixColumns = MixColumns after multiplying each column by 4x^2 + 5, i.e. a_r ^= 4 (a_r ^ a_{r+2}).
template <class W>
inline void inv_mix_columns(PlanesOf<W>& s) {
  PlanesOf<W> opposite;
  for (int i = 0; i < 8; ++i) opposite.q[i] = s.q[i] ^ rotr(s.q[i], 32);
  const PlanesOf<W> quadrupled = times_x(times_x(opposite));
  for (int i = 0; i < 8; ++i) s.q[i] ^= quadrupled.q[i];
  mix_columns(s);
}

template <class W>
void encrypt_rounds(const KeySchedule& ks, PlanesOf<W>& s) {
  add_round_key(s, ks.round_key[0]);
  for (unsigned r = 1; r < ks.rounds; ++r) {
    sbox_circuit(s.q);
    shift_rows(s);
    mix_columns(s);
    add_round_key(s, ks.round_key[r]);
  }
  sbox_circuit(s.q);
  shift_rows(s);
  add_round_key(s, ks.round_key[ks.rounds]);
}

template <class W>
void decrypt_rounds(const KeySchedule& ks, PlanesOf<W>& s) {
  add_round_key(s, ks.round_key[ks.rounds]);
  for (unsigned r = ks.rounds - 1; r > 0; --r) {
    inv_shift_rows(s);
    inv_sbox_circuit(s.q);
    add_round_key(s, ks.round_key[r]);
    inv_mix_columns(s);
  }
  inv_shift_rows(s);
  inv_sbox_circuit(s.q);
  add_round_key(s, ks.round_key[0]);
}

// SubWord on a 32-bit key-schedule word, through the bitsliced S-box so the key schedule is constant time
// too.
std::uint32_t sub_word(std::uint32_t w) {
  Planes s{};
  for (unsigned i = 0; i < 8; ++i)
    for (unsigned k = 0; k < 4; ++k) s.q[i] |= static_cast<u64>((w >> (8 * k + i)) & 1) << k;
  sbox_circuit(s.q);
  std::uint32_t out = 0;
  for (unsigned i = 0; i < 8; ++i)
    for (unsigned k = 0; k < 4; ++k) out |= static_cast<std::uint32_t>((s.q[i] >> k) & 1) << (8 * k + i);
  sodium_memzero(&s, sizeof s);
  return out;
}

}  // namespace

void load_blocks(Planes& s, const std::uint8_t* in) {
  for (unsigned j = 0; j < 8; ++j) s.q[j] = load_le64(in + 8 * j);
  words_to_planes(s);
}

void store_blocks(std::uint8_t* out, const Planes& s) {
  Planes t = s;
  planes_to_words(t);
  for (unsigned j = 0; j < 8; ++j) store_le64(out + 8 * j, t.q[j]);
  sodium_memzero(&t, sizeof t);
}

void expand_key(KeySchedule& ks, const std::uint8_t* key, std::size_t key_len) {
  if (key_len != 16 && key_len != 24 && key_len != 32)
    throw std::invalid_argument("AES key must be 16, 24 or 32 bytes");
  const unsigned nk = static_cast<unsigned>(key_len / 4);
  ks.rounds = nk + 6;
  const unsigned total = 4 * (ks.rounds + 1);

  // Words are big-endian, as in FIPS-197.
  std::uint32_t w[4 * (kMaxRounds + 1)];
  for (unsigned i = 0; i < nk; ++i)
    w[i] = (std::uint32_t{key[4 * i]} << 24) | (std::uint32_t{key[4 * i + 1]} << 16) |
           (std::uint32_t{key[4 * i + 2]} << 8) | std::uint32_t{key[4 * i + 3]};
  std::uint32_t rcon = 1;
  for (unsigned i = nk; i < total; ++i) {
    std::uint32_t t = w[i - 1];
    if (i % nk == 0) {
      t = sub_word((t << 8) | (t >> 24)) ^ (rcon << 24);
      rcon = (rcon << 1) ^ ((rcon >> 7) * 0x11B);  // rcon is public: no secret in this multiply
    } else if (nk > 6 && i % nk == 4) {
      t = sub_word(t);
    }
    w[i] = w[i - nk] ^ t;
  }

  std::uint8_t replicated[kBatchBytes];
  for (unsigned r = 0; r <= ks.rounds; ++r) {
    for (unsigned b = 0; b < kBatchBlocks; ++b)
      for (unsigned c = 0; c < 4; ++c)
        for (unsigned row = 0; row < 4; ++row)
          replicated[16 * b + 4 * c + row] = static_cast<std::uint8_t>(w[4 * r + c] >> (24 - 8 * row));
    Planes narrow;
    load_blocks(narrow, replicated);
    for (int i = 0; i < 8; ++i) ks.round_key[r].q[i] = TwoWords{narrow.q[i], narrow.q[i]};
    sodium_memzero(&narrow, sizeof narrow);
  }
  sodium_memzero(w, sizeof w);
  sodium_memzero(replicated, sizeof replicated);
}

void sub_bytes(Planes& s) {
  sbox_circuit(s.q);
}
void inv_sub_bytes(Planes& s) {
  inv_sbox_circuit(s.q);
}

void load_blocks(WidePlanes& s, const std::uint8_t* in) {
  for (unsigned j = 0; j < 8; ++j)
    s.q[j] = TwoWords{load_le64(in + 8 * j), load_le64(in + kBatchBytes + 8 * j)};
  words_to_planes(s);
}

void store_blocks(std::uint8_t* out, const WidePlanes& s) {
  WidePlanes t = s;
  planes_to_words(t);
  for (unsigned j = 0; j < 8; ++j) {
    store_le64(out + 8 * j, t.q[j][0]);
    store_le64(out + kBatchBytes + 8 * j, t.q[j][1]);
  }
  sodium_memzero(&t, sizeof t);
}

void encrypt_planes(const KeySchedule& ks, Planes& s) {
  encrypt_rounds(ks, s);
}
void encrypt_planes(const KeySchedule& ks, WidePlanes& s) {
  encrypt_rounds(ks, s);
}
void decrypt_planes(const KeySchedule& ks, Planes& s) {
  decrypt_rounds(ks, s);
}

namespace {

// 1..8 blocks through a zero-padded buffer: four-block planes when they suffice, eight-block ones otherwise.
template <class P, bool kEncrypt>
void run_batch(const KeySchedule& ks, std::uint8_t* out, const std::uint8_t* in, std::size_t blocks) {
  std::uint8_t buf[sizeof(P) == sizeof(Planes) ? kBatchBytes : kWideBytes] = {};
  std::memcpy(buf, in, blocks * 16);
  P s;
  load_blocks(s, buf);
  if constexpr (kEncrypt)
    encrypt_rounds(ks, s);
  else
    decrypt_rounds(ks, s);
  store_blocks(buf, s);
  std::memcpy(out, buf, blocks * 16);
  sodium_memzero(buf, sizeof buf);
  sodium_memzero(&s, sizeof s);
}

}  // namespace

void encrypt_batch(const KeySchedule& ks, std::uint8_t* out, const std::uint8_t* in, std::size_t blocks) {
  if (blocks > kBatchBlocks)
    run_batch<WidePlanes, true>(ks, out, in, blocks);
  else
    run_batch<Planes, true>(ks, out, in, blocks);
}

void decrypt_batch(const KeySchedule& ks, std::uint8_t* out, const std::uint8_t* in, std::size_t blocks) {
  if (blocks > kBatchBlocks)
    run_batch<WidePlanes, false>(ks, out, in, blocks);
  else
    run_batch<Planes, false>(ks, out, in, blocks);
}

}  // namespace pcrypt::aes::portable
