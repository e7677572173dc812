// Blowfish, eksblowfish's key expansion and bcrypt_pbkdf, written from their published descriptions. The
// initial Blowfish state is the fractional part of pi in hexadecimal (P-array first, then the four S-boxes),
// computed here once with Machin's formula rather than written out as 4168 bytes of constants.
#include "core/keys/bcrypt_pbkdf.h"

#include <sodium.h>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <vector>

#include "core/error.h"

namespace pcrypt::core {
namespace {

constexpr std::size_t kPWords = 18;
constexpr std::size_t kSWords = 4 * 256;

struct BlowfishState {
  std::array<std::uint32_t, kPWords> p;
  std::array<std::uint32_t, kSWords> s;  // S-box i is s[256*i .. 256*i+255]
};

// ---- pi, to 1042 32-bit words after the point -------------------------------------------------------------

// Fixed-point number: limb 0 is the integer part, limbs 1.. the fraction, 32 bits each, most significant
// first. Eight guard limbs absorb the truncation of the ~10^4 divisions below.
using Fixed = std::vector<std::uint32_t>;
constexpr std::size_t kPiLimbs = 1 + kPWords + kSWords + 8;

void divide(Fixed& x, std::uint32_t d) {
  std::uint64_t rem = 0;
  for (std::uint32_t& limb : x) {
    const std::uint64_t cur = (rem << 32) | limb;
    limb = static_cast<std::uint32_t>(cur / d);
    rem = cur % d;
  }
}
void add(Fixed& a, const Fixed& b) {
  std::uint64_t carry = 0;
  for (std::size_t i = a.size(); i-- > 0;) {
    const std::uint64_t sum = std::uint64_t{a[i]} + b[i] + carry;
    a[i] = static_cast<std::uint32_t>(sum);
    carry = sum >> 32;
  }
}
void subtract(Fixed& a, const Fixed& b) {
  std::uint64_t borrow = 0;
  for (std::size_t i = a.size(); i-- > 0;) {
    const std::uint64_t sub = std::uint64_t{b[i]} + borrow;
    borrow = a[i] < sub ? 1 : 0;
    a[i] = static_cast<std::uint32_t>((std::uint64_t{a[i]} + (borrow << 32)) - sub);
  }
}
bool is_zero(const Fixed& x) {
  return std::all_of(x.begin(), x.end(), [](std::uint32_t v) { return v == 0; });
}

// factor · arctan(1/m) = factor · Σ (-1)^k / ((2k+1) m^(2k+1)).
Fixed arctan_inverse(std::uint32_t m, std::uint32_t factor) {
  Fixed power(kPiLimbs, 0);
  power[0] = factor;
  divide(power, m);
  Fixed sum = power;
  for (std::uint32_t k = 1;; ++k) {
    divide(power, m * m);
    if (is_zero(power)) break;
    Fixed term = power;
    divide(term, 2 * k + 1);
    if (k % 2 == 1)
      subtract(sum, term);
    else
      add(sum, term);
  }
  return sum;
}

const BlowfishState& initial_state() {
  static BlowfishState state;
  static std::once_flag once;
  std::call_once(once, [] {
    Fixed pi = arctan_inverse(5, 16);
    subtract(pi, arctan_inverse(239, 4));
    std::copy(pi.begin() + 1, pi.begin() + 1 + kPWords, state.p.begin());
    std::copy(pi.begin() + 1 + kPWords, pi.begin() + 1 + kPWords + kSWords, state.s.begin());
  });
  return state;
}

// ---- Blowfish
// ----------------------------------------------------------------------------------------------

std::uint32_t f(const BlowfishState& c, std::uint32_t x) {
  return ((c.s[x >> 24] + c.s[256 + ((x >> 16) & 0xff)]) ^ c.s[512 + ((x >> 8) & 0xff)]) +
         c.s[768 + (x & 0xff)];
}

void encipher(const BlowfishState& c, std::uint32_t& left, std::uint32_t& right) {
  std::uint32_t l = left, r = right;
  for (std::size_t i = 0; i < 16; i += 2) {
    l ^= c.p[i];
    r ^= f(c, l);
    r ^= c.p[i + 1];
    l ^= f(c, r);
  }
  left = r ^ c.p[17];
  right = l ^ c.p[16];
}

// The next 4 bytes of `data` as a big-endian word, wrapping around at its end.
std::uint32_t stream_word(std::span<const std::uint8_t> data, std::size_t& j) {
  std::uint32_t w = 0;
  for (int i = 0; i < 4; ++i) {
    if (j >= data.size()) j = 0;
    w = (w << 8) | data[j++];
  }
  return w;
}

// eksblowfish's ExpandKey(state, salt, key): XOR the key into P, then re-key every P and S word with blocks
// enciphered in chain, each XORed first with the next salt words. An empty salt is the original Blowfish key
// schedule (and bcrypt's ExpandKey(state, 0, key)).
void expand(BlowfishState& c, std::span<const std::uint8_t> salt, std::span<const std::uint8_t> key) {
  std::size_t j = 0;
  for (std::uint32_t& w : c.p) w ^= stream_word(key, j);
  j = 0;
  std::uint32_t l = 0, r = 0;
  auto refill = [&](std::uint32_t* words, std::size_t n) {
    for (std::size_t i = 0; i < n; i += 2) {
      if (!salt.empty()) {
        l ^= stream_word(salt, j);
        r ^= stream_word(salt, j);
      }
      encipher(c, l, r);
      words[i] = l;
      words[i + 1] = r;
    }
  };
  refill(c.p.data(), kPWords);
  refill(c.s.data(), kSWords);
}

constexpr std::string_view kMagicText = "OxychromaticBlowfishSwatDynamite";

// bcrypt_hash: 32 bytes from the SHA-512 of the passphrase and of the (counted) salt.
void bcrypt_hash(const std::uint8_t sha2pass[64], const std::uint8_t sha2salt[64], std::uint8_t out[32]) {
  BlowfishState c = initial_state();
  const std::span<const std::uint8_t> pass(sha2pass, 64), salt(sha2salt, 64);
  expand(c, salt, pass);
  for (int i = 0; i < 64; ++i) {
    expand(c, {}, salt);
    expand(c, {}, pass);
  }
  std::array<std::uint32_t, 8> cdata{};
  std::size_t j = 0;
  const std::span<const std::uint8_t> text(reinterpret_cast<const std::uint8_t*>(kMagicText.data()), 32);
  for (std::uint32_t& w : cdata) w = stream_word(text, j);
  for (int i = 0; i < 64; ++i)
    for (std::size_t b = 0; b < 8; b += 2) encipher(c, cdata[b], cdata[b + 1]);
  for (std::size_t i = 0; i < 8; ++i)  // little-endian words, as OpenBSD's implementation outputs them
    for (std::size_t k = 0; k < 4; ++k) out[4 * i + k] = static_cast<std::uint8_t>(cdata[i] >> (8 * k));
  sodium_memzero(&c, sizeof c);
  sodium_memzero(cdata.data(), sizeof cdata);
}

}  // namespace

std::array<std::uint32_t, 2> blowfish_encrypt_block(std::span<const std::uint8_t> key, std::uint32_t left,
                                                    std::uint32_t right) {
  BlowfishState c = initial_state();
  expand(c, {}, key);
  encipher(c, left, right);
  return {left, right};
}

void bcrypt_pbkdf(std::span<const std::uint8_t> passphrase, std::span<const std::uint8_t> salt,
                  std::uint32_t rounds, std::span<std::uint8_t> out) {
  if (rounds < 1 || out.empty() || out.size() > 1024 || salt.size() > (1u << 20))
    throw Error(PCRYPT_E_NOT_AN_IDENTITY, "bcrypt_pbkdf: invalid parameters");
  constexpr std::size_t kHash = 32;
  const std::size_t stride = (out.size() + kHash - 1) / kHash;
  std::size_t amount = (out.size() + stride - 1) / stride;
  std::uint8_t sha2pass[64], sha2salt[64], block[kHash], acc[kHash];
  crypto_hash_sha512(sha2pass, passphrase.data(), passphrase.size());
  std::vector<std::uint8_t> counted(salt.begin(), salt.end());
  counted.resize(salt.size() + 4);
  std::size_t left = out.size();
  for (std::uint32_t count = 1; left > 0; ++count) {
    for (int k = 0; k < 4; ++k)
      counted[salt.size() + static_cast<std::size_t>(k)] = static_cast<std::uint8_t>(count >> (24 - 8 * k));
    crypto_hash_sha512(sha2salt, counted.data(), counted.size());
    bcrypt_hash(sha2pass, sha2salt, block);
    std::memcpy(acc, block, kHash);
    for (std::uint32_t r = 1; r < rounds; ++r) {
      crypto_hash_sha512(sha2salt, block, kHash);
      bcrypt_hash(sha2pass, sha2salt, block);
      for (std::size_t i = 0; i < kHash; ++i) acc[i] ^= block[i];
    }
    // Output bytes are spread with the stride, so every block of output depends on every round.
    amount = std::min(amount, left);
    std::size_t i = 0;
    for (; i < amount; ++i) {
      const std::size_t dest = i * stride + (count - 1);
      if (dest >= out.size()) break;
      out[dest] = acc[i];
    }
    left -= i;
  }
  sodium_memzero(sha2pass, sizeof sha2pass);
  sodium_memzero(sha2salt, sizeof sha2salt);
  sodium_memzero(block, sizeof block);
  sodium_memzero(acc, sizeof acc);
}

}  // namespace pcrypt::core
