// The portable engine's building blocks: bitsliced S-box and layout, FIPS-197 block cipher, SP 800-38A CTR,
// and the GF(2^128) multiply behind GHASH.
#include <sodium.h>
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/aes/engine.h"
#include "core/aes/portable_aes.h"
#include "core/aes/portable_ghash.h"
#include "tests/test_bytes.h"

namespace {

using pcrypt::test::Bytes;
using pcrypt::test::from_hex;
using pcrypt::test::random_bytes;
namespace portable = pcrypt::aes::portable;

Bytes iota_bytes(std::size_t n) {
  Bytes b(n);
  for (std::size_t i = 0; i < n; ++i) b[i] = static_cast<std::uint8_t>(i);
  return b;
}

// ---- An S-box computed from its definition (FIPS-197 5.1.1), independent of the engine's circuit. ----

std::uint8_t gf256_mul(std::uint8_t a, std::uint8_t b) {
  std::uint8_t p = 0;
  for (int i = 0; i < 8; ++i) {
    if (b & 1) p ^= a;
    const bool carry = (a & 0x80) != 0;
    a = static_cast<std::uint8_t>(a << 1);
    if (carry) a ^= 0x1B;
    b >>= 1;
  }
  return p;
}

std::uint8_t gf256_inverse(std::uint8_t a) {
  if (a == 0) return 0;
  for (int b = 1; b < 256; ++b)
    if (gf256_mul(a, static_cast<std::uint8_t>(b)) == 1) return static_cast<std::uint8_t>(b);
  FAIL("no inverse");
  return 0;
}

std::array<std::uint8_t, 256> reference_sbox() {
  std::array<std::uint8_t, 256> s{};
  for (int x = 0; x < 256; ++x) {
    const std::uint8_t b = gf256_inverse(static_cast<std::uint8_t>(x));
    std::uint8_t out = 0;
    for (int i = 0; i < 8; ++i) {
      const int bit = ((b >> i) ^ (b >> ((i + 4) % 8)) ^ (b >> ((i + 5) % 8)) ^ (b >> ((i + 6) % 8)) ^
                       (b >> ((i + 7) % 8)) ^ (0x63 >> i)) &
                      1;
      out = static_cast<std::uint8_t>(out | (bit << i));
    }
    s[x] = out;
  }
  return s;
}

// Runs a bitsliced byte-wise function over all 256 byte values, 64 at a time.
template <class F>
std::array<std::uint8_t, 256> through_planes(F f) {
  std::array<std::uint8_t, 256> out{};
  for (int base = 0; base < 256; base += 64) {
    std::uint8_t buf[64];
    for (int i = 0; i < 64; ++i) buf[i] = static_cast<std::uint8_t>(base + i);
    portable::Planes s;
    portable::load_blocks(s, buf);
    f(s);
    portable::store_blocks(buf, s);
    for (int i = 0; i < 64; ++i) out[base + i] = buf[i];
  }
  return out;
}

std::unique_ptr<pcrypt::aes::BlockCipher> block_cipher(const Bytes& key) {
  const pcrypt::aes::Engine* e = pcrypt::aes::find_engine("portable");
  REQUIRE(e != nullptr);
  REQUIRE(e->supported());
  REQUIRE(e->make_block_cipher != nullptr);
  return e->make_block_cipher(key);
}

// Counter + k as 128-bit big-endian integers (mod 2^128), by schoolbook addition on bytes.
std::array<std::uint8_t, 16> counter_plus(const std::uint8_t* counter, std::uint64_t k) {
  std::array<std::uint8_t, 16> c{};
  unsigned carry = 0;
  for (int i = 15; i >= 0; --i) {
    const unsigned addend = i >= 8 ? static_cast<unsigned>((k >> (8 * (15 - i))) & 0xFF) : 0;
    const unsigned sum = counter[i] + addend + carry;
    c[i] = static_cast<std::uint8_t>(sum);
    carry = sum >> 8;
  }
  return c;
}

}  // namespace

TEST_CASE("bitsliced S-box equals the S-box computed from GF(2^8) inversion and the affine map") {
  const auto expected = reference_sbox();
  REQUIRE(expected[0x00] == 0x63);  // sanity of the reference itself (FIPS-197 Figure 7)
  REQUIRE(expected[0x53] == 0xED);
  const auto got = through_planes([](portable::Planes& s) { portable::sub_bytes(s); });
  for (int x = 0; x < 256; ++x) {
    INFO("x = " << x);
    REQUIRE(got[x] == expected[x]);
  }
}

TEST_CASE("bitsliced inverse S-box inverts the reference S-box") {
  const auto sbox = reference_sbox();
  const auto got = through_planes([](portable::Planes& s) { portable::inv_sub_bytes(s); });
  for (int x = 0; x < 256; ++x) {
    INFO("x = " << x);
    REQUIRE(got[sbox[x]] == x);
  }
}

TEST_CASE("bit-plane layout: byte (row, column) of block b is bit 16*row + 4*column + b of each plane") {
  for (unsigned block = 0; block < 4; ++block)
    for (unsigned column = 0; column < 4; ++column)
      for (unsigned row = 0; row < 4; ++row) {
        std::uint8_t buf[64] = {};
        buf[16 * block + 4 * column + row] = 0xA5;  // bits 0, 2, 5, 7
        portable::Planes s;
        portable::load_blocks(s, buf);
        const std::uint64_t bit = std::uint64_t{1} << (16 * row + 4 * column + block);
        for (int i = 0; i < 8; ++i) REQUIRE(s.q[i] == (((0xA5 >> i) & 1) ? bit : 0));
      }
  const Bytes data = random_bytes(64);
  portable::Planes s;
  portable::load_blocks(s, data.data());
  Bytes back(64);
  portable::store_blocks(back.data(), s);
  REQUIRE(back == data);
}

TEST_CASE("FIPS-197 Appendix C example vectors, encrypt and decrypt") {
  const Bytes plaintext = from_hex("00112233445566778899aabbccddeeff");
  const std::pair<std::size_t, const char*> cases[] = {
      {16, "69c4e0d86a7b0430d8cdb78070b4c55a"},
      {24, "dda97ca4864cdfe06eaf70a0ec0d7191"},
      {32, "8ea2b7ca516745bfeafc49904b496089"},
  };
  for (const auto& [key_len, ciphertext_hex] : cases) {
    INFO("AES-" << key_len * 8);
    const auto aes = block_cipher(iota_bytes(key_len));
    const Bytes ciphertext = from_hex(ciphertext_hex);
    Bytes out(16);
    aes->encrypt_blocks(out.data(), plaintext.data(), 1);
    REQUIRE(out == ciphertext);
    aes->decrypt_blocks(out.data(), ciphertext.data(), 1);
    REQUIRE(out == plaintext);
  }
}

TEST_CASE("multi-block calls equal block-by-block, in every batch slot, and decrypt inverts encrypt") {
  for (std::size_t key_len : {16, 24, 32}) {
    const auto aes = block_cipher(random_bytes(key_len));
    for (std::size_t blocks = 1; blocks <= 11; ++blocks) {
      INFO("key " << key_len << " blocks " << blocks);
      const Bytes in = random_bytes(16 * blocks);
      Bytes all(in.size()), one_by_one(in.size()), back(in.size());
      aes->encrypt_blocks(all.data(), in.data(), blocks);
      for (std::size_t b = 0; b < blocks; ++b) aes->encrypt_blocks(&one_by_one[16 * b], &in[16 * b], 1);
      REQUIRE(all == one_by_one);
      REQUIRE(all != in);
      aes->decrypt_blocks(back.data(), all.data(), blocks);
      REQUIRE(back == in);
      Bytes in_place = in;
      aes->encrypt_blocks(in_place.data(), in_place.data(), blocks);
      REQUIRE(in_place == all);
    }
  }
}

TEST_CASE("rejects AES keys that are not 16, 24 or 32 bytes") {
  const pcrypt::aes::Engine* e = pcrypt::aes::find_engine("portable");
  REQUIRE(e != nullptr);
  for (std::size_t len : {0, 15, 17, 31, 33, 64}) {
    const Bytes key(len, 1);
    REQUIRE_THROWS(e->make_block_cipher(key));
  }
}

TEST_CASE("SP 800-38A F.5.5 CTR-AES256 (counter carries into byte 14)") {
  const auto aes = block_cipher(from_hex("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4"));
  const Bytes plaintext = from_hex(
      "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51"
      "30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710");
  const Bytes ciphertext = from_hex(
      "601ec313775789a5b7a7f504bbf3d228f443e3ca4d62b59aca84e990cacaf5c5"
      "2b0930daa23de94ce87017ba2d84988ddfc9c58db67aada613c2dd08457941a6");
  Bytes counter = from_hex("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff");
  Bytes out(plaintext.size());
  aes->ctr_xor(out.data(), plaintext.data(), plaintext.size(), counter.data());
  REQUIRE(out == ciphertext);
  REQUIRE(counter == from_hex("f0f1f2f3f4f5f6f7f8f9fafbfcfdff03"));
}

TEST_CASE("CTR equals block encryption of manually incremented counters, across 2^64 and 2^128 wraps") {
  const Bytes starts[] = {
      from_hex("00000000000000000000000000000000"),
      from_hex("0123456789abcdef00000000fffffffe"),  // 2^32 boundary: not a wrap point for full-width CTR
      from_hex("0123456789abcdeffffffffffffffffd"),  // carries out of the low 64 bits
      from_hex("fffffffffffffffffffffffffffffffe"),  // wraps to zero
      random_bytes(16),
  };
  for (std::size_t key_len : {16, 24, 32}) {
    const auto aes = block_cipher(random_bytes(key_len));
    for (const Bytes& start : starts) {
      for (std::size_t len = 0; len <= 200; len += (len < 80 ? 1 : 13)) {
        INFO("key " << key_len << " len " << len);
        const std::size_t blocks = (len + 15) / 16;
        Bytes counters(16 * blocks), expected_stream(16 * blocks);
        for (std::size_t b = 0; b < blocks; ++b) {
          const auto c = counter_plus(start.data(), b);
          std::copy(c.begin(), c.end(), &counters[16 * b]);
        }
        aes->encrypt_blocks(expected_stream.data(), counters.data(), blocks);
        const Bytes in = random_bytes(len);
        Bytes expected(len);
        for (std::size_t i = 0; i < len; ++i) expected[i] = in[i] ^ expected_stream[i];
        const auto end = counter_plus(start.data(), blocks);
        const Bytes expected_counter(end.begin(), end.end());

        Bytes counter = start, out(len);
        aes->ctr_xor(out.data(), in.data(), len, counter.data());
        REQUIRE(out == expected);
        REQUIRE(counter == expected_counter);

        counter = start;
        Bytes stream(len);
        aes->ctr_keystream(stream.data(), len, counter.data());
        REQUIRE(stream == Bytes(expected_stream.begin(), expected_stream.begin() + static_cast<long>(len)));
        REQUIRE(counter == expected_counter);

        counter = start;
        Bytes in_place = in;
        aes->ctr_xor(in_place.data(), in_place.data(), len, counter.data());
        REQUIRE(in_place == expected);
      }
    }
  }
}

TEST_CASE("CTR split at a block boundary continues where the first call stopped") {
  const auto aes = block_cipher(random_bytes(32));
  const Bytes in = random_bytes(1000);
  const Bytes start = from_hex("ffffffffffffffffffffffffffffffef");
  Bytes whole(in.size()), parts(in.size());
  Bytes counter = start;
  aes->ctr_xor(whole.data(), in.data(), in.size(), counter.data());
  for (std::size_t split : {16, 48, 64, 80, 512}) {
    counter = start;
    aes->ctr_xor(parts.data(), in.data(), split, counter.data());
    aes->ctr_xor(parts.data() + split, in.data() + split, in.size() - split, counter.data());
    REQUIRE(parts == whole);
  }
}

TEST_CASE("GF(2^128) multiply: identity, x * x^127 = x^128 reduced, commutative, distributive") {
  using portable::Block128;
  const auto key = [](Block128 v) { return portable::make_multiplier(v); };
  const auto eq = [](Block128 a, Block128 b) { return a.hi == b.hi && a.lo == b.lo; };
  const Block128 one{std::uint64_t{1} << 63, 0};  // reflected: the top bit is x^0
  const Block128 x{std::uint64_t{1} << 62, 0};
  const Block128 x127{0, 1};
  const Block128 r = portable::gf128_mul(x, key(x127));
  REQUIRE(r.hi == 0xE100000000000000ULL);  // 1 + x + x^2 + x^7
  REQUIRE(r.lo == 0);
  for (int i = 0; i < 200; ++i) {
    const Bytes raw = random_bytes(48);
    const Block128 a = portable::load_block128(&raw[0]), b = portable::load_block128(&raw[16]),
                   c = portable::load_block128(&raw[32]);
    REQUIRE(eq(portable::gf128_mul(a, key(one)), a));
    REQUIRE(eq(portable::gf128_mul(a, key(b)), portable::gf128_mul(b, key(a))));
    const Block128 bc{b.hi ^ c.hi, b.lo ^ c.lo};
    const Block128 ab = portable::gf128_mul(a, key(b)), ac = portable::gf128_mul(a, key(c));
    REQUIRE(eq(portable::gf128_mul(a, key(bc)), Block128{ab.hi ^ ac.hi, ab.lo ^ ac.lo}));
    // Associativity exercises the reduction on full-width operands.
    REQUIRE(eq(portable::gf128_mul(ab, key(c)), portable::gf128_mul(a, key(portable::gf128_mul(b, key(c))))));
  }
}
