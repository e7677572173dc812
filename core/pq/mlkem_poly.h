// The arithmetic under ML-KEM (FIPS 203 §4): polynomials of Z_q[X]/(X^256 + 1), q = 3329, their NTT, the
// samplers and the byte encodings. Coefficients are kept fully reduced in [0, q).
//
// Constant time: every function that may see secret data (reduction, NTT, products, CBD sampling,
// compression, encodings) is straight-line arithmetic; no branch or memory index depends on a coefficient.
// Only sample_ntt (public matrix from the public seed rho) and decode12's modulus check branch on data, which
// is public there.
#pragma once

#include <array>
#include <cstdint>
#include <span>

namespace pcrypt::pq::mlkem {

inline constexpr std::uint32_t q = 3329;
inline constexpr int n = 256;
using Poly = std::array<std::uint16_t, n>;

// Field arithmetic on values in [0, q).
inline std::uint16_t reduce_once(std::uint32_t x) {  // x in [0, 2q) -> x mod q, branch-free
  std::int32_t t = static_cast<std::int32_t>(x) - static_cast<std::int32_t>(q);
  t += (t >> 31) & static_cast<std::int32_t>(q);
  return static_cast<std::uint16_t>(t);
}
inline std::uint16_t reduce(std::uint32_t x) {  // any 32-bit x -> x mod q (Barrett, floor(2^32 / q))
  constexpr std::uint64_t m = (std::uint64_t{1} << 32) / q;
  const auto quot = static_cast<std::uint32_t>((x * m) >> 32);
  return reduce_once(x - quot * q);
}

void add(Poly& r, const Poly& a, const Poly& b);  // r may alias a or b
void sub(Poly& r, const Poly& a, const Poly& b);
void ntt(Poly& f);          // Algorithm 9
void ntt_inverse(Poly& f);  // Algorithm 10
// r += a * b in the NTT domain (Algorithm 11, BaseCaseMultiply), coefficients accumulated mod q.
void multiply_add_ntt(Poly& r, const Poly& a, const Poly& b);

// Algorithm 7: SHAKE-128(rho || j || i) rejection-sampled into an NTT-domain polynomial (public inputs).
// `squeezed`, if given, receives how many XOF bytes were computed.
void sample_ntt(Poly& out, std::span<const std::uint8_t, 32> rho, std::uint8_t j, std::uint8_t i,
                std::size_t* squeezed = nullptr);
// Algorithm 8 for eta = 2 on 128 bytes of PRF output (ML-KEM-768 uses eta1 = eta2 = 2).
void sample_cbd2(Poly& out, std::span<const std::uint8_t, 128> bytes);

// ByteEncode_12 / ByteDecode_12 (384 bytes). decode12 returns false if a 12-bit value is >= q (§7.2 modulus
// check); the polynomial is then still filled, with values reduced mod q.
void encode12(std::span<std::uint8_t, 384> out, const Poly& f);
bool decode12(Poly& f, std::span<const std::uint8_t, 384> in);
// Compress_d then ByteEncode_d, and ByteDecode_d then Decompress_d, for d in {1, 4, 10} (32 * d bytes).
void compress_encode(std::span<std::uint8_t> out, const Poly& f, int d);
void decode_decompress(Poly& f, std::span<const std::uint8_t> in, int d);

}  // namespace pcrypt::pq::mlkem
