// Constant-time GHASH for the `portable` engine: carry-less multiplication emulated with integer multiplies
// whose operands have every fourth bit masked out (so carries never reach a bit that is kept).
#pragma once

#include <cstddef>
#include <cstdint>

namespace pcrypt::aes::portable {

// A GF(2^128) element in GCM's byte order: hi = bytes 0..7, lo = bytes 8..15, each read big-endian. Bit 63 of
// hi is the coefficient of x^0 (GCM's reflected convention).
struct Block128 {
  std::uint64_t hi;
  std::uint64_t lo;
};

Block128 load_block128(const std::uint8_t* in);
void store_block128(std::uint8_t* out, Block128 v);

// A multiplier with its bit-reversed halves precomputed.
struct Multiplier {
  Block128 v;
  Block128 v_reversed;
};

Multiplier make_multiplier(Block128 v);

// a * b in GF(2^128) modulo x^128 + x^7 + x^2 + x + 1.
Block128 gf128_mul(Block128 a, const Multiplier& b);

// The hash key: H^1..H^4, so four blocks are hashed as four independent products and one reduction.
struct GhashKey {
  Multiplier h_power[4];  // h_power[i] = H^(i+1)
};

GhashKey make_ghash_key(Block128 h);

// Running GHASH state Y; absorb() takes whole blocks and zero-pads a final partial one, so only the last call
// for each of AAD and ciphertext may have a length that is not a multiple of 16.
class Ghash {
 public:
  explicit Ghash(const GhashKey& key) : key_(key) {}
  ~Ghash();
  Ghash(const Ghash&) = delete;
  Ghash& operator=(const Ghash&) = delete;

  void absorb(const std::uint8_t* data, std::size_t len);
  // Absorbs the length block (bit lengths of AAD and ciphertext) and writes the 16-byte result.
  void finish(std::uint8_t* out, std::uint64_t aad_len, std::uint64_t text_len);

 private:
  const GhashKey& key_;
  Block128 y_{0, 0};
};

}  // namespace pcrypt::aes::portable
