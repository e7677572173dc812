// FIPS 203 §4.2-4.3 arithmetic. See mlkem_poly.h for the constant-time rule.
#include "core/pq/mlkem_poly.h"

#include <cstddef>

#include "core/pq/sha3.h"

namespace pcrypt::pq::mlkem {
namespace {

constexpr std::uint32_t pow_mod(std::uint32_t base, unsigned e) {
  std::uint32_t r = 1;
  for (unsigned i = 0; i < e; ++i) r = r * base % q;
  return r;
}
constexpr unsigned bitrev7(unsigned i) {
  unsigned r = 0;
  for (int b = 0; b < 7; ++b) r |= ((i >> b) & 1U) << (6 - b);
  return r;
}
// zeta = 17 is the primitive 256th root of unity mod q the standard fixes (§4.3).
constexpr std::array<std::uint16_t, 128> make_zetas() {  // 17^BitRev7(i)
  std::array<std::uint16_t, 128> z{};
  for (unsigned i = 0; i < 128; ++i) z[i] = static_cast<std::uint16_t>(pow_mod(17, bitrev7(i)));
  return z;
}
constexpr std::array<std::uint16_t, 128> make_gammas() {  // 17^(2 BitRev7(i) + 1), for BaseCaseMultiply
  std::array<std::uint16_t, 128> g{};
  for (unsigned i = 0; i < 128; ++i) g[i] = static_cast<std::uint16_t>(pow_mod(17, 2 * bitrev7(i) + 1));
  return g;
}
constexpr auto zetas = make_zetas();
constexpr auto gammas = make_gammas();
constexpr std::uint32_t n_inverse = 3303;  // 128^-1 mod q (the inverse NTT's final scaling)
static_assert(128 * n_inverse % q == 1);

std::uint16_t mul(std::uint32_t a, std::uint32_t b) {
  return reduce(a * b);
}

}  // namespace

void add(Poly& r, const Poly& a, const Poly& b) {
  for (int i = 0; i < n; ++i) r[i] = reduce_once(std::uint32_t{a[i]} + b[i]);
}

void sub(Poly& r, const Poly& a, const Poly& b) {
  for (int i = 0; i < n; ++i) r[i] = reduce_once(std::uint32_t{a[i]} + q - b[i]);
}

void ntt(Poly& f) {
  unsigned k = 1;
  for (int len = 128; len >= 2; len /= 2) {
    for (int start = 0; start < n; start += 2 * len) {
      const std::uint32_t zeta = zetas[k++];
      for (int j = start; j < start + len; ++j) {
        const std::uint16_t t = mul(zeta, f[j + len]);
        f[j + len] = reduce_once(std::uint32_t{f[j]} + q - t);
        f[j] = reduce_once(std::uint32_t{f[j]} + t);
      }
    }
  }
}

void ntt_inverse(Poly& f) {
  unsigned k = 127;
  for (int len = 2; len <= 128; len *= 2) {
    for (int start = 0; start < n; start += 2 * len) {
      const std::uint32_t zeta = zetas[k--];
      for (int j = start; j < start + len; ++j) {
        const std::uint16_t t = f[j];
        f[j] = reduce_once(std::uint32_t{t} + f[j + len]);
        f[j + len] = mul(zeta, std::uint32_t{f[j + len]} + q - t);
      }
    }
  }
  for (auto& c : f) c = mul(c, n_inverse);
}

void multiply_add_ntt(Poly& r, const Poly& a, const Poly& b) {
  for (int i = 0; i < 128; ++i) {
    const std::uint32_t a0 = a[2 * i], a1 = a[2 * i + 1], b0 = b[2 * i], b1 = b[2 * i + 1];
    // Each product is < q^2 < 2^24, so the sums below stay far inside 32 bits before one reduction.
    const std::uint32_t c0 = a0 * b0 + std::uint32_t{mul(mul(a1, b1), gammas[i])};
    const std::uint32_t c1 = a0 * b1 + a1 * b0;
    r[2 * i] = reduce(r[2 * i] + c0);
    r[2 * i + 1] = reduce(r[2 * i + 1] + c1);
  }
}

void sample_ntt(Poly& out, std::span<const std::uint8_t, 32> rho, std::uint8_t j, std::uint8_t i,
                std::size_t* squeezed) {
  // Three SHAKE-128 blocks (504 bytes, 336 candidates of which 273 are accepted on average) cover all but
  // about one seed in a hundred; the stream recomputes a longer output for the rest (sha3.h).
  constexpr std::size_t block = 168;
  const std::uint8_t ji[2] = {j, i};
  sha3::XofStream xof(sha3::XofStream::Kind::shake128, {rho, ji}, 3 * block);
  std::uint8_t buf[block];
  int filled = 0;
  while (filled < n) {
    xof.read(buf);
    for (std::size_t p = 0; p + 3 <= block && filled < n; p += 3) {
      const std::uint16_t d1 = static_cast<std::uint16_t>(buf[p] | ((buf[p + 1] & 0x0F) << 8));
      const std::uint16_t d2 = static_cast<std::uint16_t>((buf[p + 1] >> 4) | (buf[p + 2] << 4));
      if (d1 < q) out[filled++] = d1;
      if (d2 < q && filled < n) out[filled++] = d2;
    }
  }
  if (squeezed != nullptr) *squeezed = xof.squeezed();
}

void sample_cbd2(Poly& out, std::span<const std::uint8_t, 128> bytes) {
  for (int i = 0; i < n / 2; ++i) {  // one byte = two coefficients of four bits each
    const std::uint32_t b = bytes[i];
    for (int half = 0; half < 2; ++half) {
      const std::uint32_t x = b >> (4 * half);
      const std::uint32_t plus = (x & 1U) + ((x >> 1) & 1U);
      const std::uint32_t minus = ((x >> 2) & 1U) + ((x >> 3) & 1U);
      out[2 * i + half] = reduce_once(plus + q - minus);
    }
  }
}

void encode12(std::span<std::uint8_t, 384> out, const Poly& f) {
  for (int i = 0; i < n / 2; ++i) {
    const std::uint32_t a = f[2 * i], b = f[2 * i + 1];
    out[3 * i] = static_cast<std::uint8_t>(a);
    out[3 * i + 1] = static_cast<std::uint8_t>((a >> 8) | (b << 4));
    out[3 * i + 2] = static_cast<std::uint8_t>(b >> 4);
  }
}

bool decode12(Poly& f, std::span<const std::uint8_t, 384> in) {
  std::uint32_t out_of_range = 0;  // accumulated without branching: dk is decoded by this function too
  for (int i = 0; i < n / 2; ++i) {
    const std::uint32_t a = in[3 * i] | ((std::uint32_t{in[3 * i + 1]} & 0x0F) << 8);
    const std::uint32_t b = (in[3 * i + 1] >> 4) | (std::uint32_t{in[3 * i + 2]} << 4);
    out_of_range |= ((q - 1 - a) | (q - 1 - b)) >> 31;  // top bit set iff a or b >= q
    f[2 * i] = reduce_once(a);                          // a < 4096 < 2q
    f[2 * i + 1] = reduce_once(b);
  }
  return out_of_range == 0;
}

void compress_encode(std::span<std::uint8_t> out, const Poly& f, int d) {
  // Compress_d(x) = round(2^d x / q) mod 2^d. The division is by the constant q, which compilers turn into a
  // multiplication, so it takes the same time for every x.
  const std::uint32_t mask = (1U << d) - 1;
  std::uint64_t acc = 0;
  int bits = 0;
  std::size_t o = 0;
  for (int i = 0; i < n; ++i) {
    const std::uint32_t c = ((std::uint32_t{f[i]} << d) + q / 2) / q & mask;
    acc |= std::uint64_t{c} << bits;
    bits += d;
    while (bits >= 8) {
      out[o++] = static_cast<std::uint8_t>(acc);
      acc >>= 8;
      bits -= 8;
    }
  }
}

void decode_decompress(Poly& f, std::span<const std::uint8_t> in, int d) {
  // Decompress_d(y) = round(q y / 2^d).
  const std::uint32_t mask = (1U << d) - 1;
  std::uint64_t acc = 0;
  int bits = 0;
  std::size_t pos = 0;
  for (int i = 0; i < n; ++i) {
    while (bits < d) {
      acc |= std::uint64_t{in[pos++]} << bits;
      bits += 8;
    }
    const std::uint32_t y = static_cast<std::uint32_t>(acc) & mask;
    acc >>= d;
    bits -= d;
    f[i] = static_cast<std::uint16_t>((y * q + (1U << (d - 1))) >> d);
  }
}

}  // namespace pcrypt::pq::mlkem
