// Our own ChaCha20-Poly1305 (core/chacha/chacha20poly1305_avx512ifma.h) against the standard and the two
// libraries it replaces: RFC 8439's known answers, libsodium's AEAD and Poly1305 over random and edge-case
// inputs (lengths around every boundary of the 1 KiB and 128-byte steps, keys whose limbs are all ones or
// zero, messages of all-ones blocks that push every carry), OpenSSL through core::Aead, in place and not, and
// a failed open that releases nothing; and Wycheproof's ChaCha20-Poly1305 vectors (tests/vectors/chacha/) on
// every backend. The own engine's cases are skipped, saying so, where the CPU lacks AVX-512 IFMA.
#include <sodium.h>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <memory>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "core/aes/sodium_init.h"
#include "core/chacha/chacha20poly1305.h"
#include "tests/aes_vectors.h"
#include "tests/source_dir.h"
#include "tests/test_bytes.h"

#if defined(PCRYPT_ENGINES_X86_64)
#include "core/chacha/chacha20poly1305_avx512ifma.h"
#endif

using namespace pcrypt;
using test::Bytes;

namespace {

using test::from_hex;

std::string hex(const std::uint8_t* p, std::size_t n) {
  return test::to_hex(std::span<const std::uint8_t>(p, n));
}

// Lengths that cross every step of the engine: blocks (16), Poly1305 lanes (128, pairs of 256), keystream
// batches (1024, 2048), an age chunk (64 KiB) and one byte either side of each. The openssl backend computes
// only messages of chacha::kOpenSslFromBytes (64 KiB) and more itself, handing shorter ones to libsodium: the
// lengths from 64 KiB up (fixed and random) are what test OpenSSL's code.
std::vector<std::size_t> edge_lengths() {
  std::vector<std::size_t> out;
  for (std::size_t n = 0; n <= 300; ++n) out.push_back(n);
  for (std::size_t base : {1024u, 2048u, 3072u, 1024u * 7, 65536u, 65536u + 1024u, 1u << 20})
    for (std::size_t delta : {0u, 1u, 15u, 16u, 17u, 127u, 128u, 129u, 255u, 256u, 257u, 1023u})
      for (const std::size_t n : {base - std::min<std::size_t>(delta, base), base + delta}) out.push_back(n);
  // and lengths drawn at random (a different set each run: INFO names the failing one)
  for (int i = 0; i < 40; ++i) out.push_back(randombytes_uniform(300000));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace

TEST_CASE("every available ChaCha20-Poly1305 backend agrees with libsodium, in place and not") {
  pcrypt::require_sodium();
  const Bytes key = test::random_bytes(32);
  const std::span<const std::uint8_t, 32> k(key.data(), 32);
  const auto backends = chacha::available_chacha_backends();
  REQUIRE(backends.front() == chacha::default_chacha_backend());
  for (const auto backend : backends) {
    const auto aead = chacha::make_chacha20poly1305(k, backend);
    for (const std::size_t len : edge_lengths()) {
      INFO(chacha::backend_name(backend) << ", " << len << " bytes");
      const Bytes msg = test::random_bytes(len);
      const Bytes nonce_bytes = test::random_bytes(12);
      const std::span<const std::uint8_t, 12> nonce(nonce_bytes.data(), 12);
      Bytes expected(len + 16);
      crypto_aead_chacha20poly1305_ietf_encrypt_detached(expected.data(), expected.data() + len, nullptr,
                                                         msg.data(), len, nullptr, 0, nullptr, nonce.data(),
                                                         key.data());
      Bytes sealed(len + 16);
      aead->seal(sealed.data(), sealed.data() + len, msg.data(), len, nonce);
      REQUIRE(sealed == expected);

      Bytes in_place = msg;
      in_place.resize(len + 16);
      aead->seal(in_place.data(), in_place.data() + len, in_place.data(), len, nonce);
      REQUIRE(in_place == expected);

      Bytes opened(len);
      REQUIRE(aead->open(opened.data(), sealed.data(), len, sealed.data() + len, nonce));
      REQUIRE(opened == msg);
      REQUIRE(aead->open(in_place.data(), in_place.data(), len, in_place.data() + len, nonce));
      REQUIRE(Bytes(in_place.begin(), in_place.begin() + static_cast<std::ptrdiff_t>(len)) == msg);

      // A flipped bit anywhere (the last byte of the ciphertext, the tag) releases nothing.
      Bytes bad = expected;
      bad[len > 0 ? len - 1 : len] ^= 0x01;
      Bytes out(len, 0xaa);
      REQUIRE_FALSE(aead->open(out.data(), bad.data(), len, bad.data() + len, nonce));
      REQUIRE(std::all_of(out.begin(), out.end(), [](std::uint8_t b) { return b == 0; }));
      REQUIRE_FALSE(aead->open(bad.data(), bad.data(), len, bad.data() + len, nonce));
      REQUIRE(std::all_of(bad.begin(), bad.begin() + static_cast<std::ptrdiff_t>(len),
                          [](std::uint8_t b) { return b == 0; }));
    }
  }
}

namespace {

struct WycheproofCase {
  long long id;
  std::string comment;
  Bytes key, nonce, aad, msg, ct, tag;
  bool valid;
};

// Wycheproof's file as it is upstream (tests/vectors/chacha/README.md): the 96-bit-nonce tests, all of them
// checked to be read (numberOfTests) and counted (256 valid, 60 invalid, as the README says).
std::vector<WycheproofCase> wycheproof_cases() {
  std::ifstream file(std::string(pcrypt::test::source_dir()) +
                         "/tests/vectors/chacha/wycheproof_chacha20_poly1305_test.json",
                     std::ios::binary);
  REQUIRE(file);
  std::ostringstream text;
  text << file.rdbuf();
  const aes_test::Json doc = aes_test::JsonParser(text.str()).parse_document();
  REQUIRE(doc.at("algorithm").str() == "CHACHA20-POLY1305");
  std::vector<WycheproofCase> out;
  long long total = 0, skipped = 0;
  for (const aes_test::Json& group : doc.at("testGroups").items)
    for (const aes_test::Json& t : group.at("tests").items) {
      ++total;
      if (group.at("ivSize").integer() != 96) {
        ++skipped;
        continue;
      }
      const std::string& result = t.at("result").str();
      REQUIRE((result == "valid" || result == "invalid"));
      out.push_back({t.at("tcId").integer(), t.at("comment").str(), from_hex(t.at("key").str()),
                     from_hex(t.at("iv").str()), from_hex(t.at("aad").str()), from_hex(t.at("msg").str()),
                     from_hex(t.at("ct").str()), from_hex(t.at("tag").str()), result == "valid"});
    }
  REQUIRE(total == doc.at("numberOfTests").integer());
  REQUIRE(skipped == 9);
  REQUIRE(std::count_if(out.begin(), out.end(), [](const WycheproofCase& c) { return c.valid; }) == 256);
  REQUIRE(out.size() == 316);
  return out;
}

}  // namespace

TEST_CASE("Wycheproof ChaCha20-Poly1305 vectors without associated data, on every backend") {
  const std::vector<WycheproofCase> cases = wycheproof_cases();
  for (const auto backend : chacha::available_chacha_backends()) {
    std::size_t run = 0;
    for (const WycheproofCase& c : cases) {
      if (!c.aad.empty()) continue;  // core::Aead takes none: the engine's own entry below runs those
      INFO(chacha::backend_name(backend) << ", tcId " << c.id << " " << c.comment);
      ++run;
      const auto aead =
          chacha::make_chacha20poly1305(std::span<const std::uint8_t, 32>(c.key.data(), 32), backend);
      const std::span<const std::uint8_t, 12> nonce(c.nonce.data(), 12);
      Bytes out(c.msg.size() + 1);
      // An empty message's ciphertext is an empty vector, whose data() may be nullptr: every backend takes
      // it.
      const bool opened = aead->open(out.data(), c.ct.data(), c.ct.size(), c.tag.data(), nonce);
      REQUIRE(opened == c.valid);
      if (!c.valid) continue;
      REQUIRE(Bytes(out.begin(), out.end() - 1) == c.msg);
      Bytes sealed(c.msg.size() + 16);
      aead->seal(sealed.data(), sealed.data() + c.msg.size(), c.msg.data(), c.msg.size(), nonce);
      REQUIRE(hex(sealed.data(), c.msg.size()) == hex(c.ct.data(), c.ct.size()));
      REQUIRE(hex(sealed.data() + c.msg.size(), 16) == hex(c.tag.data(), 16));
    }
    CHECK(run == 45);  // the 96-bit-nonce tests without associated data (tests/vectors/chacha/README.md)
  }
}

#if defined(PCRYPT_ENGINES_X86_64)

TEST_CASE("own ChaCha20-Poly1305 (AVX-512 IFMA): known answers, AAD, Poly1305 edge cases") {
  if (!chacha::detail::avx512ifma_supported()) {
    WARN("SKIPPED: this CPU has no AVX-512 IFMA; the engine is not used here");
    return;
  }
  pcrypt::require_sodium();

  SECTION("RFC 8439 §2.8.2: the AEAD example") {
    const Bytes key = from_hex("808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f");
    const Bytes nonce = from_hex("070000004041424344454647");
    const Bytes aad = from_hex("50515253c0c1c2c3c4c5c6c7");
    const std::string text =
        "Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, "
        "sunscreen "
        "would be it.";
    const Bytes msg(text.begin(), text.end());
    Bytes ct(msg.size());
    std::uint8_t tag[16];
    chacha::detail::seal_avx512ifma(key.data(), nonce.data(), aad.data(), aad.size(), msg.data(), msg.size(),
                                    ct.data(), tag);
    CHECK(hex(ct.data(), ct.size()) ==
          "d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d63dbea45e8ca9671282fafb69da92728b1a"
          "71de"
          "0a9e060b2905d6a5b67ecd3b3692ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc3ff4def0"
          "8e4b"
          "7a9de576d26586cec64b6116");
    CHECK(hex(tag, 16) == "1ae10b594f09e26a7e902ecbd0600691");
    Bytes back(msg.size());
    CHECK(chacha::detail::open_avx512ifma(key.data(), nonce.data(), aad.data(), aad.size(), ct.data(),
                                          ct.size(), tag, back.data()));
    CHECK(back == msg);
    Bytes other_aad = aad;
    other_aad[0] ^= 1;
    CHECK_FALSE(chacha::detail::open_avx512ifma(key.data(), nonce.data(), other_aad.data(), other_aad.size(),
                                                ct.data(), ct.size(), tag, back.data()));
  }

  SECTION("Wycheproof's vectors, with their associated data") {
    for (const WycheproofCase& c : wycheproof_cases()) {
      INFO("tcId " << c.id << " " << c.comment);
      Bytes out(c.msg.size() + 1);
      const bool opened =
          chacha::detail::open_avx512ifma(c.key.data(), c.nonce.data(), c.aad.data(), c.aad.size(),
                                          c.ct.data(), c.ct.size(), c.tag.data(), out.data());
      REQUIRE(opened == c.valid);
      if (!c.valid) continue;
      REQUIRE(Bytes(out.begin(), out.end() - 1) == c.msg);
      Bytes ct(c.msg.size() + 1);
      std::uint8_t tag[16];
      chacha::detail::seal_avx512ifma(c.key.data(), c.nonce.data(), c.aad.data(), c.aad.size(), c.msg.data(),
                                      c.msg.size(), ct.data(), tag);
      REQUIRE(hex(ct.data(), c.msg.size()) == hex(c.ct.data(), c.ct.size()));
      REQUIRE(hex(tag, 16) == hex(c.tag.data(), 16));
    }
  }

  SECTION("RFC 8439 §2.5.2: the Poly1305 example") {
    const Bytes key = from_hex("85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b");
    const std::string text = "Cryptographic Forum Research Group";
    std::uint8_t tag[16];
    chacha::detail::poly1305_avx512ifma(tag, reinterpret_cast<const std::uint8_t*>(text.data()), text.size(),
                                        key.data());
    CHECK(hex(tag, 16) == "a8061dc1305136c6c22b8baf0c0127a9");
  }

  SECTION("with associated data, as libsodium") {
    for (const std::size_t aad_len : {0u, 1u, 15u, 16u, 17u, 128u, 129u, 1000u, 2048u}) {
      for (const std::size_t len : {0u, 1u, 64u, 1023u, 1024u, 1025u, 5000u}) {
        INFO(aad_len << " bytes of AAD, " << len << " bytes");
        const Bytes key = test::random_bytes(32), nonce = test::random_bytes(12);
        const Bytes aad = test::random_bytes(aad_len), msg = test::random_bytes(len);
        Bytes expected(len + 16), got(len + 16);
        crypto_aead_chacha20poly1305_ietf_encrypt_detached(expected.data(), expected.data() + len, nullptr,
                                                           msg.data(), len, aad.data(), aad_len, nullptr,
                                                           nonce.data(), key.data());
        chacha::detail::seal_avx512ifma(key.data(), nonce.data(), aad.data(), aad_len, msg.data(), len,
                                        got.data(), got.data() + len);
        REQUIRE(got == expected);
        Bytes back(len);
        REQUIRE(chacha::detail::open_avx512ifma(key.data(), nonce.data(), aad.data(), aad_len, got.data(),
                                                len, got.data() + len, back.data()));
        REQUIRE(back == msg);
      }
    }
  }

  SECTION("Poly1305 alone, as libsodium, with keys and messages at the limbs' edges") {
    std::vector<Bytes> keys;
    keys.push_back(Bytes(32, 0xff));  // r clamped to its largest value, s all ones: every carry of the sum
    keys.push_back(Bytes(32, 0x00));  // r = 0: the tag is s
    Bytes r_ones_s_zero(32, 0xff);
    std::fill(r_ones_s_zero.begin() + 16, r_ones_s_zero.end(), 0);
    keys.push_back(r_ones_s_zero);
    for (int i = 0; i < 5; ++i) keys.push_back(test::random_bytes(32));
    std::vector<Bytes> messages;
    for (const std::size_t len : {0u, 1u, 15u, 16u, 17u, 127u, 128u, 129u, 255u, 256u, 1024u, 1040u, 4111u}) {
      messages.push_back(Bytes(len, 0xff));  // every limb at its largest: the accumulators' worst case
      messages.push_back(Bytes(len, 0x00));
      messages.push_back(test::random_bytes(len));
    }
    for (const Bytes& key : keys)
      for (const Bytes& msg : messages) {
        INFO("key " << hex(key.data(), 32) << ", " << msg.size() << " bytes");
        std::uint8_t expected[16], got[16];
        crypto_onetimeauth_poly1305(expected, msg.data(), msg.size(), key.data());
        chacha::detail::poly1305_avx512ifma(got, msg.data(), msg.size(), key.data());
        REQUIRE(hex(got, 16) == hex(expected, 16));
      }
  }

  SECTION("Poly1305 on values just below and above p = 2^130 - 5") {
    // h = p - 1, p, p + 4 before the final reduction: with r = 1 (key bytes 0..15 = 01 00 ..), a single
    // block m gives h = (m + 2^128) * 1, so blocks near 2^130 - 2^128 probe the last conditional subtract.
    Bytes key(32, 0);
    key[0] = 1;
    for (int i = 16; i < 32; ++i) key[i] = static_cast<std::uint8_t>(i * 11);
    for (const std::uint8_t low : {0xf9, 0xfa, 0xfb, 0xff}) {
      // 16 bytes of 0xff with the lowest byte `low`, plus 2^128, plus another 2^128 * 2 via a second block
      Bytes msg(32, 0xff);
      msg[0] = low;
      msg[16] = low;
      std::uint8_t expected[16], got[16];
      crypto_onetimeauth_poly1305(expected, msg.data(), msg.size(), key.data());
      chacha::detail::poly1305_avx512ifma(got, msg.data(), msg.size(), key.data());
      INFO("low byte " << int(low));
      REQUIRE(hex(got, 16) == hex(expected, 16));
    }
  }
}

#endif
